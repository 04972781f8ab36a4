// SPDX-License-Identifier: GPL-3.0-or-later
// Each variant on a tiny case whose weights were worked out by hand (the derivation is in
// the comment above each expectation), and the properties every variant must have.
#include "core/attention/attention.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <limits>

#include "core/model.h"
#include "test_util.h"

using namespace attnviz;

namespace {

// A single block of one variant with hand-set tensors, prefix "p.".
struct Block {
    ParamStore store;
    std::unique_ptr<AttentionVariant> v;

    bool logitBased;
    // `cfg`: the block's JSON ("variant", "heads", options), parsed as in a configuration.
    Block(const nlohmann::json& cfg, BlockGeometry geo) {
        const BlockConfig c = parseBlockConfig(cfg, geo.kind, geo.dModel, 1, geo.maxLen);
        geo.heads = c.heads;
        v = createVariant(c, geo);
        logitBased = variantInfo(c.variant).logitBased;
        for (const auto& s : v->parameters()) store.emplace("p." + s.name, Tensor(s.shape));
    }
    Mat& operator[](const std::string& name) { return store.at("p." + name).m; }
    // Weights [h] of [Tq, Tk] for one sequence without masks.
    std::vector<Mat> weights(const Mat& xq, const Mat& xk, bool causal = false, int keyLen = -1) {
        v->bind(store, "p.");
        const int Tq = int(xq.rows()), Tk = int(xk.rows());
        AttentionMask mask{{keyLen < 0 ? Tk : keyLen}, causal};
        std::vector<Mat> A;
        if (logitBased) {
            std::vector<Mat> S;
            v->logits(xq, xk, 1, Tq, Tk, S);
            A.resize(S.size());
            for (size_t h = 0; h < S.size(); ++h) maskedSoftmax(S[h], 0, mask, A[h]);
        } else {
            v->weights(1, Tq, Tk, mask, A);
        }
        return A;
    }
    std::vector<Mat> logits(const Mat& xq, const Mat& xk) {
        v->bind(store, "p.");
        std::vector<Mat> S;
        v->logits(xq, xk, 1, int(xq.rows()), int(xk.rows()), S);
        return S;
    }
};

nlohmann::json variant(const std::string& name) {
    return {{"variant", name}, {"heads", 1}};
}

using attnviz::test::rows;

}  // namespace

TEST(Dot, HandComputedWeights) {
    Block b(variant("dot"), {2, 1, 8, BlockKind::EncoderSelf, true});
    b["q_proj.weight"] = Mat::Identity(2, 2);
    b["k_proj.weight"] = Mat::Identity(2, 2);
    // X = I: S = X Xᵀ / sqrt(2) = I / sqrt(2); row 0 = softmax([0.7071, 0]):
    // e^0.7071 = 2.02811, 2.02811 / 3.02811 = 0.669762, 1 / 3.02811 = 0.330238.
    const auto A = b.weights(Mat::Identity(2, 2), Mat::Identity(2, 2));
    EXPECT_NEAR(A[0](0, 0), 0.669762f, 1e-6);
    EXPECT_NEAR(A[0](0, 1), 0.330238f, 1e-6);
    EXPECT_NEAR(A[0](1, 1), 0.669762f, 1e-6);
    // A query bias shifts every logit of a row equally along K: with bq = [1, 0] row 0 of
    // Q is [2, 0], S row 0 = [2, 0] / sqrt(2) = [1.41421, 0] -> 4.11325 / 5.11325 = 0.804429.
    b["q_proj.bias"] = rows({{1, 0}});
    EXPECT_NEAR(b.weights(Mat::Identity(2, 2), Mat::Identity(2, 2))[0](0, 0), 0.804429f, 1e-6);
}

TEST(Dense, HandComputedWeightsAndTruncation) {
    Block b(variant("dense"), {2, 1, 3, BlockKind::EncoderSelf, true});
    b["dense.w1.weight"] = Mat::Identity(2, 2);
    b["dense.w2.weight"] = rows({{1, 0}, {0, 1}, {1, 1}});
    // x = [1, -1]: ReLU(W1 x) = [1, 0]; W2 · [1, 0] = [1, 0, 1];
    // softmax = [e, 1, e] / (2e + 1) = [0.422319, 0.155362, 0.422319].
    const Mat x = rows({{1, -1}, {1, -1}, {1, -1}});
    auto A = b.weights(x, x);
    EXPECT_NEAR(A[0](0, 0), 0.422319f, 1e-6);
    EXPECT_NEAR(A[0](0, 1), 0.155362f, 1e-6);
    EXPECT_NEAR(A[0](0, 2), 0.422319f, 1e-6);
    // Against two keys the row is truncated to [1, 0]: [e, 1] / (e + 1) = [0.731059, 0.268941].
    A = b.weights(x, x.topRows(2));
    ASSERT_EQ(A[0].cols(), 2);
    EXPECT_NEAR(A[0](0, 0), 0.731059f, 1e-6);
    // The keys' content plays no part: other keys, same weights.
    EXPECT_TRUE(b.weights(x, Mat::Random(2, 2))[0].isApprox(A[0]));
    // More positions than max_len is refused, never read out of range.
    EXPECT_NE(
        test::errorOf([&] { b.weights(Mat::Zero(4, 2), Mat::Zero(4, 2)); }).find("max_len of 3"),
        std::string::npos);
}

TEST(Random, HandComputedWeightsAndTheSameMapForEverySentence) {
    Block b(variant("random"), {2, 1, 3, BlockKind::EncoderSelf, true});
    const float ln2 = std::log(2.0f);
    b["random.r"] = rows({{0, ln2, 0}, {ln2, 0, 0}, {0, 0, 0}});
    // Row 0 logits [0, ln 2, 0] -> [1, 2, 1] / 4.
    const auto A = b.weights(Mat::Random(3, 2), Mat::Random(3, 2));
    EXPECT_NEAR(A[0](0, 0), 0.25f, 1e-6);
    EXPECT_NEAR(A[0](0, 1), 0.5f, 1e-6);
    EXPECT_NEAR(A[0](1, 0), 0.5f, 1e-6);
    EXPECT_NEAR(A[0](2, 2), 1.0f / 3, 1e-6);
    for (int trial = 0; trial < 5; ++trial)
        EXPECT_EQ(b.weights(Mat::Random(3, 2), Mat::Random(3, 2))[0], A[0]);
}

TEST(Random, FixedRandomIsFrozen) {
    auto c = variant("random");
    c["trainable"] = false;
    Block b(c, {2, 1, 3, BlockKind::EncoderSelf, true});
    ASSERT_EQ(b.v->parameters().size(), 1u);
    EXPECT_FALSE(b.v->parameters()[0].trainable);
    EXPECT_TRUE(Block(variant("random"), {2, 1, 3, BlockKind::EncoderSelf, true})
                    .v->parameters()[0]
                    .trainable);
}

TEST(FactorizedDense, RowsFollowThePTimesBPlusQOrder) {
    auto c = variant("factorized_dense");
    c["a"] = 2;
    c["b"] = 2;
    Block b(c, {2, 1, 4, BlockKind::EncoderSelf, true});
    b["fdense.w1.weight"] = Mat::Identity(2, 2);
    b["fdense.wa.weight"] = Mat::Identity(2, 2);
    b["fdense.wb.weight"] = rows({{3, 0}, {0, 2.5f}});
    // x = [1, 2]: H = [1, 2]; A = [1, 2]; B = [3, 5]; element p*b+q = A[p] B[q]:
    // [A0B0, A0B1, A1B0, A1B1] = [3, 5, 6, 10] (the other order would give [3, 6, 5, 10]).
    const Mat x = rows({{1, 2}, {1, 2}, {1, 2}, {1, 2}});
    const auto S = b.logits(x, x);
    EXPECT_EQ(S[0].row(0), rows({{3, 5, 6, 10}}));
    EXPECT_EQ(b.logits(x.topRows(3), x.topRows(3))[0].row(0), rows({{3, 5, 6}}));
}

TEST(FactorizedRandom, HandComputedLogits) {
    auto c = variant("factorized_random");
    c["k"] = 1;
    Block b(c, {2, 1, 3, BlockKind::EncoderSelf, true});
    b["frandom.r1"] = rows({{1}, {2}, {3}});
    b["frandom.r2"] = rows({{1}, {0}, {-1}});
    // R1 R2ᵀ = [[1, 0, -1], [2, 0, -2], [3, 0, -3]].
    const auto S = b.logits(Mat::Zero(3, 2), Mat::Zero(2, 2));
    EXPECT_EQ(S[0], rows({{1, 0}, {2, 0}, {3, 0}}));
}

TEST(Mixture, MixesComponentLogitsBySoftmaxOfAlpha) {
    auto c = variant("mixture");
    c["components"] = {"random", "dot"};
    Block b(c, {2, 1, 2, BlockKind::EncoderSelf, true});
    b["mix.alpha"] = rows({{std::log(3.0f), 0}});  // softmax -> [0.75, 0.25]
    b["random.r"] = rows({{0, 4}, {0, 0}});
    b["q_proj.weight"] = Mat::Identity(2, 2);
    b["k_proj.weight"] = Mat::Identity(2, 2);
    // dot logits row 0 = [0.707107, 0]; mixed = 0.75 [0, 4] + 0.25 [0.707107, 0] = [0.176777, 3].
    const auto S = b.logits(Mat::Identity(2, 2), Mat::Identity(2, 2));
    EXPECT_NEAR(S[0](0, 0), 0.176777f, 1e-6);
    EXPECT_NEAR(S[0](0, 1), 3.0f, 1e-6);
    EXPECT_NEAR(S[0](1, 1), 0.25f * 0.707107f, 1e-6);
}

TEST(Gaussian, SigmaOneGivesThePapersWindow) {
    auto c = variant("gaussian");
    c["offsets"] = {0};
    Block b(c, {2, 1, 8, BlockKind::EncoderSelf, true});
    const auto A = b.weights(Mat::Zero(9, 2), Mat::Zero(9, 2));
    // Row 4, keys 2..6: N(0,1) density at distances 2, 1, 0, 1, 2.
    const float paper[5] = {0.054f, 0.242f, 0.399f, 0.242f, 0.054f};
    for (int k = 0; k < 5; ++k) EXPECT_NEAR(A[0](4, 2 + k), paper[k], 5e-4) << k;
    EXPECT_NEAR(A[0](4, 4), 1.0 / std::sqrt(2 * M_PI), 1e-7);
}

TEST(Gaussian, OffsetsMasksNormalizationAndRatio) {
    auto c = variant("gaussian");
    c["heads"] = 2;
    c["offsets"] = {-1, 1};
    Block b(c, {4, 2, 8, BlockKind::EncoderSelf, true});
    auto A = b.weights(Mat::Zero(5, 4), Mat::Zero(5, 4));
    // Head 0 peaks at i-1, head 1 at i+1.
    for (int i = 1; i < 4; ++i) {
        Eigen::Index j0, j1;
        A[0].row(i).maxCoeff(&j0);
        A[1].row(i).maxCoeff(&j1);
        EXPECT_EQ(j0, i - 1);
        EXPECT_EQ(j1, i + 1);
    }
    // Not renormalised: the edge row loses the mass that falls outside the sentence.
    EXPECT_LT(A[0].row(0).sum(), 0.8f);
    // Causal: future keys are exactly zero.
    A = b.weights(Mat::Zero(5, 4), Mat::Zero(5, 4), /*causal=*/true);
    for (int i = 0; i < 5; ++i)
        for (int j = i + 1; j < 5; ++j) EXPECT_EQ(A[1](i, j), 0.0f);
    // normalize: rows sum to 1.
    auto n = c;
    n["normalize"] = true;
    Block bn(n, {4, 2, 8, BlockKind::EncoderSelf, true});
    for (const auto& a : bn.weights(Mat::Zero(5, 4), Mat::Zero(5, 4), true))
        for (int i = 0; i < 5; ++i) EXPECT_NEAR(a.row(i).sum(), 1.0f, 1e-6);
    // Cross-attention with ratio 2: head 1 of query i peaks at 2i + 1.
    auto x = c;
    x["ratio"] = 2;
    Block bx(x, {4, 2, 8, BlockKind::Cross, true});
    A = bx.weights(Mat::Zero(3, 4), Mat::Zero(7, 4));
    Eigen::Index j;
    A[1].row(2).maxCoeff(&j);
    EXPECT_EQ(j, 5);
}

// normalize renormalises the window over the allowed keys, however far the window lies past
// them: with ratio 20, query 4's window centres at 81 over 5 keys, where every density
// underflows double (exp(-0.5·77²) ≈ 1e-1288). The renormalised row is the window's tail:
// almost all on the nearest key (neighbour ratio e^-(z+½), z = 77), not uniform.
TEST(Gaussian, ARenormalisedWindowPastTheKeysFallsOnTheNearest) {
    auto c = variant("gaussian");
    c["offsets"] = {1};
    c["ratio"] = 20;
    c["normalize"] = true;
    Block b(c, {2, 1, 8, BlockKind::Cross, true});
    const auto A = b.weights(Mat::Zero(5, 2), Mat::Zero(5, 2));
    EXPECT_EQ(A[0](4, 4), 1.0f);
    EXPECT_EQ(A[0](4, 0), 0.0f);
    EXPECT_NEAR(A[0].row(4).sum(), 1.0f, 1e-6);
    // Row 0 (centre 1) is the ordinary renormalised window.
    EXPECT_NEAR(A[0](0, 1) / A[0](0, 2), std::exp(0.5), 1e-5);
}

TEST(Masks, PaddingAndFutureKeysGetExactlyZeroInEveryVariant) {
    for (const VariantInfo& info : allVariants()) {
        const std::string name = info.name;
        nlohmann::json c = info.example;
        c["variant"] = name;
        c["heads"] = 2;
        Block b(c, {4, 2, 6, BlockKind::EncoderSelf, true});
        for (auto& [n, t] : b.store) t.m.setRandom();
        const Mat x = Mat::Random(6, 4);
        for (bool causal : {false, true})
            for (const Mat& a : b.weights(x, x, causal, /*keyLen=*/4))
                for (int i = 0; i < 6; ++i) {
                    for (int j = 0; j < 6; ++j) {
                        if (j >= 4 || (causal && j > i)) {
                            EXPECT_EQ(a(i, j), 0.0f) << name << " " << i << "," << j;
                        }
                    }
                    if (info.logitBased) {
                        EXPECT_NEAR(a.row(i).sum(), 1.0f, 1e-5) << name;
                    }
                }
        // A row with no allowed key is all zeros, not NaN.
        for (const Mat& a : b.weights(x, x, false, /*keyLen=*/0))
            EXPECT_EQ(a.cwiseAbs().sum(), 0.0f) << name;
    }
}

// Properties over whole models of every test configuration: rows of logit variants sum to
// 1, Gaussian rows to at most 1, masked entries are exactly 0, and padding changes nothing.
class EveryVariant : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryVariant, RowsMasksAndPadding) {
    Model m = test::makeModel(test::readConfig(GetParam()), 11);
    const bool seq2seq = m.config().hasEncoder();
    const std::vector<std::vector<int>> src{{5, 6, 7, 8, 9, 10, 11}, {12, 13}};
    const std::vector<std::vector<int>> tgt{{20, 21}, {22, 23, 24, 25, 26, 27}};
    const Batch batch = seq2seq ? Batch::make(src, tgt) : Batch::make({}, tgt);
    const ForwardResult r = m.forward(batch, true);
    for (const auto& blk : r.blocks) {
        const bool logit = variantInfo(blk.variant).logitBased;
        for (int b = 0; b < batch.B; ++b)
            for (int h = 0; h < blk.heads; ++h) {
                const Mat& A = blk.weights[size_t(b * blk.heads + h)];
                for (Eigen::Index i = 0; i < A.rows(); ++i) {
                    const float s = A.row(i).sum();
                    if (logit) {
                        EXPECT_NEAR(s, 1.0f, 1e-5) << blk.name;
                    } else {
                        EXPECT_LE(s, 1.0f + 1e-5) << blk.name;
                    }
                    if (blk.kind == BlockKind::DecoderSelf) {
                        for (Eigen::Index j = i + 1; j < A.cols(); ++j)
                            EXPECT_EQ(A(i, j), 0.0f) << blk.name;
                    }
                }
            }
    }
    // Sequence 1 alone gives the same weights as inside the padded batch.
    const Batch single = seq2seq ? Batch::make({src[1]}, {tgt[1]}) : Batch::make({}, {tgt[1]});
    const ForwardResult r1 = m.forward(single, true);
    for (size_t k = 0; k < r.blocks.size(); ++k)
        for (int h = 0; h < r.blocks[k].heads; ++h) {
            const Mat& inBatch = r.blocks[k].weights[size_t(r.blocks[k].heads + h)];
            const Mat& alone = r1.blocks[k].weights[size_t(h)];
            ASSERT_EQ(inBatch.rows(), alone.rows());
            ASSERT_EQ(inBatch.cols(), alone.cols());
            EXPECT_LT((inBatch - alone).cwiseAbs().maxCoeff(), 1e-5f) << r.blocks[k].name;
        }
}

INSTANTIATE_TEST_SUITE_P(Configs, EveryVariant, ::testing::ValuesIn(test::configNames()),
                         [](const auto& info) { return info.param; });

// −inf logits (a variant's "outside the window") get weight exactly 0, and a row of
// only −inf logits becomes zeros, not NaN.
TEST(Softmax, MinusInfinityLogitsGetZeroWeight) {
    const float inf = std::numeric_limits<float>::infinity();
    const Mat S = rows({{0, -inf, 0}, {-inf, -inf, -inf}, {1, 2, -inf}});
    Mat A;
    maskedSoftmax(S, 0, AttentionMask{{3}, false}, A);
    EXPECT_EQ(A.row(0), rows({{0.5f, 0, 0.5f}}));
    EXPECT_EQ(A.row(1), rows({{0, 0, 0}}));
    EXPECT_NEAR(A(2, 1), 1 / (1 + std::exp(-1.0f)), 1e-6);
    EXPECT_EQ(A(2, 2), 0.0f);
}
