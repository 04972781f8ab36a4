// SPDX-License-Identifier: GPL-3.0-or-later
// Banded Gaussian attention (issue 14): without capture, Gaussian blocks whose bands are
// sparse enough (AttentionBlock::kBandDensity: long sequences) keep only the band of keys
// whose weight is not exactly zero in float, and multiply over it alone. The banded weights
// are the full matrix's entries bit for bit, the forward and the gradients equal the
// full-matrix path, the band is narrow, and short sequences stay on the full matrices.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "../test_util.h"
#include "core/attention/block.h"
#include "core/network.h"

using namespace attnviz;

namespace {

// Every block Gaussian: self σ 0.8, decoder self normalised, cross with ratio 1.5.
const char* kConfig = R"({"d_model":32,"heads":4,"d_ff":64,"max_len":512,
  "encoder_self":{"variant":"gaussian","sigma":0.8},
  "decoder_self":{"variant":"gaussian","normalize":true},
  "cross":{"variant":"gaussian","ratio":1.5,"offsets":[-1,0,1,2]}})";

Batch paddedBatch() {
    std::vector<std::vector<int>> src, tgt;
    for (int n : {400, 70, 250}) {
        std::vector<int> s, t;
        for (int k = 0; k < n; ++k) s.push_back(4 + (k * 7 + n) % 100);
        for (int k = 0; k < n - 3; ++k) t.push_back(4 + (k * 5 + n) % 100);
        src.push_back(s);
        tgt.push_back(t);
    }
    return Batch::make(src, tgt);
}

}  // namespace

TEST(GaussianBanded, BandHoldsTheFullMatrixEntriesBitForBitAndNothingElse) {
    BlockConfig cfg =
        parseBlockConfig(nlohmann::json::parse(R"({"variant":"gaussian","sigma":1.3,"ratio":1.5})"),
                         BlockKind::Cross, 32, 4, 512);
    auto v = createVariant(cfg, BlockGeometry{32, 4, 512, BlockKind::Cross});
    const AttentionMask mask{{300, 17}, false};
    std::vector<Mat> full;
    std::vector<BandedWeights> band;
    v->weights(2, 200, 300, mask, full);
    ASSERT_TRUE(v->bandedWeights(2, 200, 300, mask, SIZE_MAX, band));
    int widest = 0;
    for (size_t k = 0; k < full.size(); ++k)
        for (int i = 0; i < 200; ++i) {
            const BandedWeights& a = band[k];
            const int lo = a.lo[size_t(i)], len = a.len[size_t(i)];
            widest = std::max(widest, len);
            for (int j = 0; j < 300; ++j) {
                const Scalar want = full[k](i, j);
                const bool inBand = j >= lo && j < lo + len;
                const Scalar got = inBand ? a.values[size_t(a.start[size_t(i)] + j - lo)] : 0;
                ASSERT_EQ(got, want) << "block " << k << " row " << i << " key " << j;
            }
        }
    // exp(-z²/2)/(σ√2π) < 2^-126 (subnormals are 0) past |z| ≈ 13.1: about 2·13.1·1.3 + 1.
    EXPECT_LE(widest, 40);
    EXPECT_GE(widest, 30);
}

TEST(GaussianBanded, ForwardAndGradientsEqualTheFullMatrixPath) {
    Model m = test::makeModel(kConfig, 4);
    const Batch b = paddedBatch();
    const ModelConfig& cfg = m.config();
    auto run = [&](bool keep, Mat* logits) {
        Network net(cfg);
        ParamStore grads =
            gradientStore(net.parameterInfo(m.srcVocab().size(), m.tgtVocab().size()));
        net.bind(Bindings(m.params(), &grads));
        net.setKeepWeights(keep);
        net.forward(b, Dropout{}, *logits);
        for (AttentionBlock* block : net.blocks())
            EXPECT_EQ(block->ranBanded(), !keep) << int(block->kind());
        Mat dlogits;
        crossEntropy(*logits, b.tgtOut, 0.0f, 1.0f, &dlogits);
        net.backward(b, dlogits);
        return grads;
    };
    Mat full, banded;
    const ParamStore gFull = run(true, &full), gBand = run(false, &banded);
    EXPECT_LT((full - banded).cwiseAbs().maxCoeff(), 1e-5f);
    ASSERT_EQ(gFull.size(), gBand.size());
    for (const auto& [name, t] : gFull) {
        const Mat& a = t.m;
        const Mat& g = gBand.at(name).m;
        const float scale = std::max(1.0f, a.cwiseAbs().maxCoeff());
        EXPECT_LT((a - g).cwiseAbs().maxCoeff(), 1e-5f * scale) << name;
    }
}

TEST(GaussianBanded, ForwardWithoutCaptureMatchesWithCaptureAndCaptureStillWorks) {
    Model m = test::makeModel(kConfig, 6);
    const Batch b = paddedBatch();
    m.setBanded(false);
    const ForwardResult dense = m.forward(b, false);
    const size_t full = m.attentionBytes();
    EXPECT_GT(full, size_t(4 * 401 * 401 * sizeof(Scalar)));  // full matrices
    m.setBanded(true);
    const ForwardResult fast = m.forward(b, false);
    EXPECT_LT(m.attentionBytes(), full / 8);  // bands only (the longest sequence: 401 keys)
    EXPECT_EQ(dense.loss(), m.forward(b, true).loss());  // capture: the full path again
    const ForwardResult kept = m.forward(b, true);
    EXPECT_NEAR(fast.loss(), kept.loss(), 1e-6);
    EXPECT_LT((fast.logits - kept.logits).cwiseAbs().maxCoeff(), 1e-5f);
    ASSERT_FALSE(kept.blocks.empty());
    EXPECT_EQ(kept.blocks[0].weights[0].rows(), 401);  // 400 tokens + <eos>
}

// Banded only where it is faster: a banded row is a small product of its own, so the band
// must hold at most 1 in kBandDensity of the matrix's entries. With the papers' σ = 1 a
// window spans about 29 keys (15 under the causal mask), so the models' lengths decide.
TEST(GaussianBanded, OnlyLongSequencesRunBanded) {
    const char* paperConfig = R"({"d_model":32,"heads":4,"d_ff":64,"max_len":1024,
      "encoder_self":{"variant":"gaussian"},"decoder_self":{"variant":"gaussian"},
      "cross":{"variant":"gaussian"}})";
    Model m = test::makeModel(paperConfig, 3);
    Network net(m.config());
    net.bind(Bindings(m.params()));
    net.setKeepWeights(false);
    auto banded = [&](int n) {  // per block of the first layer: encoder, decoder self, cross
        std::vector<int> s;
        for (int k = 0; k < n; ++k) s.push_back(4 + k % 50);
        Mat logits;
        net.forward(Batch::make({s}, {s}), Dropout{}, logits);
        std::string r;
        for (AttentionBlock* block : net.blocks()) r += block->ranBanded() ? 'B' : '.';
        return r;
    };
    // Blocks: encoder L0, L1; decoder L0 self, cross; L1 self, cross.
    EXPECT_EQ(banded(31), "......");   // every test sentence, every bundled toy model
    EXPECT_EQ(banded(127), "......");  // the bundled real models' longest (max_len 128)
    EXPECT_EQ(banded(200), "..B.B.");  // causal windows hold ~15 of 201 keys: banded
    EXPECT_EQ(banded(400), "BBBBBB");  // ~29 of 401
    // Padding keys do not count: 4 heads, 400 queries, sequences of 401, 30 and 500 keys.
    EXPECT_EQ(AttentionBlock::bandBudget(4, 400, 401, AttentionMask{{401, 30, 500}, false}),
              size_t(4 * 400 * (401 + 30 + 401)) / 10);
}

// Greedy decoding multiplies only the window of a Gaussian row once the window holds at most
// 1 in kBandDensity of the keys (cross-attention over 301 source positions from the first
// step, causal self-attention from about position 150): each step's logits still equal row
// t of the whole prefix, which the full matrices compute.
TEST(GaussianBanded, DecodingStepsOverTheWindowEqualTheWholePrefix) {
    const char* cfgText = R"({"d_model":32,"heads":4,"d_ff":64,"max_len":512,
      "encoder_self":{"variant":"gaussian"},"decoder_self":{"variant":"gaussian"},
      "cross":{"variant":"gaussian","offsets":[-1,0,1,2]}})";
    Model m = test::makeModel(cfgText, 7);
    Network net(m.config()), reference(m.config());  // windows / full matrices
    net.bind(Bindings(m.params()));
    reference.bind(Bindings(m.params()));
    net.setKeepWeights(false);
    std::vector<int> src, fed;
    for (int k = 0; k < 300; ++k) src.push_back(4 + (k * 7) % 90);
    for (int k = 0; k < 260; ++k) fed.push_back(4 + (k * 11) % 90);
    net.encode(Batch::make({src}, {{}}), Dropout{});
    reference.encode(Batch::make({src}, {{}}), Dropout{});
    net.beginDecoding(int(fed.size()));
    std::vector<int> token{Vocab::kBos};
    Mat stepLogits, full;
    for (int t = 0; t < int(fed.size()); ++t) {
        net.decodeStep(token, t, stepLogits);
        if (t % 50 == 0 || t == int(fed.size()) - 1) {
            const Batch b = Batch::make({src}, {std::vector<int>(fed.begin(), fed.begin() + t)});
            reference.decode(b, Dropout{}, full);
            const auto ref = full.row(t);
            const float scale = std::max(1.0f, ref.cwiseAbs().maxCoeff());
            EXPECT_LT((stepLogits.row(0) - ref).cwiseAbs().maxCoeff(), 1e-4f * scale)
                << "step " << t;
        }
        token[0] = fed[size_t(t)];
    }
}

// A weight that would be subnormal in float is 0: the paper's density there is below 2^-126
// (about 13σ from the centre), far below anything a row's sum can show, and subnormal
// operands made every product with the weights several times slower on x86 (the Gaussian
// blocks were slower than dot-product ones at 64 positions). Every other weight is the
// density rounded to float.
TEST(GaussianBanded, WeightsBelowTheSmallestNormalFloatAreZero) {
    const Scalar tiny = std::numeric_limits<Scalar>::min();
    int zeroed = 0, kept = 0;
    for (const double sigma : {0.3, 1.0, 2.5})
        for (const bool normalize : {false, true}) {
            nlohmann::json j{{"variant", "gaussian"},
                             {"sigma", sigma},
                             {"normalize", normalize},
                             {"ratio", 1.5},
                             {"offsets", {-1, 2}}};
            BlockConfig cfg = parseBlockConfig(j, BlockKind::Cross, 32, 2, 512);
            auto v = createVariant(cfg, BlockGeometry{32, 2, 512, BlockKind::Cross});
            std::vector<Mat> A;
            v->weights(1, 60, 90, AttentionMask{{90}, false}, A);
            for (int hd = 0; hd < 2; ++hd)
                for (int i = 0; i < 60; ++i) {
                    const double mu = 1.5 * i + (hd == 0 ? -1 : 2);
                    double z = 0;  // the row's normaliser (normalize), over the 90 keys
                    for (int k = 0; k < 90; ++k)
                        z += std::exp(-0.5 * std::pow((k - mu) / sigma, 2));
                    for (int k = 0; k < 90; ++k) {
                        const double g = std::exp(-0.5 * std::pow((k - mu) / sigma, 2));
                        const double d = normalize ? g / z : g / (sigma * std::sqrt(2 * M_PI));
                        const Scalar got = A[size_t(hd)](i, k);
                        ASSERT_TRUE(got == 0 || got >= tiny) << sigma << " " << i << " " << k;
                        if (d < 0.5 * tiny || d > 2.0 * tiny) {  // clear of the threshold
                            if (d < tiny) {
                                ASSERT_EQ(got, 0) << sigma << " " << i << " " << k;
                                zeroed += d > 0;
                            } else {
                                ASSERT_NEAR(got, d, 1e-6 * d) << sigma << " " << i << " " << k;
                                ++kept;
                            }
                        }
                    }
                }
        }
    EXPECT_GT(zeroed, 1000);  // the test saw densities that float would hold as subnormals
    EXPECT_GT(kept, 1000);
}

// The variant builds each shape of sequence once (queries, keys, allowed keys, causal) and
// hands out copies: a batch of mixed lengths gets, for every sequence, exactly what that
// sequence alone gets from a fresh variant, and again on the next call (full and banded).
TEST(GaussianBanded, SequencesOfOneShapeShareTheirWeightsExactly) {
    const nlohmann::json j{{"variant", "gaussian"}, {"sigma", 0.9}};
    const BlockConfig cfg = parseBlockConfig(j, BlockKind::DecoderSelf, 32, 4, 512);
    const BlockGeometry geo{32, 4, 512, BlockKind::DecoderSelf};
    auto v = createVariant(cfg, geo);
    const std::vector<int> keyLen{40, 17, 40, 3, 17};
    const AttentionMask mask{keyLen, true};
    for (int round = 0; round < 2; ++round) {
        std::vector<Mat> A;
        std::vector<BandedWeights> band;
        v->weights(5, 40, 40, mask, A);
        ASSERT_TRUE(v->bandedWeights(5, 40, 40, mask, SIZE_MAX, band));
        for (int b = 0; b < 5; ++b) {
            auto alone = createVariant(cfg, geo);
            std::vector<Mat> one;
            std::vector<BandedWeights> oneBand;
            alone->weights(1, 40, 40, AttentionMask{{keyLen[size_t(b)]}, true}, one);
            alone->bandedWeights(1, 40, 40, AttentionMask{{keyLen[size_t(b)]}, true}, SIZE_MAX,
                                 oneBand);
            for (int hd = 0; hd < 4; ++hd) {
                const size_t k = size_t(b * 4 + hd);
                ASSERT_TRUE(A[k] == one[size_t(hd)]) << "round " << round << " seq " << b;
                ASSERT_EQ(band[k].values, oneBand[size_t(hd)].values) << b;
                ASSERT_EQ(band[k].lo, oneBand[size_t(hd)].lo) << b;
                ASSERT_EQ(band[k].len, oneBand[size_t(hd)].len) << b;
            }
        }
    }
}
