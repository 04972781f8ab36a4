// SPDX-License-Identifier: GPL-3.0-or-later
// Word-level AER of cross-attention against sure/possible references (Och & Ney 2003), by
// hand; pieces mapped to the reference's words; the corpus's .align format and its errors.
#include "core/word_alignment.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>

#include "test_util.h"

using namespace attnviz;

TEST(WordAlignment, ParsesSureAndPossibleLinksAsTargetSource) {
    const ReferenceAlignment r = parseAlignmentLine("0-2 3?1  4-0");
    EXPECT_EQ(r.sure, (Links{{2, 0}, {0, 4}}));
    EXPECT_EQ(r.possible, (Links{{1, 3}}));
    EXPECT_TRUE(parseAlignmentLine("").sure.empty());
    for (const char* bad : {"0=2", "a-1", "1-", "-1", "1-2-3", "99999999-1"})
        EXPECT_NE(test::errorOf([&] { parseAlignmentLine(bad); }).find("is not INDEX-INDEX"),
                  std::string::npos)
            << bad;
}

TEST(WordAlignment, AerWithSureAndPossibleByHand) {
    // Sentence 1: S = {(0,0)}, P-only = {(1,1)}; A = {(0,0), (1,1), (2,0)}:
    //   |A∩S| = 1, |A∩P| = 2 (P includes S). Sentence 2: S = {(0,1)}, A = {(0,0)}: 0, 0.
    // Summed: AER = 1 - (1 + 2) / (4 + 2) = 0.5.
    const std::vector<Links> a{{{0, 0}, {1, 1}, {2, 0}}, {{0, 0}}};
    const std::vector<Links> s{{{0, 0}}, {{0, 1}}};
    const std::vector<Links> p{{{1, 1}}, {}};
    EXPECT_DOUBLE_EQ(alignmentErrorRate(a, s, p), 0.5);
    // Perfect on sure links only: 0. Without possible links it is the 2|A∩G|/(|A|+|G|) form.
    EXPECT_DOUBLE_EQ(alignmentErrorRate(s, s, {{}, {}}), 0.0);
    EXPECT_DOUBLE_EQ(alignmentErrorRate(a, s, {{}, {}}),
                     alignmentErrorRate(a, std::vector<Links>(s)));
    // Only possible links matched: 1 - 1/(1+1) = 0.5 for one predicted possible link.
    EXPECT_DOUBLE_EQ(alignmentErrorRate({{{1, 1}}}, {{{0, 0}}}, {{{1, 1}}}), 0.5);
}

TEST(WordAlignment, SureOnlyAerAndSureRecallByHand) {
    // The corpus above: |A| = 4, |S| = 2, |A∩S| = 1, |A∩P| = 2.
    //   AER 1 - 3/6 = 0.5; sure-only AER 1 - 2·1/6 = 2/3; sure recall 1/2.
    const std::vector<Links> a{{{0, 0}, {1, 1}, {2, 0}}, {{0, 0}}};
    const std::vector<Links> s{{{0, 0}}, {{0, 1}}};
    const std::vector<Links> p{{{1, 1}}, {}};
    const AlignmentScores r = alignmentScores(a, s, p);
    EXPECT_DOUBLE_EQ(r.aer, 0.5);
    EXPECT_DOUBLE_EQ(r.sureAer, 2.0 / 3.0);
    EXPECT_DOUBLE_EQ(r.sureRecall, 0.5);
    // Every sure link found and nothing else predicted: 0 and 1 whatever P is.
    const AlignmentScores perfect = alignmentScores(s, s, p);
    EXPECT_DOUBLE_EQ(perfect.sureAer, 0.0);
    EXPECT_DOUBLE_EQ(perfect.sureRecall, 1.0);
    // A link only in P helps AER but not the sure scores: A = {(1,1)}, S = {(0,0)}:
    //   AER 1 - 1/2, sure-only AER 1 - 0 = 1, recall 0.
    const AlignmentScores onlyP = alignmentScores({{{1, 1}}}, {{{0, 0}}}, {{{1, 1}}});
    EXPECT_DOUBLE_EQ(onlyP.aer, 0.5);
    EXPECT_DOUBLE_EQ(onlyP.sureAer, 1.0);
    EXPECT_DOUBLE_EQ(onlyP.sureRecall, 0.0);
    // No sure links at all: recall is 0, not a division by zero.
    EXPECT_DOUBLE_EQ(alignmentScores({{{0, 0}}}, {{}}, {{{0, 0}}}).sureRecall, 0.0);
}

TEST(WordAlignment, PiecesMapToTheWordTheyBeginIn) {
    const std::string u = "\xE2\x96\x81";  // ▁
    // "God's word." -> words God ' s word . (the word tokenizer's rule for the corpus)
    const std::vector<std::string> words{"God", "'", "s", "word", "."};
    EXPECT_EQ(pieceWords("God's word.", {u + "Go", "d", "'", "s", u + "wor", "d", "."}, words),
              (std::vector<int>{0, 0, 1, 2, 3, 3, 4}));
    // A lone "▁" belongs to the next word; byte-fallback pieces spell their bytes.
    EXPECT_EQ(pieceWords("a é", {u + "a", u, "<0xC3>", "<0xA9>"}, {"a", "é"}),
              (std::vector<int>{0, 1, 1, 1}));
    // Pieces that do not spell the text (normalised): no mapping.
    EXPECT_TRUE(pieceWords("ﬁne", {u + "fine"}, {"ﬁne"}).empty());
}

TEST(WordAlignment, FilesMustMatchLineByLine) {
    const std::string tsv = test::tempPath("wa.tsv"), al = test::tempPath("wa.align");
    std::ofstream(tsv) << "a b\tc d\ne f\tg\n";
    std::ofstream(al) << "0-0 1?1\n";
    EXPECT_NE(test::errorOf([&] { loadWordAlignedPairs(tsv, al); }).find("they must match"),
              std::string::npos);
    std::ofstream(al) << "0-0 1?1\n\n";
    const auto pairs = loadWordAlignedPairs(tsv, al);
    ASSERT_EQ(pairs.size(), 2u);
    EXPECT_EQ(pairs[0].target, "c d");
    EXPECT_EQ(pairs[0].reference.sure, (Links{{0, 0}}));
    std::ofstream(al) << "0-0\nx\n";
    EXPECT_NE(test::errorOf([&] { loadWordAlignedPairs(tsv, al); }).find("line 2"),
              std::string::npos);
}

TEST(WordAlignment, AWordModelAlignsItsTokensAndEveryLinkIsScored) {
    // A toy word-level model: words are its tokens. Every reference target word gets exactly
    // one predicted link per head, so AER is finite and in [0, 1]; a pair without a reference
    // is skipped.
    Model m = test::makeModel(test::readConfig("dot"), 3);
    std::vector<WordAlignedPair> pairs(2);
    pairs[0] = {"the dog sees the cat", "de hundo vidas la kato",
                parseAlignmentLine("1-1 4-4 2?2")};
    pairs[1] = {"the dog", "la hundo", parseAlignmentLine("")};
    const WordAlignmentResult r = wordAlignmentErrors(m, pairs);
    EXPECT_EQ(r.scored, 1);
    EXPECT_EQ(r.skipped, 1);
    const int layers = m.config().decLayers, heads = m.config().heads;
    EXPECT_EQ(r.heads.size(), size_t(layers * (heads + 1)));
    for (const auto& h : r.heads) {
        EXPECT_GE(h.aer, 0.0);
        EXPECT_LE(h.aer, 1.0);
        // 3 predicted links (targets 1, 4, 2), |S| = 2: AER = 1 - (aS + aP) / 5, a multiple of 0.2.
        EXPECT_NEAR(h.aer * 5, std::round(h.aer * 5), 1e-9);
        ASSERT_TRUE(h.sureAer && h.sureRecall);
        // Sure-only AER 1 - 2·aS/5 and recall aS/2, with the same aS.
        EXPECT_NEAR(*h.sureAer, 1.0 - 2.0 * *h.sureRecall * 2 / 5, 1e-12);
        EXPECT_NEAR(*h.sureRecall * 2, std::round(*h.sureRecall * 2), 1e-9);
    }
}
