// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Corpus BLEU and alignment error rate.
#include <string>
#include <utility>
#include <vector>

namespace attnviz {

using Tokens = std::vector<std::string>;

struct Bleu {
    double score = 0;                     // in [0, 1]
    double precisions[4] = {0, 0, 0, 0};  // modified n-gram precisions
    double brevityPenalty = 0;
    long hypLength = 0, refLength = 0;
};

// Corpus BLEU (Papineni et al., 2002) with one reference per hypothesis: clipped n-gram
// counts for n = 1..4 summed over the corpus, geometric mean with equal weights, brevity
// penalty exp(1 - r/c) when c < r. Matches NLTK's corpus_bleu without smoothing: 0 when no
// unigram matches (or the hypotheses are empty); an order with no match contributes the
// smallest positive double instead of log(0); and, as NLTK, a sentence with no n-grams of
// an order (shorter than n) adds 1 to that order's denominator.
Bleu corpusBleu(const std::vector<Tokens>& hypotheses, const std::vector<Tokens>& references);

using Links = std::vector<std::pair<int, int>>;  // (target index, source index)

// Alignment error rate (Och & Ney, 2003) with sure = possible = gold:
// AER = 1 - 2|A ∩ G| / (|A| + |G|), summed over the corpus. 0 when both are empty.
double alignmentErrorRate(const std::vector<Links>& predicted, const std::vector<Links>& gold);

}  // namespace attnviz
