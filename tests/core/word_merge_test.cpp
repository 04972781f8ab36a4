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

namespace {

// The words of hand-made pieces (display labels, "▁" removed) with their word starts.
std::vector<std::string> words(const std::vector<std::string>& labels,
                               const std::vector<bool>& starts, unsigned* rules = nullptr) {
    const WordSplit s = splitWords(starts, labels);
    if (rules) *rules = s.rules;
    return mergeLabels(labels, s.spans);
}

using Strings = std::vector<std::string>;

}  // namespace

TEST(WordMerge, SentencePieceWordStartsMakeTheWords) {
    // ▁commit te e ▁to ▁go: the tokenizer's boundaries alone.
    unsigned rules = 0;
    EXPECT_EQ(words({"commit", "te", "e", "to", "go"}, {true, false, false, true, true}, &rules),
              (Strings{"committee", "to", "go"}));
    EXPECT_EQ(rules, unsigned(kWordBoundaries));
    // One piece: nothing to split, no rule applied.
    EXPECT_EQ(words({"go"}, {true}, &rules), (Strings{"go"}));
    EXPECT_EQ(rules, 0u);
}

TEST(WordMerge, ChineseWithoutSpacesIsOneWordPerCharacterNotOneForTheSentence) {
    // "我们去学校" from a tokenizer that marks only the first piece: ▁我 们 去 学 校.
    unsigned rules = 0;
    EXPECT_EQ(words({"我", "们", "去", "学", "校"}, {true, false, false, false, false}, &rules),
              (Strings{"我", "们", "去", "学", "校"}));
    EXPECT_EQ(rules, unsigned(kCjkCharacters));
    // Punctuation is its own word; a piece of two characters stays one (spans are pieces).
    EXPECT_EQ(words({"学校", "。"}, {true, false}), (Strings{"学校", "。"}));
    // Byte pieces of one character stay together: 我¹ 我² 我³ 们.
    EXPECT_EQ(words({"我¹", "我²", "我³", "们"}, {true, false, false, false}),
              (Strings{"我", "们"}));
}

TEST(WordMerge, JapaneseAndKoreanCharactersAreWordsToo) {
    // ▁わたし は ▁カタ カナ (Hiragana, Katakana) and ▁한국 어 (Hangul).
    EXPECT_EQ(words({"わ", "た", "し", "は"}, {true, false, false, false}),
              (Strings{"わ", "た", "し", "は"}));
    EXPECT_EQ(words({"カタ", "カナ"}, {true, false}), (Strings{"カタ", "カナ"}));
    EXPECT_EQ(words({"한국", "어"}, {true, false}), (Strings{"한국", "어"}));
    EXPECT_TRUE(isCjk(U'我') && isCjk(U'は') && isCjk(U'カ') && isCjk(U'한') && isCjk(U'。') &&
                isCjk(U'，') && isCjk(U'𠀀'));
    EXPECT_FALSE(isCjk(U'a') || isCjk(U'é') || isCjk(U'▁') || isCjk(U'Ж') || isCjk(U'¹'));
}

TEST(WordMerge, MixedChineseAndEnglishUseBothRules) {
    // "我 love 你们" as SentencePiece pieces: ▁我 ▁lo ve ▁你 们.
    unsigned rules = 0;
    EXPECT_EQ(words({"我", "lo", "ve", "你", "们"}, {true, true, false, true, false}, &rules),
              (Strings{"我", "love", "你", "们"}));
    EXPECT_EQ(rules, unsigned(kWordBoundaries | kCjkCharacters));
    // As the bundled en-es tokenizer gives it: a lone "▁" (shown ␣) before each character
    // that byte fallback split; the mark belongs to the character's word.
    EXPECT_EQ(
        words({"␣", "我¹", "我²", "我³", "love", "␣", "你¹", "你²", "你³", "们¹", "们²", "们³"},
              {true, false, false, false, true, true, false, false, false, false, false, false}),
        (Strings{"我", "love", "你", "们"}));
    // Without spaces, "我love你们": ▁我 lo ve 你 们: the English word after a character and
    // the character after it split there, the English pieces stay one word.
    EXPECT_EQ(words({"我", "lo", "ve", "你", "们"}, {true, false, false, false, false}, &rules),
              (Strings{"我", "love", "你", "们"}));
    EXPECT_EQ(rules, unsigned(kCjkCharacters));
    // A word tokenizer (every token starts a word) is unchanged by the CJK rule.
    EXPECT_EQ(words({"我们", "love", "你们"}, {true, true, true}),
              (Strings{"我们", "love", "你们"}));
}

TEST(WordMerge, SpansStillCoverTheMatrixAndRowsStillSumToOne) {
    const WordSplit s =
        splitWords({true, true, false, true, false}, {"我", "lo", "ve", "你", "们"});
    ASSERT_EQ(s.spans, (WordSpans{{0, 1}, {1, 3}, {3, 4}, {4, 5}}));
    Mat A = Mat::Constant(5, 5, 0.2f);
    const Mat M = mergeWords(A, s.spans, s.spans);
    ASSERT_EQ(M.rows(), 4);
    for (Eigen::Index i = 0; i < M.rows(); ++i) EXPECT_NEAR(M.row(i).sum(), 1.0f, 1e-6);
    EXPECT_NEAR(M(0, 1), 0.4f, 1e-6);  // "love" as a key: the sum of its two pieces
}
