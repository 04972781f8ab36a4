// SPDX-License-Identifier: GPL-3.0-or-later
#include "gemm.h"

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <tuple>
#include <vector>

#include "error.h"

namespace attnviz {
namespace {

// What GemmRecorder records. Never freed, so a product on another thread that sees
// `active` never touches freed memory; one atomic load per product when nobody records.
struct Recording {
    std::atomic<bool> active{false};
    std::mutex mutex;  // guards calls, and active's changes
    std::vector<GemmCall> calls;
};
Recording& recording() {
    static Recording r;
    return r;
}

[[maybe_unused]] void record(const GemmCall& c) {
    Recording& r = recording();
    if (!r.active.load(std::memory_order_acquire)) return;
    std::lock_guard<std::mutex> lock(r.mutex);
    if (r.active.load(std::memory_order_relaxed)) r.calls.push_back(c);
}

// A column-major (Fortran) sgemm's call as the row-major product it is: C^T = op(B)^T op(A)^T.
GemmCall fromColumnMajor(char ta, char tb, int m, int n, int k, int lda, int ldb, int ldc,
                         float beta) {
    GemmCall c;
    c.transA = tb != 'N' && tb != 'n';
    c.transB = ta != 'N' && ta != 'n';
    c.m = n, c.n = m, c.k = k, c.lda = ldb, c.ldb = lda, c.ldc = ldc;
    c.accumulate = beta != 0;
    return c;
}

}  // namespace
}  // namespace attnviz

#if defined(ATTNVIZ_GEMM_OPENBLAS) || defined(ATTNVIZ_GEMM_ONEDNN)
extern "C" void openblas_set_num_threads(int);
#endif
#ifdef ATTNVIZ_GEMM_BLIS
extern "C" void bli_thread_set_num_threads(long);
#endif

#ifdef ATTNVIZ_GEMM_ONEDNN
#include <oneapi/dnnl/dnnl.h>

extern "C" void omp_set_num_threads(int);  // GNU OpenMP, which oneDNN runs on

// Eigen (EIGEN_USE_BLAS) calls the Fortran BLAS sgemm_; this definition, linked into the
// program, takes precedence over OpenBLAS's and hands the product to oneDNN. Fortran is
// column-major and dnnl_sgemm row-major: a column-major C (m x n) is the row-major C^T, and
// C^T = op(B)^T op(A)^T, so the operands and sizes swap.
namespace {

// oneDNN runs on OpenMP: one thread per calling thread (each std::thread has its own
// OpenMP settings, starting from the process default).
void oneOpenMpThread() {
    thread_local const bool oneThread = [] {
        omp_set_num_threads(1);
        return true;
    }();
    (void)oneThread;
}

}  // namespace

// Eigen's matrix-vector products (sgemv_) go to oneDNN too: OpenBLAS picks its kernel by
// CPU and, on processors it does not know, falls back to a generic one that was 40 % of the
// app's CPU time when decoding 110 tokens with 12 models (one output-layer product per
// token). y = alpha·op(A)·x + beta·y with A column-major m × n, i.e. row-major n × m:
// 'N': yᵀ [1, m] = xᵀ [1, n] · A_rm [n, m]; 'T': yᵀ [1, n] = xᵀ [1, m] · A_rmᵀ.
// Strided vectors are gathered into contiguous ones first, so a product gives the same
// bits whatever the strides of its vectors.
extern "C" int sgemv_(const char* trans, const int* m, const int* n, const float* alpha,
                      const float* a, const int* lda, const float* x, const int* incx,
                      const float* beta, float* y, const int* incy) {
    const bool t = *trans == 'T' || *trans == 't' || *trans == 'C' || *trans == 'c';
    const int out = t ? *n : *m, inner = t ? *m : *n;
    if (out <= 0) return 0;
    // BLAS strides: a negative increment walks the vector from its far end.
    auto at = [](int i, int len, int inc) {
        return ptrdiff_t(inc >= 0 ? i : len - 1 - i) * std::abs(inc);
    };
    std::vector<float> xs, ys;
    const float* xp = x;
    float* yp = y;
    if (*incx != 1) {
        xs.resize(size_t(std::max(inner, 0)));
        for (int i = 0; i < inner; ++i) xs[size_t(i)] = x[at(i, inner, *incx)];
        xp = xs.data();
    }
    if (*incy != 1) {
        ys.assign(size_t(out), 0.0f);
        if (*beta != 0.0f)
            for (int i = 0; i < out; ++i) ys[size_t(i)] = y[at(i, out, *incy)];
        yp = ys.data();
    }
    oneOpenMpThread();
    if (inner <= 0) {
        for (int i = 0; i < out; ++i) yp[i] = *beta == 0.0f ? 0.0f : *beta * yp[i];
    } else {
        dnnl_sgemm('N', t ? 'T' : 'N', 1, out, inner, *alpha, xp, inner, a, *lda, *beta, yp, out);
    }
    if (*incy != 1)
        for (int i = 0; i < out; ++i) y[at(i, out, *incy)] = ys[size_t(i)];
    return 0;
}

extern "C" int sgemm_(const char* transa, const char* transb, const int* m, const int* n,
                      const int* k, const float* alpha, const float* a, const int* lda,
                      const float* b, const int* ldb, const float* beta, float* c, const int* ldc) {
    oneOpenMpThread();
    attnviz::record(
        attnviz::fromColumnMajor(*transa, *transb, *m, *n, *k, *lda, *ldb, *ldc, *beta));
    dnnl_sgemm(*transb, *transa, *n, *m, *k, *alpha, b, *ldb, a, *lda, *beta, c, *ldc);
    return 0;
}
#elif defined(ATTNVIZ_GEMM_OPENBLAS) || defined(ATTNVIZ_GEMM_BLIS)
extern "C" int sgemm_(const char* transa, const char* transb, const int* m, const int* n,
                      const int* k, const float* alpha, const float* a, const int* lda,
                      const float* b, const int* ldb, const float* beta, float* c, const int* ldc);
#endif

namespace attnviz {

const char* gemmBackend() {
#if defined(ATTNVIZ_GEMM_OPENBLAS)
    return "openblas";
#elif defined(ATTNVIZ_GEMM_BLIS)
    return "blis";
#elif defined(ATTNVIZ_GEMM_ONEDNN)
    return "onednn";
#else
    return "eigen";
#endif
}

bool gemmRowMajor(bool transA, bool transB, int m, int n, int k, float alpha, const float* a,
                  int lda, const float* b, int ldb, float* c, int ldc) {
    // The characters Eigen passes (GeneralMatrixMatrix_BLAS.h).
    const char ta = transA ? 'T' : 'N', tb = transB ? 'T' : 'N';
    const float beta = 0;
#if defined(ATTNVIZ_GEMM_ONEDNN)
    // What sgemm_ above receives from Eigen for a row-major result, swapped back: oneDNN is
    // row-major itself.
    oneOpenMpThread();
    record({transA, transB, m, n, k, lda, ldb, ldc, false});
    dnnl_sgemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    return true;
#elif defined(ATTNVIZ_GEMM_OPENBLAS) || defined(ATTNVIZ_GEMM_BLIS)
    // Column-major BLAS: row-major C is column-major Cᵀ = op(B)ᵀ op(A)ᵀ, as Eigen calls it.
    record({transA, transB, m, n, k, lda, ldb, ldc, false});
    sgemm_(&tb, &ta, &n, &m, &k, &alpha, b, &ldb, a, &lda, &beta, c, &ldc);
    return true;
#else
    (void)ta, (void)tb, (void)beta, (void)m, (void)n, (void)k, (void)alpha, (void)a, (void)lda,
        (void)b, (void)ldb, (void)c, (void)ldc;
    return false;
#endif
}

bool GemmCall::operator<(const GemmCall& o) const {
    return std::tie(transA, transB, m, n, k, lda, ldb, ldc, accumulate) <
           std::tie(o.transA, o.transB, o.m, o.n, o.k, o.lda, o.ldb, o.ldc, o.accumulate);
}

GemmRecorder::GemmRecorder() {
    Recording& r = recording();
    std::lock_guard<std::mutex> lock(r.mutex);
    if (r.active.load()) throw Error("a GemmRecorder is already recording");
    r.calls.clear();
    r.active.store(true, std::memory_order_release);
}

GemmRecorder::~GemmRecorder() {
    Recording& r = recording();
    std::lock_guard<std::mutex> lock(r.mutex);
    r.active.store(false);
    r.calls.clear();
}

std::vector<GemmCall> GemmRecorder::calls() const {
    Recording& r = recording();
    std::lock_guard<std::mutex> lock(r.mutex);
    return r.calls;
}

void replayGemm(const GemmCall& c, const float* a, const float* b, float* out) {
    const char ta = c.transA ? 'T' : 'N', tb = c.transB ? 'T' : 'N';
    const float alpha = 1, beta = c.accumulate ? 1.0f : 0.0f;
#if defined(ATTNVIZ_GEMM_ONEDNN)
    oneOpenMpThread();
    dnnl_sgemm(ta, tb, c.m, c.n, c.k, alpha, a, c.lda, b, c.ldb, beta, out, c.ldc);
#elif defined(ATTNVIZ_GEMM_OPENBLAS) || defined(ATTNVIZ_GEMM_BLIS)
    sgemm_(&tb, &ta, &c.n, &c.m, &c.k, &alpha, b, &c.ldb, a, &c.lda, &beta, out, &c.ldc);
#else
    (void)ta, (void)tb, (void)alpha, (void)beta, (void)a, (void)b, (void)out;
    throw Error("this build has no matrix-product library to replay products with");
#endif
}

void singleThreadedGemm() {
    static std::once_flag once;
    std::call_once(once, [] {
#if defined(ATTNVIZ_GEMM_OPENBLAS) || defined(ATTNVIZ_GEMM_ONEDNN)
        openblas_set_num_threads(1);
#endif
#ifdef ATTNVIZ_GEMM_BLIS
        bli_thread_set_num_threads(1);
#endif
    });
}

}  // namespace attnviz
