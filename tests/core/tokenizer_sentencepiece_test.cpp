// SPDX-License-Identifier: GPL-3.0-or-later
// The "sentencepiece" tokenizer kind: trained in-process, byte fallback, the checkpoint
// round trip, display labels and hostile model bytes. Parity with Python's sentencepiece:
// tests/reference/sentencepiece_parity.py.
#include <gtest/gtest.h>

#include "core/base64.h"
#include "core/error.h"
#include "core/tokenizer.h"
#include "core/word_merge.h"
#include "test_util.h"

using namespace attnviz;

namespace {

const Tokenizer& trained() {
    static const Tokenizer t = [] {
        std::vector<std::string> s;
        const char* words[] = {"the",      "station", "train",  "want", "go",    "la",
                               "estación", "tren",    "quiero", "ir",   "world", "mundo"};
        for (int i = 0; i < 400; ++i) {
            std::string line;
            for (int k = 0; k < 6; ++k) line += std::string(words[(i * 7 + k * 3) % 12]) + " ";
            s.push_back(line);
        }
        return Tokenizer::trainSentencePiece(s, 320);
    }();
    return t;
}

}  // namespace

TEST(Base64, RoundTripAndErrors) {
    for (std::string s : {"", "f", "fo", "foo", "foob", "fooba", "foobar"})
        EXPECT_EQ(base64Decode(base64Encode(s)), s);
    EXPECT_EQ(base64Encode("foobar"), "Zm9vYmFy");
    EXPECT_EQ(base64Encode("fo"), "Zm8=");
    EXPECT_NE(test::errorOf([] { base64Decode("Zm9"); }).find("multiple of 4"), std::string::npos);
    EXPECT_NE(test::errorOf([] { base64Decode("Zm$v"); }).find("invalid character"),
              std::string::npos);
}

TEST(SentencePiece, SpecialsFirstByteFallbackNeverUnknown) {
    const Tokenizer& t = trained();
    ASSERT_EQ(t.kind(), Tokenizer::Kind::SentencePiece);
    const Vocab v(t.pieces());
    EXPECT_EQ(v.token(0), "<pad>");
    EXPECT_EQ(v.token(3), "<eos>");
    for (const char* text : {"我想去火车站", "😀 Zürich 42", "the station"}) {
        const auto ids = v.ids(t.tokenize(text));
        EXPECT_FALSE(ids.empty());
        for (int id : ids) EXPECT_NE(id, Vocab::kUnk) << text;
    }
}

TEST(SentencePiece, TravelsInTheCheckpointJson) {
    const Tokenizer& t = trained();
    const Tokenizer back = Tokenizer::fromJson(t.toJson());
    EXPECT_EQ(back.tokenize("the estación 😀"), t.tokenize("the estación 😀"));
    EXPECT_EQ(back.pieces(), t.pieces());
}

TEST(SentencePiece, LabelsForPeople) {
    const Tokenizer& t = trained();
    // "我" is not in the model: byte fallback gives three byte pieces, shown as the
    // character with its part.
    const auto tokens = t.tokenize("我");
    const auto labels = t.display(tokens);
    ASSERT_EQ(tokens.size(), labels.size());
    std::vector<std::string> bytes(labels.end() - 3, labels.end());
    EXPECT_EQ(bytes, (std::vector<std::string>{"我¹", "我²", "我³"}));
    // The word-start mark is dropped.
    for (const auto& l : t.display(t.tokenize("the station")))
        EXPECT_EQ(l.find("\xE2\x96\x81"), std::string::npos) << l;
    EXPECT_TRUE(t.startsWord(t.tokenize("the")[0]));
    EXPECT_EQ(t.detokenize(t.tokenize("the station")), "the station");
}

TEST(SentencePiece, HostileModelsAreRefused) {
    EXPECT_NE(test::errorOf([] {
                  Tokenizer::sentencePiece("not a model");
              }).find("SentencePiece model: "),
              std::string::npos);
    EXPECT_NE(test::errorOf([] {
                  Tokenizer::fromJson({{"kind", "sentencepiece"}, {"model", "@@@@"}});
              }).find("base64"),
              std::string::npos);
    EXPECT_NE(test::errorOf([] {
                  Tokenizer::fromJson({{"kind", 7}});
              }).find("'kind' must be"),
              std::string::npos);
    EXPECT_NE(
        test::errorOf([] { Tokenizer::trainSentencePiece({"a b"}, 10); }).find("300 to 262144"),
        std::string::npos);
}

// The query a person names (render --query-token): a piece, an index, or a word, also where
// SentencePiece splits it and marks its start (issue 29: "to" used to need "▁to").
TEST(FindQuery, TokensIndicesAndWordsOfPieces) {
    const Tokenizer& sp = trained();
    const std::vector<std::string> pieces{"\u2581I",  "\u2581want", "\u2581to", "\u2581go",
                                          "\u2581to", "\u2581the",  "\u2581st", "ation"};
    EXPECT_EQ(findQuery(pieces, "to", &sp), 2);  // the word, first occurrence
    EXPECT_EQ(findQuery(pieces, "\u2581to", &sp), 2);
    EXPECT_EQ(findQuery(pieces, "Station", &sp), 6);  // two pieces: the first, without case
    EXPECT_EQ(findQuery(pieces, "ation", &sp), 7);    // a piece inside a word
    EXPECT_EQ(findQuery(pieces, "#4", &sp), 4);
    EXPECT_EQ(findQuery(pieces, "#0", &sp), 0);
    for (const char* none : {"#x", "#8", "#", "#-1", "#99999999999", "stat", "", "to go"})
        EXPECT_EQ(findQuery(pieces, none, &sp), -1) << none;
    EXPECT_EQ(findQuery(pieces, "to", nullptr), -1);  // no tokenizer: no words
    const Tokenizer words(true);                      // the word tokenizer: every token a word
    EXPECT_EQ(findQuery(words.tokenize("Ça VA très bien"), "TRÈS", &words), 2);
    EXPECT_EQ(lowerCase("ÀÉÎ Straße ΣΑ"), "àéî straße σα");
}

// Text without spaces (Chinese, Japanese): a word is a character or the tokenizer's piece
// (issue 29). A character that byte fallback split is found at its first byte piece, not at
// the "▁" before it; several characters over several pieces, or one inside a longer piece,
// are found too; the message of a miss lists the words as they read.
TEST(FindQuery, ChineseAndJapaneseByCharacterOrPiece) {
    const Tokenizer& sp = trained();
    const auto bytes = sp.tokenize("我想去车站。");  // ▁ then three byte pieces a character
    ASSERT_EQ(bytes.size(), 19u);
    EXPECT_EQ(bytes[0], "\u2581");
    EXPECT_EQ(findQuery(bytes, "我", &sp), 1);
    EXPECT_EQ(findQuery(bytes, "车", &sp), 10);
    EXPECT_EQ(findQuery(bytes, "。", &sp), 16);
    EXPECT_EQ(findQuery(bytes, "车站", &sp), 10);  // two characters: the first's first piece
    EXPECT_EQ(findQuery(bytes, "我想去车站。", &sp), 1);
    for (const char* none : {"站车", "火", "车站了", "车 站"})
        EXPECT_EQ(findQuery(bytes, none, &sp), -1) << none;
    EXPECT_EQ(queryWords(bytes, &sp),
              (std::vector<std::string>{"我", "想", "去", "车", "站", "。"}));
    // Pieces of several characters (a vocabulary that has them): the piece is the word; a
    // character inside it finds it, as do consecutive pieces.
    const std::vector<std::string> pieces{"\u2581我", "想去", "车站", "。", "\u2581ok"};
    EXPECT_EQ(findQuery(pieces, "我", &sp), 0);
    EXPECT_EQ(findQuery(pieces, "想去", &sp), 1);
    EXPECT_EQ(findQuery(pieces, "去", &sp), 1);       // inside "想去"
    EXPECT_EQ(findQuery(pieces, "去车站", &sp), -1);  // starts inside a piece
    EXPECT_EQ(findQuery(pieces, "想去车站", &sp), 1);
    EXPECT_EQ(findQuery(pieces, "站", &sp), 2);
    EXPECT_EQ(findQuery(pieces, "OK", &sp), 4);
    EXPECT_EQ(findQuery(pieces, "k", &sp), -1);  // not CJK: whole tokens and words only
    // Japanese: kana and kanji alike.
    const auto ja = sp.tokenize("駅に行きたい");
    EXPECT_EQ(findQuery(ja, "行き", &sp), 7);
    EXPECT_EQ(findQuery(ja, "に", &sp), 4);
    // Latin text is unchanged: words, not runs of them.
    EXPECT_EQ(queryWords(sp.tokenize("the station"), &sp),
              (std::vector<std::string>{"the", "station"}));
    EXPECT_EQ(lowerCase("\xff"), "\xff");  // invalid UTF-8 unchanged
}
