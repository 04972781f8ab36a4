// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/config.h"

#include <gtest/gtest.h>

#include <cmath>

#include "core/attention/attention.h"
#include "test_util.h"

using namespace attnviz;

namespace {
std::string configError(const std::string& json) {
    return test::errorOf([&] { ModelConfig::fromJsonText(json); });
}
}  // namespace

TEST(Config, DefaultsAreFilledIn) {
    const ModelConfig c = ModelConfig::fromJsonText(
        R"({"max_len": 60, "encoder_self": {"variant": "gaussian"}, "decoder_self": {"variant": "gaussian"},
            "cross": {"variant": "factorized_dense"}})");
    EXPECT_EQ(c.dModel, 64);
    EXPECT_EQ(c.encoderSelf.numbers("offsets"), (std::vector<double>{-1, 1}));
    EXPECT_EQ(c.decoderSelf.numbers("offsets"), (std::vector<double>{-1, 0}));
    EXPECT_EQ(c.cross.integer("a"), 6);  // largest divisor of 60 not above sqrt(60)
    EXPECT_EQ(c.cross.integer("b"), 10);
    EXPECT_EQ(c.cross.heads, 4);
    EXPECT_FALSE(c.cross.topOnly);
    // The resolved config survives a round trip.
    EXPECT_EQ(ModelConfig::fromJson(c.toJson()).toJson(), c.toJson());
}

TEST(Config, EveryErrorIsNamed) {
    EXPECT_NE(configError(R"({"encoder_self": {"variant": "sparse"}})")
                  .find("unknown attention variant 'sparse'"),
              std::string::npos);
    EXPECT_NE(
        configError(R"({"max_len": 64, "cross": {"variant": "factorized_dense", "a": 4, "b": 8}})")
            .find("a*b (4*8=32) must equal max_len (64)"),
        std::string::npos);
    EXPECT_NE(
        configError(R"({"d_model": 64, "heads": 5})").find("heads (5) must divide d_model (64)"),
        std::string::npos);
    EXPECT_NE(configError(R"({"cross": {"variant": "dot", "heads": 3}})")
                  .find("cross: heads (3) must divide d_model"),
              std::string::npos);
    EXPECT_NE(configError(R"({"d_modle": 64})").find("unknown configuration key 'd_modle'"),
              std::string::npos);
    EXPECT_NE(configError(R"({"encoder_self": {"variant": "dot", "sigma": 2}})")
                  .find("option 'sigma' does not apply to variant 'dot'"),
              std::string::npos);
    EXPECT_NE(
        configError(R"({"cross": {"variant": "mixture", "components": ["random", "gaussian"]}})")
            .find("has no logits"),
        std::string::npos);
    EXPECT_NE(configError(R"({"cross": {"variant": "mixture"}})").find("needs 'components'"),
              std::string::npos);
    EXPECT_NE(configError(R"({"cross": {"variant": "gaussian", "sigma": 0}})")
                  .find("'sigma' must be a finite number between 0.001 and 1024"),
              std::string::npos);
    EXPECT_NE(configError(R"({"cross": {"variant": "dot", "layers": "bottom"}})")
                  .find("'layers' must be"),
              std::string::npos);
    EXPECT_NE(configError(R"({"arch": "encoder"})").find("'arch' must be"), std::string::npos);
    EXPECT_NE(configError(R"({"arch": "decoder", "enc_layers": 2})").find("enc_layers"),
              std::string::npos);
    EXPECT_NE(configError(R"({"d_model": "64"})").find("'d_model' must be an integer"),
              std::string::npos);
    EXPECT_NE(configError(R"({"d_model": 64,)").find("not valid JSON"), std::string::npos);
    EXPECT_NE(test::errorOf([] {
                  ModelConfig::fromFile("/nonexistent/c.json");
              }).find("cannot open '/nonexistent/c.json'"),
              std::string::npos);
}

TEST(Config, CrossTopHasCrossOnlyInTheLastLayer) {
    const ModelConfig c = ModelConfig::fromJsonText(
        R"({"dec_layers": 3, "cross": {"variant": "dot", "heads": 1, "layers": "top"}})");
    EXPECT_FALSE(c.hasCross(0));
    EXPECT_FALSE(c.hasCross(1));
    EXPECT_TRUE(c.hasCross(2));
}

// The blocks a model has, for those who describe or pick one (the Variant dock, column
// headers): a vit's is its encoder's, a language model's its decoder's.
TEST(Config, EachArchitectureNamesTheBlocksItHas) {
    using K = BlockKind;
    const ModelConfig s2s = ModelConfig::fromJsonText("{}");
    EXPECT_EQ(s2s.blockKinds(), (std::vector<K>{K::EncoderSelf, K::DecoderSelf, K::Cross}));
    const ModelConfig lm = ModelConfig::fromJsonText(R"({"arch": "decoder"})");
    EXPECT_EQ(lm.blockKinds(), std::vector<K>{K::DecoderSelf});
    EXPECT_FALSE(lm.hasBlock(K::EncoderSelf));
    const ModelConfig vit = ModelConfig::fromJsonText(
        R"({"arch": "vit", "image_size": 28, "patch": 4, "encoder_self": {"variant": "dense"}})");
    EXPECT_EQ(vit.blockKinds(), std::vector<K>{K::EncoderSelf});
    EXPECT_TRUE(vit.hasBlock(K::EncoderSelf));
    EXPECT_FALSE(vit.hasBlock(K::DecoderSelf));
    EXPECT_EQ(vit.block(vit.blockKinds().front()).variant, "dense");
}

// The option tables: every registered option has a rule, its default passes it, and a
// resolved block written and read again is the same block.
TEST(Options, EveryVariantsDefaultsAreValidAndRoundTrip) {
    for (const VariantInfo& info : allVariants()) {
        for (const OptionSpec& o : info.options) {
            EXPECT_FALSE(o.rule().empty()) << info.name << "." << o.name;
            EXPECT_FALSE(o.help.empty()) << info.name << "." << o.name;
            if (!o.defaultValue.is_null()) {
                EXPECT_EQ(o.check(o.defaultValue), "") << info.name << "." << o.name;
            }
        }
        nlohmann::json block = info.example;
        block["variant"] = info.name;
        for (BlockKind kind : {BlockKind::EncoderSelf, BlockKind::DecoderSelf, BlockKind::Cross}) {
            const BlockConfig b = parseBlockConfig(block, kind, 8, 2, 8);
            for (const OptionSpec& o : blockOptions(b.variant, b.options))
                EXPECT_TRUE(b.has(o.name)) << info.name << " leaves " << o.name << " unresolved";
            const nlohmann::json written = blockConfigJson(b, kind);
            EXPECT_EQ(parseBlockConfig(written, kind, 8, 2, 8), b) << info.name;
            EXPECT_EQ(blockConfigJson(parseBlockConfig(written, kind, 8, 2, 8), kind), written);
        }
    }
}

// Each option's rule is enforced: a value just outside its range, or of another type, is
// an error naming the option.
TEST(Options, EveryRuleIsEnforced) {
    for (const VariantInfo& info : allVariants()) {
        for (const OptionSpec& o : info.options) {
            std::vector<nlohmann::json> bad{"text"};
            if (std::isfinite(o.min)) bad.push_back(o.minExclusive ? o.min : o.min - 1);
            if (std::isfinite(o.max)) bad.push_back(o.max + 1);
            if (o.type == OptionType::Integer) bad.push_back(1.5);
            if (o.type == OptionType::Numbers) bad.push_back(nlohmann::json::array());
            for (const auto& v : bad) {
                nlohmann::json block = info.example;
                block["variant"] = info.name;
                block[o.name] = v;
                const std::string e = test::errorOf(
                    [&] { parseBlockConfig(block, BlockKind::EncoderSelf, 8, 2, 8); });
                EXPECT_NE(e.find("'" + o.name + "'"), std::string::npos)
                    << info.name << "." << o.name << " = " << v.dump() << ": " << e;
            }
        }
    }
}

TEST(Options, ExactJsonOfAResolvedGaussianBlock) {
    const ModelConfig c = ModelConfig::fromJsonText(
        R"({"encoder_self": {"variant": "gaussian", "sigma": 2}, "cross": {"variant": "mixture",
            "components": ["factorized_random", "dot"], "k": 3}})");
    EXPECT_EQ(c.toJson()["encoder_self"].dump(),
              R"({"heads":4,"normalize":false,"offsets":[-1,1],"ratio":1.0,"sigma":2.0,)"
              R"("variant":"gaussian"})");
    EXPECT_EQ(c.toJson()["cross"].dump(),
              R"({"components":["factorized_random","dot"],"heads":4,"k":3,"layers":"all",)"
              R"("trainable":true,"unweighted":false,"variant":"mixture"})");
}

// The live Gaussian editor's path validates like a configuration file.
TEST(Options, ReconfigureValidatesTheNewOptions) {
    Model m = test::makeModel(test::readConfig("gaussian"), 1);
    const double before = m.config().encoderSelf.number("sigma");
    ModelConfig bad = m.config();
    bad.encoderSelf.options["sigma"] = -1.0;
    EXPECT_NE(test::errorOf([&] {
                  m.reconfigure(bad);
              }).find("'sigma' must be a finite number between 0.001 and 1024"),
              std::string::npos);
    EXPECT_EQ(m.config().encoderSelf.number("sigma"), before);  // unchanged
    ModelConfig good = m.config();
    good.encoderSelf.options["sigma"] = 2.0;
    m.reconfigure(good);
    EXPECT_EQ(m.config().encoderSelf.number("sigma"), 2.0);
}

// A parse error names what went wrong and where, never the text read so far (found by
// fuzz_config: a 4 KB message).
TEST(Config, ParseErrorsDoNotRepeatTheText) {
    const std::string e = configError("{\"" + std::string(5000, 'a') + "\n");
    EXPECT_NE(e.find("not valid JSON"), std::string::npos) << e;
    EXPECT_LT(e.size(), 400u) << e.size();
}
