// SPDX-License-Identifier: GPL-3.0-or-later
// The learned Gaussian window ("learned_gaussian") on cases worked out by hand. Its
// gradient, masks and options are checked with every other registered variant
// (gradient_test, attention_test, config_test); PyTorch parity by tests/reference with
// tests/data/configs/learned_gaussian.json.
#include <gtest/gtest.h>

#include <cmath>

#include "core/attention/attention.h"
#include "core/error.h"

using namespace attnviz;

namespace {

struct Window {
    nlohmann::json initMu = {0};
    double initSigma = 1.0;
    std::vector<float> muShift, logSigmaShift;  // [heads] each; empty: 0
    int heads = 1;
};

// Weights [heads] of [Tq, Tk] of a "learned_gaussian" block (one sequence).
std::vector<Mat> weightsOf(const Window& w, int Tq, int Tk, BlockKind kind, bool causal = false) {
    const nlohmann::json block = {
        {"variant", "learned_gaussian"}, {"init_mu", w.initMu}, {"init_sigma", w.initSigma}};
    const BlockConfig cfg = parseBlockConfig(block, kind, 2 * w.heads, w.heads, 8);
    const BlockGeometry geo{2 * w.heads, w.heads, 8, kind};
    auto v = createVariant(cfg, geo);
    ParamStore store;
    for (const auto& s : v->parameters()) store.emplace("p." + s.name, Tensor(s.shape));
    Mat& u = store.at("p.lgauss.mu_shift").m;
    Mat& lv = store.at("p.lgauss.log_sigma_shift").m;
    EXPECT_EQ(u.cols(), w.heads);
    EXPECT_EQ(lv.cols(), w.heads);
    for (size_t k = 0; k < w.muShift.size(); ++k) u(0, Eigen::Index(k)) = w.muShift[k];
    for (size_t k = 0; k < w.logSigmaShift.size(); ++k) lv(0, Eigen::Index(k)) = w.logSigmaShift[k];
    v->bind(store, "p.");
    std::vector<Mat> S, A(size_t(w.heads));
    v->logits(Mat::Random(Tq, geo.dModel), Mat::Random(Tk, geo.dModel), 1, Tq, Tk, S);
    for (int h = 0; h < w.heads; ++h)
        maskedSoftmax(S[size_t(h)], 0, AttentionMask{{Tk}, causal}, A[size_t(h)]);
    return A;
}

}  // namespace

TEST(LearnedGaussian, HandComputedAtTheStart) {
    // μ = 0, σ = 1: row 1's logits over keys 0, 1, 2 are −½, 0, −½, so its weights are
    // [e^−½, 1, e^−½] / (1 + 2e^−½).
    const auto A = weightsOf({}, 3, 3, BlockKind::EncoderSelf);
    EXPECT_NEAR(A[0](1, 0), 0.274068619, 1e-6);
    EXPECT_NEAR(A[0](1, 1), 0.451862762, 1e-6);
    EXPECT_NEAR(A[0](1, 2), 0.274068619, 1e-6);
}

TEST(LearnedGaussian, HandComputedWithLearnedShifts) {
    // μ = 0 + 0.5, σ = exp(0 + ln 2) = 2: row 0, keys 0, 1, 2 at (j − i − μ)/σ = −¼, ¼, ¾,
    // logits −1/32, −1/32, −9/32.
    Window w;
    w.muShift = {0.5f};
    w.logSigmaShift = {std::log(2.0f)};
    const auto A = weightsOf(w, 3, 3, BlockKind::EncoderSelf);
    EXPECT_NEAR(A[0](0, 0), 0.359867467, 1e-6);
    EXPECT_NEAR(A[0](0, 1), 0.359867467, 1e-6);
    EXPECT_NEAR(A[0](0, 2), 0.280265065, 1e-6);
}

TEST(LearnedGaussian, ANarrowCentredWindowPeaksAtTheQuery) {
    // μ = 0, σ → small: every row is (nearly) one-hot on its own position, with or without
    // the causal mask, in self- and in cross-attention (offset j − i there too).
    Window w;
    w.initSigma = 0.05;
    for (bool causal : {false, true}) {
        const auto A = weightsOf(w, 5, 5, BlockKind::EncoderSelf, causal);
        for (int i = 0; i < 5; ++i) {
            Eigen::Index peak = 0;
            A[0].row(i).maxCoeff(&peak);
            EXPECT_EQ(peak, i);
            EXPECT_GT(A[0](i, i), 0.9999f);
        }
    }
    const auto X = weightsOf(w, 3, 6, BlockKind::Cross);
    for (int i = 0; i < 3; ++i) EXPECT_GT(X[0](i, i), 0.9999f);
}

TEST(LearnedGaussian, ShiftsAddToTheConfiguredStartAndHeadsCycle) {
    // init_mu 1 with no shift is init_mu 0 shifted by 1; init_sigma 2 is log σ shifted by
    // ln 2.
    Window a, b;
    a.initMu = {1};
    a.initSigma = 2;
    b.muShift = {1};
    b.logSigmaShift = {std::log(2.0f)};
    EXPECT_TRUE(weightsOf(a, 4, 4, BlockKind::EncoderSelf)[0].isApprox(
        weightsOf(b, 4, 4, BlockKind::EncoderSelf)[0], 1e-6f));
    // Three heads over init_mu [-1, 1]: centres −1, 1, −1.
    Window c;
    c.heads = 3;
    c.initMu = {-1, 1};
    const auto A = weightsOf(c, 4, 4, BlockKind::EncoderSelf);
    EXPECT_EQ(A[0], A[2]);
    EXPECT_GT(A[0](2, 1), A[0](2, 3));  // head 0 looks left
    EXPECT_GT(A[1](2, 3), A[1](2, 1));  // head 1 looks right
}

TEST(LearnedGaussian, DefaultCentresByBlockKindAndMixable) {
    const nlohmann::json block = {{"variant", "learned_gaussian"}};
    EXPECT_EQ(parseBlockConfig(block, BlockKind::EncoderSelf, 8, 4, 8).numbers("init_mu"),
              (std::vector<double>{-1, 0, 1}));
    EXPECT_EQ(parseBlockConfig(block, BlockKind::DecoderSelf, 8, 4, 8).numbers("init_mu"),
              (std::vector<double>{-1, 0}));
    // Its logits are finite, so it may be a mixture component (with a dot head's logits).
    const BlockConfig m =
        parseBlockConfig({{"variant", "mixture"}, {"components", {"learned_gaussian", "dot"}}},
                         BlockKind::Cross, 8, 4, 8);
    EXPECT_EQ(m.numbers("init_mu"), (std::vector<double>{-1, 0, 1}));
}
