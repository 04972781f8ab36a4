// SPDX-License-Identifier: GPL-3.0-or-later
// The 2D readings of factorized_dense, local and learned_gaussian on a vit model's patch grid
// (docs/model-spec.md 4.4), on grids of 2×2 and 3×3 patches worked out by hand, with and
// without a class token. Their gradients: gradient_test (VitGradient); PyTorch parity:
// tests/python/twin_vit_test.py; whole models: vit_test.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "../test_util.h"
#include "core/attention/attention.h"
#include "core/attention/variants.h"
#include "core/error.h"
#include "tests/expect.h"

using namespace attnviz;

namespace {

const Scalar kInf = std::numeric_limits<Scalar>::infinity();

// A one-head block of `block` (JSON) on a G × G grid, d = 2, its tensors zero until set.
struct GridBlock {
    GridBlock(const nlohmann::json& block, int G, bool cls)
        : N(G * G + (cls ? 1 : 0)),
          cfg(parseGridBlockConfig(block, 2, 1, N, G, cls)),
          v(createVariant(cfg, BlockGeometry{2, 1, N, BlockKind::EncoderSelf, true, G, cls})) {
        for (const auto& s : v->parameters()) store.emplace("p." + s.name, Tensor(s.shape));
    }
    Mat& tensor(const std::string& name) { return store.at("p." + name).m; }
    // Logits S [N, N] for the inputs x [N, 2], and their weights A [N, N].
    Mat logits(const Mat& x) {
        v->bind(store, "p.");
        std::vector<Mat> S;
        v->logits(x, x, 1, N, N, S);
        return S[0];
    }
    Mat weights(const Mat& x) {
        Mat A;
        maskedSoftmax(logits(x), 0, AttentionMask{{N}, false}, A);
        return A;
    }
    int N;
    BlockConfig cfg;
    std::unique_ptr<AttentionVariant> v;
    ParamStore store;
};

std::string gridError(const nlohmann::json& block, int G, bool cls) {
    return test::errorOf([&] { GridBlock b(block, G, cls); });
}

// The class token's rule (4.4): its row uniform over the patches and 0 on itself, and no
// patch attends to it.
void expectClassTokenRule(const Mat& A) {
    const Eigen::Index Np = A.cols() - 1;
    EXPECT_EQ(A(0, 0), 0);
    for (Eigen::Index t = 1; t <= Np; ++t) EXPECT_NEAR(A(0, t), 1.0 / double(Np), 1e-7);
    for (Eigen::Index i = 1; i <= Np; ++i) EXPECT_EQ(A(i, 0), 0) << "row " << i;
}

}  // namespace

// Rows × columns: with H = x (W1 the identity, x > 0), A = Wa x = (1, 2, 3) and B = Wb x + bb
// = (1.5, 2): the class token key gets A[2] = 3, patch (r, c) gets A[r]·B[c].
TEST(GridFactorizedDense, HandComputedRowsTimesColumns) {
    GridBlock b({{"variant", "factorized_dense"}}, 2, true);
    EXPECT_EQ(b.cfg.integer("a"), 3);
    EXPECT_EQ(b.cfg.integer("b"), 2);
    b.tensor("fdense.w1.weight") = Mat::Identity(2, 2);
    b.tensor("fdense.wa.weight") << 1, 0, 0, 1, 1, 1;
    b.tensor("fdense.wb.weight") << 1, 0, 0, 1;
    b.tensor("fdense.wb.bias") << 0.5, 0;
    Mat x = Mat::Ones(5, 2);
    x.row(3) << 1, 2;
    const Mat S = b.logits(x);
    EXPECT_NEAR(S(3, 0), 3, 1e-6);    // the class token: A[2]
    EXPECT_NEAR(S(3, 1), 1.5, 1e-6);  // patch (0, 0): A[0]·B[0]
    EXPECT_NEAR(S(3, 2), 2, 1e-6);    // (0, 1): A[0]·B[1]
    EXPECT_NEAR(S(3, 3), 3, 1e-6);    // (1, 0): A[1]·B[0]
    EXPECT_NEAR(S(3, 4), 4, 1e-6);    // (1, 1): A[1]·B[1]
    // The class token's query predicts its row like any other (x = (1, 1): A = (1, 1, 2),
    // B = (1.5, 1)).
    EXPECT_NEAR(S(0, 0), 2, 1e-6);
    EXPECT_NEAR(S(0, 4), 1, 1e-6);
}

// With mean pooling it is the 1D formula with a = b = G.
TEST(GridFactorizedDense, MeanPoolingIsTheOneDimensionalFormula) {
    GridBlock b({{"variant", "factorized_dense"}}, 2, false);
    EXPECT_EQ(b.cfg.integer("a"), 2);
    b.tensor("fdense.w1.weight") = Mat::Identity(2, 2);
    b.tensor("fdense.wa.weight") = Mat::Identity(2, 2);
    b.tensor("fdense.wb.weight") = Mat::Identity(2, 2);
    b.tensor("fdense.wb.bias") << 0.5, 0;
    Mat x(4, 2);
    x << 1, 2, 1, 2, 1, 2, 1, 2;
    const Mat S = b.logits(x);
    EXPECT_NEAR(S(0, 0), 1.5, 1e-6);
    EXPECT_NEAR(S(0, 1), 2, 1e-6);
    EXPECT_NEAR(S(0, 2), 3, 1e-6);
    EXPECT_NEAR(S(0, 3), 4, 1e-6);
}

TEST(GridFactorizedDense, TheGridFixesAAndB) {
    EXPECT_HAS(gridError({{"variant", "factorized_dense"}, {"a", 2}}, 2, true),
               "'a' and 'b' are fixed by the patch grid");
    EXPECT_HAS(gridError({{"variant", "factorized_dense"}, {"b", 5}}, 2, false), "a = 2, b = 2");
    // The grid's own values (a resolved configuration) are accepted.
    EXPECT_NO_THROW(GridBlock({{"variant", "factorized_dense"}, {"a", 3}, {"b", 2}}, 2, true));
}

// w = 1 on a 3 × 3 grid: logits c[k] = k/10 at offset index k = (Δr+1)·3 + (Δc+1).
TEST(GridLocal, HandComputedSquareWindow) {
    GridBlock b({{"variant", "local"}, {"window", 1}}, 3, true);
    Mat& c = b.tensor("local.logits");
    ASSERT_EQ(c.cols(), 9);
    for (int k = 0; k < 9; ++k) c(0, k) = Scalar(k) / 10;
    const Mat x = Mat::Zero(10, 2);
    const Mat S = b.logits(x);
    // The centre patch (1, 1), position 5, sees all nine: key (r, c) at index r·3 + c.
    for (int t = 0; t < 9; ++t) EXPECT_NEAR(S(5, 1 + t), t / 10.0, 1e-7);
    // The corner (0, 0), position 1, sees (0,0), (0,1), (1,0), (1,1) = indices 4, 5, 7, 8.
    EXPECT_NEAR(S(1, 1), 0.4, 1e-7);
    EXPECT_NEAR(S(1, 2), 0.5, 1e-7);
    EXPECT_NEAR(S(1, 4), 0.7, 1e-7);
    EXPECT_NEAR(S(1, 5), 0.8, 1e-7);
    for (int t : {3, 6, 7, 8, 9}) EXPECT_EQ(S(1, t), -kInf) << t;
    const Mat A = b.weights(x);
    const double z = std::exp(0.4) + std::exp(0.5) + std::exp(0.7) + std::exp(0.8);
    EXPECT_NEAR(A(1, 5), std::exp(0.8) / z, 1e-6);
    for (int t : {3, 6, 7, 8, 9}) EXPECT_EQ(A(1, t), 0) << t;  // outside: exactly 0
    for (int i = 0; i < 10; ++i) EXPECT_NEAR(A.row(i).sum(), 1, 1e-6);
    expectClassTokenRule(A);
}

TEST(GridLocal, WindowZeroIsEachPatchItselfAndWideWindowsAreRefused) {
    GridBlock b({{"variant", "local"}, {"window", 0}}, 2, false);
    EXPECT_EQ(b.tensor("local.logits").cols(), 1);
    EXPECT_EQ(b.weights(Mat::Zero(4, 2)), Mat::Identity(4, 4));
    EXPECT_HAS(gridError({{"variant", "local"}}, 2, true),
               "'window' on a grid of 2×2 patches must be at most 1");
}

// One head, μ = init_mu + u = (0, 1) + (0.5, −1.5) = (0.5, −0.5), σ = exp(log 1 + ln 2) = 2.
TEST(GridLearnedGaussian, HandComputedLogitsAndWeights) {
    GridBlock b({{"variant", "learned_gaussian"}, {"init_mu", {0, 1}}}, 3, true);
    Mat& u = b.tensor("lgauss.mu_shift");
    ASSERT_EQ(u.rows(), 1);
    ASSERT_EQ(u.cols(), 2);
    u << 0.5, -1.5;
    b.tensor("lgauss.log_sigma_shift")(0, 0) = Scalar(std::log(2.0));
    const Mat x = Mat::Zero(10, 2);
    const Mat S = b.logits(x);
    // Query (1, 1) = position 5, key (2, 0) = position 7: δ = (1, −1), z = (0.25, −0.25).
    EXPECT_NEAR(S(5, 7), -0.5 * (0.0625 + 0.0625), 1e-6);
    // Key (0, 2) = position 3: δ = (−1, 1), z = (−0.75, 0.75).
    EXPECT_NEAR(S(5, 3), -0.5 * (0.5625 + 0.5625), 1e-6);
    const Mat A = b.weights(x);
    double z = 0;
    for (int t = 0; t < 9; ++t) {
        const double dr = t / 3 - 1 - 0.5, dc = t % 3 - 1 + 0.5;
        z += std::exp(-(dr * dr + dc * dc) / 8);
    }
    EXPECT_NEAR(A(5, 7), std::exp(-0.0625) / z, 1e-6);
    for (int i = 0; i < 10; ++i) EXPECT_NEAR(A.row(i).sum(), 1, 1e-6);
    expectClassTokenRule(A);
}

TEST(GridLearnedGaussian, DefaultsPairsAndMixtures) {
    GridBlock b({{"variant", "learned_gaussian"}}, 3, false);
    EXPECT_EQ(b.cfg.numbers("init_mu"), (std::vector<double>{0, -1, 0, 1, -1, 0, 1, 0}));
    EXPECT_HAS(gridError({{"variant", "learned_gaussian"}, {"init_mu", {0, 1, 2}}}, 3, true),
               "an even number of numbers, got 3");
    const nlohmann::json mix{{"variant", "mixture"}, {"components", {"learned_gaussian", "dot"}}};
    EXPECT_HAS(gridError(mix, 3, true), "use \"pool\": \"mean\"");
    EXPECT_NO_THROW(GridBlock(mix, 3, false));
    // Mean pooling: no class token, every row over the 9 patches.
    const Mat A = b.weights(Mat::Zero(9, 2));
    for (int i = 0; i < 9; ++i) EXPECT_NEAR(A.row(i).sum(), 1, 1e-6);
    // Head 0 (init_mu (0, −1), σ 1): the patch to the left of (1, 1) has the largest weight.
    Eigen::Index best = 0;
    A.row(4).maxCoeff(&best);
    EXPECT_EQ(best, 3);
}
