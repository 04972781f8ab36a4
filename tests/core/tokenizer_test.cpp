// SPDX-License-Identifier: GPL-3.0-or-later
#include "core/tokenizer.h"

#include <gtest/gtest.h>

#include "core/utf8.h"
#include "test_util.h"

using namespace attnviz;
using Tokens = std::vector<std::string>;

TEST(Tokenizer, SplitsWordsAndPunctuationAndLowercases) {
    EXPECT_EQ(Tokenizer(true).tokenize("I want to go to the station."),
              (Tokens{"i", "want", "to", "go", "to", "the", "station", "."}));
    EXPECT_EQ(Tokenizer(false).tokenize("Don't stop!"), (Tokens{"Don", "'", "t", "stop", "!"}));
    EXPECT_EQ(Tokenizer(true).tokenize("  \t\n "), Tokens{});
    EXPECT_EQ(Tokenizer(true).tokenize("a1b2 3.5"), (Tokens{"a1b2", "3", ".", "5"}));
}

TEST(Tokenizer, EveryCjkCharacterIsAToken) {
    EXPECT_EQ(Tokenizer(true).tokenize("我想去車站。OK"),
              (Tokens{"我", "想", "去", "車", "站", "。", "ok"}));
    EXPECT_EQ(Tokenizer(true).tokenize("ひらがなカタ"),
              (Tokens{"ひ", "ら", "が", "な", "カ", "タ"}));
    EXPECT_EQ(Tokenizer(true).tokenize("Straße ÉCOLE Москва ΑΒΓ"),
              (Tokens{"straße", "école", "москва", "αβγ"}));
}

// Emoji sequences are one token each (docs/tokenizer.md, rule 5): skin tones, variation
// selectors, joined families, keycaps and flags; two flags in a row are two tokens.
TEST(Tokenizer, AnEmojiSequenceIsOneToken) {
    const Tokenizer t(true);
    EXPECT_EQ(t.tokenize("ok 👍🏽!"), (Tokens{"ok", "👍🏽", "!"}));
    EXPECT_EQ(t.tokenize("❤️x"), (Tokens{"❤️", "x"}));
    EXPECT_EQ(t.tokenize("👨‍👩‍👧 home"), (Tokens{"👨‍👩‍👧", "home"}));
    EXPECT_EQ(t.tokenize("1️⃣"), (Tokens{"1️⃣"}));
    EXPECT_EQ(t.tokenize("🇪🇸🇬🇧"), (Tokens{"🇪🇸", "🇬🇧"}));
    EXPECT_EQ(t.tokenize("😀😀"), (Tokens{"😀", "😀"}));
    // A modifier with nothing to modify stays where the old rules put it.
    EXPECT_EQ(t.tokenize("a\u200Db"), (Tokens{"a\u200Db"}));
}

TEST(Tokenizer, InvalidUtf8IsAnErrorWithTheByteOffset) {
    EXPECT_NE(test::errorOf([] { Tokenizer().tokenize("ab\xff"); }).find("byte offset 2"),
              std::string::npos);
    EXPECT_NE(test::errorOf([] { Tokenizer().tokenize("abc\xe6\x88"); }).find("byte offset 3"),
              std::string::npos);
    EXPECT_NE(test::errorOf([] { decodeUtf8("\xc0\xaf"); }).find("overlong"), std::string::npos);
    EXPECT_NE(test::errorOf([] { decodeUtf8("x\xed\xa0\x80"); }).find("surrogate"),
              std::string::npos);
    EXPECT_NE(test::errorOf([] { decodeUtf8("\x80"); }).find("unexpected continuation"),
              std::string::npos);
    EXPECT_EQ(encodeUtf8(decodeUtf8("é我😀")), "é我😀");
}

TEST(Tokenizer, HugeTextIsRefused) {
    const std::string big(Tokenizer::kMaxTextBytes + 1, 'a');
    EXPECT_NE(test::errorOf([&] { Tokenizer().tokenize(big); }).find("too long"),
              std::string::npos);
}

TEST(Vocab, UnknownWordsMapToUnkAndSpecialsComeFirst) {
    const Vocab v = Vocab::fromWords({"to", "go", "to"});
    EXPECT_EQ(v.size(), 6);
    EXPECT_EQ(v.ids({"go", "to", "station"}), (std::vector<int>{5, 4, Vocab::kUnk}));
    EXPECT_NE(test::errorOf([] {
                  Vocab({"<pad>", "<unk>", "<eos>", "<bos>"});
              }).find("expected '<bos>'"),
              std::string::npos);
    EXPECT_NE(test::errorOf([] {
                  Vocab({"<pad>", "<unk>", "<bos>", "<eos>", "a", "a"});
              }).find("twice"),
              std::string::npos);
    EXPECT_NE(test::errorOf([] {
                  Tokenizer::fromJson({{"kind", "bpe"}});
              }).find("bpe"),
              std::string::npos);
}
