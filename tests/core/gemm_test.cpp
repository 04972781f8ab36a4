// SPDX-License-Identifier: GPL-3.0-or-later
// The engine's matrix products, whichever library computes them (core/gemm.h): every
// transposition and accumulation form the engine writes, on blocks whose leading dimension
// is not their width, against a plain triple loop in double.
#include "core/gemm.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <string>
#include <tuple>

#include "core/error.h"
#include "core/tensor.h"

namespace attnviz {
namespace {

// c [m, n] = a [m, k] · b [k, n] in double.
Eigen::MatrixXd reference(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
    Eigen::MatrixXd c = Eigen::MatrixXd::Zero(a.rows(), b.cols());
    for (Eigen::Index i = 0; i < a.rows(); ++i)
        for (Eigen::Index j = 0; j < b.cols(); ++j)
            for (Eigen::Index p = 0; p < a.cols(); ++p) c(i, j) += a(i, p) * b(p, j);
    return c;
}

// The operands of an m x k by k x n product, each as a block of a wider matrix (leading
// dimension != width, as the attention heads' columns are), and their transposes' blocks.
struct Operands {
    Operands(int m, int k, int n)
        : m(m),
          k(k),
          n(n),
          A(Mat::Random(m + 3, k + 5)),
          B(Mat::Random(k + 2, n + 4)),
          Bt(Mat::Random(n + 1, k + 6)),
          At(Mat::Random(k + 4, m + 2)) {}
    auto a() const { return A.block(2, 3, m, k); }    // [m, k]
    auto b() const { return B.block(1, 2, k, n); }    // [k, n]
    auto bt() const { return Bt.block(1, 4, n, k); }  // [n, k]
    auto at() const { return At.block(3, 1, k, m); }  // [k, m]
    int m, k, n;
    Mat A, B, Bt, At;
};

// Within `tol`: float32 sums of k products of values in [-1, 1] drift by up to about
// k · 2⁻²⁴ (1e-4 holds for the short sums; the 4,000-term ones need more).
void expectNear(const Mat& got, const Eigen::MatrixXd& want, const char* what, double tol = 1e-4) {
    ASSERT_EQ(got.rows(), want.rows()) << what;
    ASSERT_EQ(got.cols(), want.cols()) << what;
    const double err = (got.cast<double>() - want).cwiseAbs().maxCoeff();
    EXPECT_LT(err, tol) << what << " with " << gemmBackend();
}

TEST(Gemm, EveryFormTheEngineWritesOnStridedBlocks) {
    singleThreadedGemm();
    // Shapes that are not multiples of any kernel's block, and big enough to reach a BLAS.
    for (auto [m, k, n] :
         {std::tuple{37, 19, 53}, std::tuple{64, 128, 32}, std::tuple{5, 300, 7}}) {
        const Operands o(m, k, n);
        const auto a = o.a(), b = o.b(), bt = o.bt(), at = o.at();
        const Eigen::MatrixXd ad = a.cast<double>(), bd = b.cast<double>();
        const Eigen::MatrixXd btd = bt.cast<double>(), atd = at.cast<double>();

        Mat c(m, n);
        c.noalias() = a * b;
        expectNear(c, reference(ad, bd), "a·b");
        c.noalias() = a * bt.transpose();
        expectNear(c, reference(ad, btd.transpose()), "a·btᵀ");
        c.noalias() = at.transpose() * b;
        expectNear(c, reference(atd.transpose(), bd), "atᵀ·b");
        c.noalias() = at.transpose() * bt.transpose();
        expectNear(c, reference(atd.transpose(), btd.transpose()), "atᵀ·btᵀ");

        // Accumulating into a block of a wider result, scaled.
        Mat wide = Mat::Random(m + 2, n + 3);
        const Eigen::MatrixXd before = wide.cast<double>();
        wide.block(1, 2, m, n).noalias() += 0.5f * (a * b);
        Eigen::MatrixXd want = before;
        want.block(1, 2, m, n) += 0.5 * reference(ad, bd);
        expectNear(wide, want, "wide += 0.5·a·b");
    }
}

// Matrix-vector products (Eigen's sgemv_, which the oneDNN build routes to dnnl_sgemm):
// a row-major matrix times a vector and a row vector times a matrix, both transpositions,
// accumulating and scaled, on blocks of wider matrices, and strided vectors.
TEST(Gemm, MatrixVectorProductsInEveryForm) {
    singleThreadedGemm();
    // A sum of n terms: 1e-4, or 2⁻²³ per term for long sums (n = 4,000: 4.8e-4).
    auto tolFor = [](int n) { return std::max(1e-4, n * 1.2e-7); };
    for (auto [m, k] : {std::tuple{37, 19}, std::tuple{4000, 48}, std::tuple{48, 4000},
                        std::tuple{1, 300}, std::tuple{300, 1}}) {
        const Mat W = Mat::Random(m + 3, k + 5);
        const auto a = W.block(2, 3, m, k);  // [m, k], leading dimension k + 5
        const Eigen::MatrixXd ad = a.cast<double>();
        const Mat xs = Mat::Random(k, 3), us = Mat::Random(m, 3);
        const auto x = xs.col(1);  // strided: every 3rd float
        const Eigen::VectorXf xc = x, uc = us.col(2);
        Eigen::VectorXf y = Eigen::VectorXf::Random(m);
        const Eigen::VectorXd y0 = y.cast<double>();
        y.noalias() += 0.5f * (a * xc);
        expectNear(Mat(y), y0 + 0.5 * ad * xc.cast<double>(), "y += 0.5·a·x", tolFor(k));
        Eigen::VectorXf z(m);
        z.noalias() = a * x;
        expectNear(Mat(z), ad * x.cast<double>(), "z = a·x (strided x)", tolFor(k));
        Eigen::RowVectorXf r(k);
        r.noalias() = uc.transpose() * a;
        expectNear(Mat(r), uc.cast<double>().transpose() * ad, "r = uᵀ·a", tolFor(m));
        Eigen::VectorXf t(k);
        t.noalias() = a.transpose() * uc;
        expectNear(Mat(t), ad.transpose() * uc.cast<double>(), "t = aᵀ·u", tolFor(m));
        Mat wide = Mat::Random(m, 4);
        const Eigen::MatrixXd before = wide.cast<double>();
        wide.col(3).noalias() -= a * xc;  // strided destination
        Eigen::MatrixXd want = before;
        want.col(3) -= ad * xc.cast<double>();
        expectNear(wide, want, "wide.col -= a·x", tolFor(k));
    }
}

// Element-wise equality (so +0 == -0: beta 0 may leave the sign of a zero that beta 1 on a
// zeroed destination would not) and no NaN left from the destination's old contents.
template <class X, class Y>
void expectSame(const X& got, const Y& want, const std::string& what) {
    ASSERT_EQ(got.rows(), want.rows()) << what;
    ASSERT_EQ(got.cols(), want.cols()) << what;
    Eigen::Index bad = 0;
    for (Eigen::Index i = 0; i < got.rows(); ++i)
        for (Eigen::Index j = 0; j < got.cols(); ++j)
            if (!(got(i, j) == want(i, j))) ++bad;
    EXPECT_EQ(bad, 0) << what << " with " << gemmBackend() << ": " << bad << " of " << got.size()
                      << " entries differ from Eigen's product";
}

// assignProduct (core/gemm.h) must give exactly what `dst.noalias() = lhs * rhs` gives, for
// every transposition, on blocks of wider matrices, with a scalar factor, at the engine's
// shapes and at those Eigen computes itself (small, a single row or column, empty), into a
// destination full of NaN (which a product with beta 1 would keep).
TEST(Gemm, AssignProductIsEigensProductBitForBit) {
    singleThreadedGemm();
    const float nan = std::numeric_limits<float>::quiet_NaN();
    for (auto [m, k, n] :
         {std::tuple{37, 19, 53}, std::tuple{64, 128, 32}, std::tuple{5, 300, 7},
          std::tuple{32, 32, 32}, std::tuple{1024, 128, 128}, std::tuple{128, 1024, 512},
          std::tuple{1024, 128, 1000}, std::tuple{4, 5, 6}, std::tuple{1, 40, 30},
          std::tuple{30, 40, 1}, std::tuple{8, 0, 9}, std::tuple{2, 9, 9}}) {
        const std::string shape =
            std::to_string(m) + "x" + std::to_string(k) + "x" + std::to_string(n) + " ";
        const Operands o(m, k, n);
        const auto a = o.a(), b = o.b(), bt = o.bt(), at = o.at();
        const float scale = 0.17677669f;

        Mat want, got = Mat::Constant(m, n, nan);
        want.noalias() = a * b;
        assignProduct(got, a, b);
        expectSame(got, want, shape + "a·b");
        want.noalias() = a * bt.transpose();
        got.setConstant(nan);
        assignProduct(got, a, bt.transpose());
        expectSame(got, want, shape + "a·btᵀ");
        want.noalias() = at.transpose() * b;
        got.setConstant(nan);
        assignProduct(got, at.transpose(), b);
        expectSame(got, want, shape + "atᵀ·b");
        want.noalias() = at.transpose() * bt.transpose();
        got.setConstant(nan);
        assignProduct(got, at.transpose(), bt.transpose());
        expectSame(got, want, shape + "atᵀ·btᵀ");
        want.noalias() = scale * at.transpose() * b;
        got.setConstant(nan);
        assignProduct(got, scale * at.transpose(), b);
        expectSame(got, want, shape + "scale·atᵀ·b");
        want.noalias() = scale * a * b;
        Mat empty;  // resized by assignProduct
        assignProduct(empty, scale * a, b);
        expectSame(empty, want, shape + "scale·a·b, resized");

        // Into a block of a wider destination: the block is written, the rest untouched.
        Mat wide = Mat::Constant(m + 2, n + 3, nan);
        assignProduct(wide.block(1, 2, m, n), a, bt.transpose());
        want.noalias() = a * bt.transpose();
        expectSame(wide.block(1, 2, m, n), want, shape + "block = a·btᵀ");
        EXPECT_TRUE(wide.topRows(1).array().isNaN().all()) << shape;
        EXPECT_TRUE(wide.leftCols(2).array().isNaN().all()) << shape;
        EXPECT_TRUE(wide.rightCols(1).array().isNaN().all()) << shape;
        EXPECT_TRUE(wide.bottomRows(1).array().isNaN().all()) << shape;
    }
}

// The library call itself: beta 0, so a destination full of NaN is overwritten.
TEST(Gemm, RowMajorCallOverwritesItsDestination) {
    singleThreadedGemm();
    const int m = 37, k = 19, n = 53;
    const Mat A = Mat::Random(m, k + 2), B = Mat::Random(k, n + 1);
    Mat c = Mat::Constant(m, n + 5, std::numeric_limits<float>::quiet_NaN());
    if (!gemmRowMajor(false, false, m, n, k, 1.0f, A.data(), int(A.outerStride()), B.data(),
                      int(B.outerStride()), c.data(), int(c.outerStride()))) {
        EXPECT_STREQ(gemmBackend(), "eigen");
        return;
    }
    Mat want;
    want.noalias() = A.leftCols(k) * B.leftCols(n);
    expectSame(c.leftCols(n), want, "gemmRowMajor");
    EXPECT_TRUE(c.rightCols(5).array().isNaN().all());
}

// The benchmark's recorder (bench train times a step's own products): it sees the products
// the library receives, from gemmRowMajor and, with oneDNN, from Eigen's `+=` products, with
// their row-major shape, transpositions, leading dimensions and beta; replaying a call makes
// the same product again, to the bit.
TEST(Gemm, RecordsTheProductsTheLibraryReceivesAndReplaysThem) {
    singleThreadedGemm();
    const Operands o(37, 19, 53);
    std::vector<GemmCall> calls;
    Mat c1, c2 = Mat::Zero(37, 53);
    {
        GemmRecorder recorder;
        EXPECT_THROW(GemmRecorder{}, Error);  // one at a time
        assignProduct(c1, o.a(), o.bt().transpose());
        c2.noalias() += o.at().transpose() * o.b();
        calls = recorder.calls();
    }
    const std::string lib = gemmBackend();
    if (lib == "eigen") {
        EXPECT_TRUE(calls.empty());
        return;
    }
    ASSERT_EQ(calls.size(), lib == "onednn" ? 2u : 1u);
    const GemmCall& first = calls[0];
    EXPECT_FALSE(first.transA);
    EXPECT_TRUE(first.transB);
    EXPECT_EQ(std::tuple(first.m, first.n, first.k), std::tuple(37, 53, 19));
    EXPECT_EQ(std::tuple(first.lda, first.ldb, first.ldc),
              std::tuple(int(o.A.outerStride()), int(o.Bt.outerStride()), 53));
    EXPECT_FALSE(first.accumulate);
    EXPECT_DOUBLE_EQ(first.flops(), 2.0 * 37 * 53 * 19);
    Mat again = Mat::Constant(37, 53, std::numeric_limits<float>::quiet_NaN());
    replayGemm(first, o.a().data(), o.bt().data(), again.data());
    expectSame(again, c1, "replayed product");
    if (lib == "onednn") {
        const GemmCall& second = calls[1];
        EXPECT_TRUE(second.transA);
        EXPECT_FALSE(second.transB);
        EXPECT_EQ(std::tuple(second.m, second.n, second.k), std::tuple(37, 53, 19));
        EXPECT_EQ(std::tuple(second.lda, second.ldb),
                  std::tuple(int(o.At.outerStride()), int(o.B.outerStride())));
        EXPECT_TRUE(second.accumulate);
        Mat acc = Mat::Zero(37, 53);
        replayGemm(second, o.at().data(), o.b().data(), acc.data());
        expectSame(acc, c2, "replayed accumulation");
    }
    // A new recorder starts empty.
    GemmRecorder next;
    assignProduct(c1, o.a(), o.bt().transpose());
    EXPECT_EQ(next.calls().size(), lib == "eigen" ? 0u : 1u);
}

TEST(Gemm, NamesItsLibrary) {
    const std::string name = gemmBackend();
    EXPECT_TRUE(name == "onednn" || name == "openblas" || name == "blis" || name == "eigen")
        << name;
}

}  // namespace
}  // namespace attnviz
