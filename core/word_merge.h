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

// [first, last) token ranges of the words: a word starts at each token that starts a word
// (and at token 0).
using WordSpans = std::vector<std::pair<int, int>>;
WordSpans wordSpans(const std::vector<bool>& wordStart);

// A [Nq, Nk] over pieces -> [words(q), words(k)]: mean over query pieces, sum over key
// pieces.
Mat mergeWords(const Mat& A, const WordSpans& queries, const WordSpans& keys);

// The labels of the words: their pieces' labels joined.
std::vector<std::string> mergeLabels(const std::vector<std::string>& labels, const WordSpans& w);

}  // namespace attnviz
