// SPDX-License-Identifier: GPL-3.0-or-later
// The learned local window ("local") on cases worked out by hand. Its gradient, masks and
// options are checked with every other registered variant (gradient_test, attention_test,
// config_test); PyTorch parity by tests/reference with tests/data/configs/local.json.
#include <gtest/gtest.h>

#include <cmath>

#include "core/attention/attention.h"
#include "core/error.h"

using namespace attnviz;

namespace {

// Weights [h] of [Tq, Tk] of a one-head "local" block with logits c over offsets −w…w.
std::vector<Mat> localWeights(int w, const std::vector<float>& c, int Tq, int Tk, BlockKind kind,
                              bool causal = false) {
    const BlockConfig cfg = parseBlockConfig({{"variant", "local"}, {"window", w}}, kind, 2, 1, 8);
    const BlockGeometry geo{2, 1, 8, kind};
    auto v = createVariant(cfg, geo);
    ParamStore store;
    for (const auto& s : v->parameters()) store.emplace("p." + s.name, Tensor(s.shape));
    Mat& logits = store.at("p.local.logits").m;
    EXPECT_EQ(logits.cols(), 2 * w + 1);
    for (int o = 0; o < 2 * w + 1; ++o) logits(0, o) = c[size_t(o)];
    v->bind(store, "p.");
    std::vector<Mat> S, A(1);
    v->logits(Mat::Random(Tq, 2), Mat::Random(Tk, 2), 1, Tq, Tk, S);
    maskedSoftmax(S[0], 0, AttentionMask{{Tk}, causal}, A[0]);
    return A;
}

}  // namespace

TEST(Local, HandComputedWindow) {
    // w = 1, c = [0, ln 2, 0]: inside the window exp(c) = [1, 2, 1] for offsets −1, 0, +1.
    const auto A = localWeights(1, {0, std::log(2.0f), 0}, 3, 3, BlockKind::EncoderSelf);
    // Row 1 sees keys 0, 1, 2: [1, 2, 1] / 4.
    EXPECT_NEAR(A[0](1, 0), 0.25f, 1e-6);
    EXPECT_NEAR(A[0](1, 1), 0.5f, 1e-6);
    EXPECT_NEAR(A[0](1, 2), 0.25f, 1e-6);
    // Row 0 sees keys 0 and 1 ([2, 1] / 3); key 2 is outside the window: exactly 0.
    EXPECT_NEAR(A[0](0, 0), 2.0f / 3, 1e-6);
    EXPECT_NEAR(A[0](0, 1), 1.0f / 3, 1e-6);
    EXPECT_EQ(A[0](0, 2), 0.0f);
}

TEST(Local, CausalMaskKeepsTheLeftHalf) {
    // Row 1 with the causal mask: keys 0 and 1 only, [1, 2] / 3.
    const auto A = localWeights(1, {0, std::log(2.0f), 0}, 3, 3, BlockKind::DecoderSelf, true);
    EXPECT_NEAR(A[0](1, 0), 1.0f / 3, 1e-6);
    EXPECT_NEAR(A[0](1, 1), 2.0f / 3, 1e-6);
    EXPECT_EQ(A[0](1, 2), 0.0f);
}

TEST(Local, ZeroWindowIsTheDiagonalAndEmptyWindowsAreZeroRows) {
    const auto A = localWeights(0, {5}, 3, 3, BlockKind::EncoderSelf);
    EXPECT_EQ(A[0], Mat::Identity(3, 3));
    // Cross-attention, 4 queries over 2 keys, w = 1: query 3's window (keys 2…4) holds no
    // key, so its row is all zeros, not NaN.
    const auto X = localWeights(1, {0, 0, 0}, 4, 2, BlockKind::Cross);
    EXPECT_EQ(X[0].row(3).cwiseAbs().sum(), 0.0f);
    EXPECT_NEAR(X[0].row(2).sum(), 1.0f, 1e-6);  // key 1 is inside query 2's window
}

TEST(Local, CannotBeMixed) {
    bool refused = false;
    try {
        parseBlockConfig({{"variant", "mixture"}, {"components", {"local", "dot"}}},
                         BlockKind::EncoderSelf, 2, 1, 8);
    } catch (const Error& e) {
        refused = std::string(e.what()).find("cannot be mixed") != std::string::npos;
    }
    EXPECT_TRUE(refused);
}
