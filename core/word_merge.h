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

// A [Nq, Nk] over pieces -> [words(q), words(k)]: mean over query pieces, sum over key
// pieces.
Mat mergeWords(const Mat& A, const WordSpans& queries, const WordSpans& keys);

// The labels of the words: their pieces' labels joined.
std::vector<std::string> mergeLabels(const std::vector<std::string>& labels, const WordSpans& w);

// The token a person names by `query` (what render --query-token takes): "#index", a token
// (first occurrence), or a word of the text, which gives its first piece (with SentencePiece
// "to" finds "▁to" and "station" the "▁st" of "▁st ation"); letters compared without case
// (lowerCase). `tokenizer` (null: no words, e.g. a probe's tokens) says where words start.
// -1 when nothing matches or the index is outside the tokens.
int findQuery(const std::vector<std::string>& tokens, const std::string& query,
              const Tokenizer* tokenizer);

}  // namespace attnviz
