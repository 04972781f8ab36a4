// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/config.h"

#include <gtest/gtest.h>

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
    EXPECT_EQ(c.encoderSelf.offsets, (std::vector<double>{-1, 1}));
    EXPECT_EQ(c.decoderSelf.offsets, (std::vector<double>{-1, 0}));
    EXPECT_EQ(c.cross.a, 6);  // largest divisor of 60 not above sqrt(60)
    EXPECT_EQ(c.cross.b, 10);
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
                  .find("'sigma' must be positive"),
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
