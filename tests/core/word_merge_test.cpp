// SPDX-License-Identifier: GPL-3.0-or-later
// Merging subword attention into words (Clark et al., 2019), by hand; unknown words marked.
#include "core/word_merge.h"

#include <gtest/gtest.h>

#include "core/model.h"
#include "test_util.h"

using namespace attnviz;

TEST(WordMerge, SumOverKeyPiecesMeanOverQueryPieces) {
    // Pieces: [▁play, ing, ▁now] -> words [playing, now].
    const WordSpans w = wordSpans({true, false, true});
    ASSERT_EQ(w, (WordSpans{{0, 2}, {2, 3}}));
    Mat A(3, 3);
    A << 0.5f, 0.25f, 0.25f,  //
        0.1f, 0.6f, 0.3f,     //
        0.2f, 0.2f, 0.6f;
    const Mat M = mergeWords(A, w, w);
    // Row "playing": mean of rows 0 and 1 after summing key columns 0+1 and 2:
    // row 0 -> [0.75, 0.25], row 1 -> [0.7, 0.3]; mean [0.725, 0.275]. Row "now": [0.4, 0.6].
    EXPECT_NEAR(M(0, 0), 0.725f, 1e-6);
    EXPECT_NEAR(M(0, 1), 0.275f, 1e-6);
    EXPECT_NEAR(M(1, 0), 0.4f, 1e-6);
    EXPECT_NEAR(M(1, 1), 0.6f, 1e-6);
    for (Eigen::Index i = 0; i < M.rows(); ++i) EXPECT_NEAR(M.row(i).sum(), 1.0f, 1e-6);
    EXPECT_EQ(mergeLabels({"play", "ing", "now"}, w), (std::vector<std::string>{"playing", "now"}));
    // A lone word-start piece adds nothing to its word; a character split into byte
    // pieces appears once.
    EXPECT_EQ(mergeLabels({"␣", "I", "go"}, wordSpans({true, false, true})),
              (std::vector<std::string>{"I", "go"}));
    EXPECT_EQ(mergeLabels({"我¹", "我²", "我³"}, wordSpans({true, false, false})),
              (std::vector<std::string>{"我"}));
}

TEST(WordMerge, UnknownWordsAreMarkedAndCounted) {
    Model m = test::makeModel(test::readConfig("dot"), 1);
    const Analysis a = m.analyze("the quick zyxwv fox");
    ASSERT_EQ(a.sourceLabels.size(), a.sourceTokens.size());
    int marked = 0;
    for (const auto& l : a.sourceLabels) marked += l.find("\u2047") != std::string::npos;
    EXPECT_EQ(marked, a.unknownSource);
    EXPECT_GE(a.unknownSource, 1);  // "zyxwv" is in no vocabulary
    EXPECT_EQ(a.sourceLabels.back(), "<eos>");
    EXPECT_EQ(a.unknownTarget, 0);  // decoded: the model's own tokens
}
