// SPDX-License-Identifier: GPL-3.0-or-later
#include "gemm.h"

#include <mutex>

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

extern "C" int sgemm_(const char* transa, const char* transb, const int* m, const int* n,
                      const int* k, const float* alpha, const float* a, const int* lda,
                      const float* b, const int* ldb, const float* beta, float* c, const int* ldc) {
    oneOpenMpThread();
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
    dnnl_sgemm(ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
    return true;
#elif defined(ATTNVIZ_GEMM_OPENBLAS) || defined(ATTNVIZ_GEMM_BLIS)
    // Column-major BLAS: row-major C is column-major Cᵀ = op(B)ᵀ op(A)ᵀ, as Eigen calls it.
    sgemm_(&tb, &ta, &n, &m, &k, &alpha, b, &ldb, a, &lda, &beta, c, &ldc);
    return true;
#else
    (void)ta, (void)tb, (void)beta, (void)m, (void)n, (void)k, (void)alpha, (void)a, (void)lda,
        (void)b, (void)ldb, (void)c, (void)ldc;
    return false;
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
