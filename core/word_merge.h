// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Attention between words from attention between subword pieces, the convention of Clark
// et al. (2019, "What does BERT look at?"): a word's weight as a key is the sum over its
// pieces (so rows still sum to what they summed to), as a query the mean over its pieces.
#include <string>
#include <utility>
#include <vector>

#include "tensor.h"

namespace attnviz {

class Tokenizer;

// [first, last) token ranges of the words: a word starts at each token that starts a word
// (and at token 0).
using WordSpans = std::vector<std::pair<int, int>>;
WordSpans wordSpans(const std::vector<bool>& wordStart);

// Whether a code point is written without spaces between words: Han (CJK ideographs and
// their extensions), Hiragana, Katakana, Hangul, CJK punctuation and full-width forms.
bool isCjk(char32_t c);

// The rules that found the words, to say which where merged words are shown.
enum WordRule : unsigned {
    kWordBoundaries = 1,  // the tokenizer's word starts (SentencePiece "▁", a word tokenizer's
                          // words): a piece after the first started a word by them
    kCjkCharacters = 2,   // a piece with CJK characters is a word of its own
};
struct WordSplit {
    WordSpans spans;
    unsigned rules = 0;  // WordRule flags that split somewhere; 0: one word, or one token
};
// The words of tokens whose display labels are `labels` (Tokenizer::display: "▁" removed,
// byte pieces of one character "我¹", "我²", "我³"): a word starts where the tokenizer says
// (`wordStart`), and also at a piece that begins with a CJK character and after a piece that
// ends with one, so text without spaces ("我们去") is one word per piece, never one word for
// the sentence. A piece holding several characters stays whole (spans are of pieces), and the
// byte pieces of one character stay together. `labels` of another size than `wordStart`:
// only the word starts are used.
WordSplit splitWords(const std::vector<bool>& wordStart, const std::vector<std::string>& labels);

// A [Nq, Nk] over pieces -> [words(q), words(k)]: mean over query pieces, sum over key
// pieces.
Mat mergeWords(const Mat& A, const WordSpans& queries, const WordSpans& keys);

// The labels of the words: their pieces' labels joined.
std::vector<std::string> mergeLabels(const std::vector<std::string>& labels, const WordSpans& w);

// The token a person names by `query` (what render --query-token takes), the first match
// of, in this order:
//   - "#index": that token;
//   - a token, letters compared without case (lowerCase): "▁to", "ation";
//   - a word of the text, which gives its first piece: the words of splitWords (the
//     tokenizer's word starts, and each piece with Chinese, Japanese or Korean characters a
//     word of its own, since that text has no spaces), so with SentencePiece "to" finds "▁to"
//     and "station" the "▁st" of "▁st ation"; a character that byte fallback split into
//     pieces ("我" as "▁ <0xE6> <0x88> <0x91>") is a word, found at its first byte piece;
//   - CJK only (every character of `query` CJK, isCjk): consecutive words that spell it
//     ("车站" over the pieces "车" "站"), then a word that holds it ("车" in the piece "车站");
//     in each case the first piece.
// `tokenizer` (null: no words, e.g. a probe's tokens) says where words start and how pieces
// read (Tokenizer::display). -1 when nothing matches or the index is outside the tokens.
int findQuery(const std::vector<std::string>& tokens, const std::string& query,
              const Tokenizer* tokenizer);

// The words findQuery matches, as they read ("I want to go", "我 想 去"), for a message that
// lists what can be asked; the tokens themselves without a tokenizer.
std::vector<std::string> queryWords(const std::vector<std::string>& tokens,
                                    const Tokenizer* tokenizer);

}  // namespace attnviz
