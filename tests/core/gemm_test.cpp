// SPDX-License-Identifier: GPL-3.0-or-later
// The engine's matrix products, whichever library computes them (core/gemm.h): every
// transposition and accumulation form the engine writes, on blocks whose leading dimension
// is not their width, against a plain triple loop in double.
#include "core/gemm.h"

#include <gtest/gtest.h>

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

void expectNear(const Mat& got, const Eigen::MatrixXd& want, const char* what) {
    ASSERT_EQ(got.rows(), want.rows()) << what;
    ASSERT_EQ(got.cols(), want.cols()) << what;
    const double err = (got.cast<double>() - want).cwiseAbs().maxCoeff();
    EXPECT_LT(err, 1e-4) << what << " with " << gemmBackend();
}

TEST(Gemm, EveryFormTheEngineWritesOnStridedBlocks) {
    singleThreadedGemm();
    // Shapes that are not multiples of any kernel's block, and big enough to reach a BLAS.
    for (auto [m, k, n] :
         {std::tuple{37, 19, 53}, std::tuple{64, 128, 32}, std::tuple{5, 300, 7}}) {
        // Operands as blocks of wider matrices (leading dimension != width), as the
        // attention heads' columns are.
        const Mat A = Mat::Random(m + 3, k + 5), B = Mat::Random(k + 2, n + 4);
        const Mat Bt = Mat::Random(n + 1, k + 6), At = Mat::Random(k + 4, m + 2);
        const auto a = A.block(2, 3, m, k);
        const auto b = B.block(1, 2, k, n);
        const auto bt = Bt.block(1, 4, n, k);
        const auto at = At.block(3, 1, k, m);
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

TEST(Gemm, NamesItsLibrary) {
    const std::string name = gemmBackend();
    EXPECT_TRUE(name == "onednn" || name == "openblas" || name == "blis" || name == "eigen")
        << name;
}

}  // namespace
}  // namespace attnviz
