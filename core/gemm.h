// SPDX-License-Identifier: GPL-3.0-or-later
// The library behind the engine's matrix products, chosen at build time (CMake option
// ATTNVIZ_GEMM; the measurements behind the default are in docs/training.md).
#pragma once

#include <Eigen/Core>
#include <type_traits>
#include <vector>

namespace attnviz {

// "openblas", "blis", "onednn" (dnnl_sgemm for products, OpenBLAS for the rest) or "eigen".
const char* gemmBackend();

// Makes every product run on the calling thread: parallelism comes from the trainer's own
// threads, and a product's result must not depend on how many threads a library happened
// to use. Idempotent and thread-safe; Network's constructor calls it.
void singleThreadedGemm();

// Row-major C [m, n] (leading dimension ldc) = alpha · op(A) · op(B) with beta 0: C is
// written, never read, so it need not be initialised. A is [m, k] (transA: stored as [k, m]),
// B is [k, n] (transB: stored as [n, k]), both row-major with leading dimensions lda, ldb.
// Calls the library's sgemm exactly as Eigen's product would, but with beta 0 instead of 1
// after zeroing C. Returns false, doing nothing, when the build has no BLAS (eigen).
bool gemmRowMajor(bool transA, bool transB, int m, int n, int k, float alpha, const float* a,
                  int lda, const float* b, int ldb, float* c, int ldc);

// One product as the engine hands it to the library, in row-major terms: C [m, n] (leading
// dimension ldc) = op(A) · op(B), beta 1 when `accumulate` (C += …) and 0 otherwise.
struct GemmCall {
    bool transA = false, transB = false;
    int m = 0, n = 0, k = 0, lda = 0, ldb = 0, ldc = 0;
    bool accumulate = false;
    double flops() const { return 2.0 * m * n * k; }
    bool operator<(const GemmCall& o) const;
};

// While one lives, every product the library receives (gemmRowMajor, and Eigen's products
// through sgemm_ with ATTNVIZ_GEMM=onednn), from any thread, is recorded. For benchmarks:
// the products of a training step, to time each alone (attnviz-cli bench train). One at a
// time; products the library never sees (Eigen's own small or matrix-vector products) are not
// in it.
class GemmRecorder {
public:
    GemmRecorder();
    ~GemmRecorder();
    GemmRecorder(const GemmRecorder&) = delete;
    GemmRecorder& operator=(const GemmRecorder&) = delete;
    std::vector<GemmCall> calls() const;
};

// Makes the recorded product again with the library, alpha 1: a [rows of op(A) storage ×
// lda], b and c likewise, owned by the caller. For benchmarks.
void replayGemm(const GemmCall& call, const float* a, const float* b, float* c);

// dst = lhs · rhs, bit for bit what `dst.noalias() = lhs * rhs` computes (up to the sign of
// a zero), without the memset of dst that Eigen does before handing a product to the BLAS
// with beta 1. Eigen's own decisions are kept: products it would compute coefficient-wise
// (m + n + k < 20), as matrix-vector products (m or n = 1) or with its own kernels (double,
// ATTNVIZ_GEMM=eigen) go through Eigen unchanged; the rest call the same sgemm with the same
// operands, transpositions and alpha (scalar factors such as `scale * g` are folded into
// alpha as Eigen folds them), and beta 0. A plain matrix dst is resized; a block must have
// the product's size already.
template <class Dst, class Lhs, class Rhs>
void assignProduct(Dst&& dst, const Lhs& lhs, const Rhs& rhs) {
    using D = std::remove_reference_t<Dst>;
    using LT = Eigen::internal::blas_traits<Lhs>;
    using RT = Eigen::internal::blas_traits<Rhs>;
    using LA = typename Eigen::internal::remove_all<typename LT::DirectLinearAccessType>::type;
    using RA = typename Eigen::internal::remove_all<typename RT::DirectLinearAccessType>::type;
    if constexpr (std::is_same_v<typename D::Scalar, float> &&
                  std::is_same_v<typename Lhs::Scalar, float> &&
                  std::is_same_v<typename Rhs::Scalar, float> &&
                  int(Eigen::internal::product_type<Lhs, Rhs>::value) == int(Eigen::GemmProduct) &&
                  bool(D::IsRowMajor) && !bool(LT::NeedToConjugate) && !bool(RT::NeedToConjugate)) {
        const Eigen::Index m = lhs.rows(), k = lhs.cols(), n = rhs.cols();
        // Eigen's evalTo/scaleAndAddTo (GeneralMatrixMatrix.h): coefficient-based below the
        // threshold, nothing for empty operands, matrix-vector for a single row or column.
        if (m + n + k >= EIGEN_GEMM_TO_COEFFBASED_THRESHOLD && m > 1 && n > 1 && k > 0) {
            dst.resize(m, n);
            typename Eigen::internal::add_const_on_value_type<
                typename LT::DirectLinearAccessType>::type a = LT::extract(lhs);
            typename Eigen::internal::add_const_on_value_type<
                typename RT::DirectLinearAccessType>::type b = RT::extract(rhs);
            const float alpha = Eigen::internal::combine_scalar_factors(1.0f, lhs, rhs);
            if (a.innerStride() == 1 && b.innerStride() == 1 && dst.innerStride() == 1 &&
                gemmRowMajor(!bool(LA::Flags & Eigen::RowMajorBit),
                             !bool(RA::Flags & Eigen::RowMajorBit), int(m), int(n), int(k), alpha,
                             a.data(), int(a.outerStride()), b.data(), int(b.outerStride()),
                             dst.data(), int(dst.outerStride())))
                return;
        }
    }
    dst.noalias() = lhs * rhs;
}

}  // namespace attnviz
