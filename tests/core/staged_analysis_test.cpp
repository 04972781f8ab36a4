// SPDX-License-Identifier: GPL-3.0-or-later
// The app's analysis in two stages (issue 29): the encoder's maps first (Model::analyzeSource,
// no decoding), the whole analysis after. What the first stage shows must be exactly what the
// one-shot analysis gives, so that the panels do not change when the decoding arrives; a
// cancelled decoding stops; the input check refuses what analyze() refuses, with its message.
#include <gtest/gtest.h>

#include "core/error.h"
#include "core/workspace.h"
#include "test_util.h"

using namespace attnviz;

namespace {

class Staged : public ::testing::TestWithParam<std::string> {};

const char* kSentence = "the old man reads a new book in the park";

// Bit for bit: every matrix of every block of `a` in `b`, same names and shapes.
void expectSameBlocks(const std::vector<CapturedBlock>& a, const std::vector<CapturedBlock>& b) {
    ASSERT_EQ(a.size(), b.size());
    for (size_t k = 0; k < a.size(); ++k) {
        EXPECT_EQ(a[k].name, b[k].name);
        EXPECT_EQ(a[k].kind, b[k].kind);
        EXPECT_EQ(a[k].layer, b[k].layer);
        EXPECT_EQ(a[k].heads, b[k].heads);
        ASSERT_EQ(a[k].weights.size(), b[k].weights.size()) << a[k].name;
        for (size_t h = 0; h < a[k].weights.size(); ++h) {
            ASSERT_EQ(a[k].weights[h].rows(), b[k].weights[h].rows());
            ASSERT_EQ(a[k].weights[h].cols(), b[k].weights[h].cols());
            EXPECT_TRUE((a[k].weights[h].array() == b[k].weights[h].array()).all())
                << a[k].name << " head " << h;
        }
    }
}

std::vector<CapturedBlock> encoderBlocks(const Analysis& a) {
    std::vector<CapturedBlock> out;
    for (const auto& b : a.blocks)
        if (b.kind == BlockKind::EncoderSelf) out.push_back(b);
    return out;
}

}  // namespace

TEST_P(Staged, FirstStageEqualsTheOneShotAnalysis) {
    const std::string cfg = test::readConfig(GetParam());
    if (ModelConfig::fromJsonText(cfg).isVision()) GTEST_SKIP() << "an image model";
    Model m = test::makeModel(cfg, 5);
    // The one-shot analysis first and last: the first stage must not depend on what the
    // model ran before (scratch buffers, the decoder's weights of an earlier pass).
    const Analysis whole = m.analyze(kSentence);
    const Analysis first = m.analyzeSource(kSentence);
    const Analysis again = m.analyze(kSentence);
    expectSameBlocks(whole.blocks, again.blocks);
    EXPECT_EQ(first.sourceTokens, whole.sourceTokens);
    EXPECT_EQ(first.sourceIds, whole.sourceIds);
    EXPECT_EQ(first.sourceLabels, whole.sourceLabels);
    EXPECT_EQ(first.sourceWordStart, whole.sourceWordStart);
    EXPECT_EQ(first.unknownSource, whole.unknownSource);
    if (m.config().hasEncoder()) {
        EXPECT_FALSE(first.hasTarget);
        EXPECT_TRUE(first.targetTokens.empty());
        ASSERT_FALSE(first.blocks.empty());
        expectSameBlocks(first.blocks, encoderBlocks(whole));
    } else {  // nothing to decode: the first stage is the whole analysis
        EXPECT_EQ(first.targetTokens, whole.targetTokens);
        EXPECT_EQ(first.loss, whole.loss);
        expectSameBlocks(first.blocks, whole.blocks);
    }
}

INSTANTIATE_TEST_SUITE_P(Configs, Staged, ::testing::ValuesIn(test::configNames()),
                         [](const auto& info) { return info.param; });

TEST(StagedAnalysis, ColumnStagesEqualAnalyzeAll) {
    ModelColumn c;
    c.name = "dot";
    c.model = std::make_shared<Model>(test::makeModel(test::readConfig("dot")));
    for (const std::string target : {"", "the man"}) {
        const Results all = analyzeAll({c}, kSentence, target);
        const ColumnResult first = analyzeColumn(c, kSentence, target, AnalysisStage::Source);
        const ColumnResult whole = analyzeColumn(c, kSentence, target, AnalysisStage::Whole);
        ASSERT_EQ(all.size(), 1u);
        EXPECT_EQ(first.error, "");
        EXPECT_EQ(first.partial, c.model->config().hasEncoder());
        EXPECT_FALSE(whole.partial);
        EXPECT_EQ(whole.analysis.targetTokens, all[0].analysis.targetTokens);
        expectSameBlocks(whole.analysis.blocks, all[0].analysis.blocks);
        expectSameBlocks(first.analysis.blocks, c.model->config().hasEncoder()
                                                    ? encoderBlocks(all[0].analysis)
                                                    : all[0].analysis.blocks);
    }
}

TEST(StagedAnalysis, InputCheckGivesTheAnalysisErrorWithoutRunning) {
    ModelColumn c;
    c.name = "m";
    c.model = std::make_shared<Model>(test::makeModel(test::readConfig("dot")));
    const int limit = c.model->maxSourceTokens();
    std::string longText;
    for (int i = 0; i <= limit; ++i) longText += "the ";
    const std::string error = inputError(c, longText, "");
    EXPECT_NE(error.find("at most " + std::to_string(limit)), std::string::npos) << error;
    EXPECT_EQ(error, analyzeColumn(c, longText, "", AnalysisStage::Source).error);
    EXPECT_EQ(error, analyzeColumn(c, longText, "").error);
    EXPECT_EQ(inputError(c, kSentence, ""), "");
    EXPECT_NE(inputError(c, "", ""), "");
}

TEST(StagedAnalysis, ACancelledDecodingThrowsCancelled) {
    ModelColumn c;
    c.model = std::make_shared<Model>(test::makeModel(test::readConfig("dot")));
    if (!c.model->config().hasEncoder()) GTEST_SKIP() << "no decoding";
    std::atomic<bool> cancel{true};
    EXPECT_THROW(analyzeColumn(c, kSentence, "", AnalysisStage::Whole, &cancel), Cancelled);
    // Teacher forcing decodes nothing: the flag is not looked at.
    EXPECT_EQ(analyzeColumn(c, kSentence, "the man", AnalysisStage::Whole, &cancel).error, "");
    cancel = false;
    EXPECT_EQ(analyzeColumn(c, kSentence, "", AnalysisStage::Whole, &cancel).error, "");
}
