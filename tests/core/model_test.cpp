// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/model.h"

#include <gtest/gtest.h>

#include "core/safetensors.h"
#include "test_util.h"

using namespace attnviz;

namespace {

// The parameters of one block's scoring part (everything but v/out projections).
int64_t scoreParams(const std::string& block, int d = 64, int L = 64) {
    const std::string cfg = "{\"d_model\": " + std::to_string(d) +
                            ", \"heads\": 4, \"max_len\": " + std::to_string(L) +
                            ", \"encoder_self\": " + block + "}";
    const Model m = test::makeModel(cfg);
    int64_t n = 0, vo = 0;
    for (const auto& p : m.parameterInfo()) {
        if (p.module != "encoder.layers.0.self_attn" || p.role == "norm") continue;
        (p.role == "attention.value_output" ? vo : n) += p.numel();
    }
    EXPECT_EQ(vo, 2 * d * d + 2 * d);  // shared value and output projections (with biases)
    return n;
}

}  // namespace

// Table 1 of the Synthesizer paper, per block, d = 64, h = 4, L = 64.
TEST(ParameterCount, MatchesTheSynthesizerTable) {
    const int64_t d = 64, h = 4, L = 64, k = 8, a = 8, b = 8;
    EXPECT_EQ(scoreParams(R"({"variant": "dot"})"), 2 * d * d + 2 * d);
    EXPECT_EQ(scoreParams(R"({"variant": "random"})"), h * L * L);
    EXPECT_EQ(scoreParams(R"({"variant": "random", "trainable": false})"), h * L * L);
    EXPECT_EQ(scoreParams(R"({"variant": "factorized_random"})"), 2 * h * L * k);
    EXPECT_EQ(scoreParams(R"({"variant": "dense"})"), d * d + d * L + (d + h * L));
    EXPECT_EQ(scoreParams(R"({"variant": "factorized_dense"})"),
              d * d + d * (a + b) + (d + h * (a + b)));
    EXPECT_EQ(scoreParams(R"({"variant": "mixture", "components": ["random", "dot"]})"),
              h * L * L + 2 * d * d + 2 * d + 2);
    EXPECT_EQ(scoreParams(R"({"variant": "gaussian"})"), 0);
}

TEST(ParameterCount, ModelTotalsAddUp) {
    const Model m = test::makeModel(test::readConfig("dot"));
    const ParamCount c = countParameters(m.parameterInfo());
    int64_t sum = 0;
    for (const auto& [role, n] : c.byRole) sum += n;
    EXPECT_EQ(sum, c.total);
    int64_t stored = 0;
    for (const auto& [name, t] : m.params()) stored += t.numel();
    EXPECT_EQ(stored, c.total);
    const Model fixed = test::makeModel(test::readConfig("fixed_random"));
    const ParamCount f = countParameters(fixed.parameterInfo());
    // Frozen: the R tables of 2 encoder and 2 decoder self-attention blocks, h*L*L each.
    EXPECT_EQ(f.total - f.trainable, 4 * (4 * 24 * 24));
}

TEST(Model, InitialisationIsDeterministicPerSeed) {
    const std::string cfg = test::readConfig("mixture");
    const auto a = test::makeModel(cfg, 3).toSafeTensors().serialize();
    EXPECT_EQ(a, test::makeModel(cfg, 3).toSafeTensors().serialize());
    EXPECT_NE(a, test::makeModel(cfg, 4).toSafeTensors().serialize());
}

TEST(Model, AnalyzeCapturesEveryBlockInOrder) {
    Model m = test::makeModel(test::readConfig("hc_sa_top1"));
    const Analysis a = m.analyze("I want to go to the station", std::string_view("the station"));
    EXPECT_EQ(a.sourceTokens.back(), "<eos>");
    EXPECT_EQ(a.targetTokens, (std::vector<std::string>{"<bos>", "the", "station"}));
    ASSERT_TRUE(a.loss.has_value());
    std::vector<std::string> names;
    for (const auto& b : a.blocks) names.push_back(b.name);
    EXPECT_EQ(names,
              (std::vector<std::string>{"encoder.layers.0.self_attn", "encoder.layers.1.self_attn",
                                        "decoder.layers.0.self_attn", "decoder.layers.1.self_attn",
                                        "decoder.layers.1.cross_attn"}));
    EXPECT_EQ(a.blocks.back().heads, 1);
    EXPECT_EQ(a.blocks.back().weights[0].rows(), 3);
    EXPECT_EQ(a.blocks.back().weights[0].cols(), 8);
    EXPECT_EQ(a.blocks[0].weights.size(), 4u);
}

TEST(Model, GreedyDecodingWithoutTargetIsDeterministicAndBounded) {
    Model m = test::makeModel(test::readConfig("dot"));
    const Analysis a = m.analyze("the cat sat");
    EXPECT_TRUE(a.decoded);
    EXPECT_LE(int(a.targetTokens.size()) - 1, 2 * 3 + 10);
    EXPECT_EQ(m.analyze("the cat sat").targetTokens, a.targetTokens);
}

TEST(Model, BadInputGetsAClearMessage) {
    Model dense = test::makeModel(test::readConfig("dense"));  // max_len 24
    EXPECT_NE(test::errorOf([&] { dense.analyze(""); }).find("empty"), std::string::npos);
    EXPECT_NE(test::errorOf([&] { dense.analyze(" \t "); }).find("empty"), std::string::npos);
    EXPECT_NE(
        test::errorOf([&] { dense.analyze("ok \xc3\x28"); }).find("invalid UTF-8 at byte offset 3"),
        std::string::npos);
    std::string longText;
    for (int i = 0; i < 30; ++i) longText += "word ";
    const std::string e = test::errorOf([&] { dense.analyze(longText); });
    EXPECT_NE(e.find("30 tokens; this model accepts at most 23"), std::string::npos) << e;
    EXPECT_NE(e.find("max_len 24"), std::string::npos) << e;
    // The model keeps working after a refusal.
    EXPECT_NO_THROW(dense.analyze("the cat", std::string_view("the cat")));
    // Dot-product models have no max_len table but the engine has a hard limit.
    Model dot = test::makeModel(test::readConfig("dot"));
    std::string huge;
    for (int i = 0; i < 1100; ++i) huge += "a ";
    EXPECT_NE(test::errorOf([&] { dot.analyze(huge); }).find("at most 1023"), std::string::npos);
    Model lm = test::makeModel(test::readConfig("decoder_lm"));
    EXPECT_NE(test::errorOf([&] { lm.analyze("a", std::string_view("b")); }).find("decoder-only"),
              std::string::npos);
}

TEST(Model, DecoderOnlyRunsOnTheText) {
    Model m = test::makeModel(test::readConfig("decoder_lm"));
    const Analysis a = m.analyze("I want to go");
    EXPECT_TRUE(a.sourceTokens.empty());
    EXPECT_EQ(a.targetTokens.size(), 5u);
    ASSERT_EQ(a.blocks.size(), 2u);
    EXPECT_EQ(a.blocks[0].kind, BlockKind::DecoderSelf);
    EXPECT_GT(*a.loss, 0.0);
}

TEST(Model, CloneIsIndependent) {
    Model m = test::makeModel(test::readConfig("dot"));
    Model c = m.clone();
    c.params().at("generator.bias").m.setConstant(1);
    EXPECT_EQ(m.params().at("generator.bias").m.sum(), 0.0f);
    EXPECT_EQ(c.analyze("the cat", std::string_view("a")).blocks.size(), 6u);
}
