// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Alignment error rate of cross-attention heads against a word-level reference with sure
// and possible links (the Strong's-number alignments of the English -> Spanish corpus,
// docs/corpus.md), for models whose tokens are not those words (subword pieces).
//
// For each sentence pair: the model's pieces are mapped to the reference's word tokens (the
// word tokenizer's tokens with lowercase off), teacher-forced cross-attention is merged to
// words (core/word_merge.h: mean over the target word's query rows, sum over the source
// word's key pieces), and each target word that has a reference link is aligned to its
// highest-weighted source word. Target words without any reference link are not scored:
// the reference says nothing about them (docs/analysis of the corpus, "AER on real data").
#include <string>
#include <vector>

#include "evaluate.h"
#include "metrics.h"
#include "model.h"

namespace attnviz {

struct ReferenceAlignment {
    Links sure;      // (target word, source word); sure ⊆ possible is implied
    Links possible;  // possible links that are not sure
};

// One line of a .align file: space-separated "s-t" (sure) and "s?t" (possible) links,
// s the source (English) word index, t the target (Spanish) word index, 0-based. An empty
// line is a pair without a reference. Error naming the bad item otherwise.
ReferenceAlignment parseAlignmentLine(const std::string& line);

struct WordAlignedPair {
    std::string source, target;
    ReferenceAlignment reference;
};

// A TSV of pairs and its .align file, line by line (same line count, or Error). Pairs with an
// empty reference are kept (they are skipped when scoring).
std::vector<WordAlignedPair> loadWordAlignedPairs(const std::string& tsv, const std::string& align);

// Index of the word (of `words`, the word tokenizer's tokens of `text`) that each of
// `pieces` (SentencePiece pieces of `text`) begins in, or an empty vector when the pieces do
// not spell the text (normalisation changed it). Pieces that are only "▁" belong to the
// next word.
std::vector<int> pieceWords(const std::string& text, const std::vector<std::string>& pieces,
                            const std::vector<std::string>& words);

// Och & Ney (2003) with sure S ⊆ possible P (P given as the possible-only links):
// AER = 1 - (|A ∩ S| + |A ∩ P|) / (|A| + |S|), summed over the corpus.
double alignmentErrorRate(const std::vector<Links>& predicted, const std::vector<Links>& sure,
                          const std::vector<Links>& possibleOnly);

// The same counts, also scored against the sure links alone: `aer` as above, `sureAer` =
// 1 - 2|A ∩ S| / (|A| + |S|) (P taken to be S) and `sureRecall` = |A ∩ S| / |S| (0 without
// sure links), all summed over the corpus. docs/corpus.md recommends reporting them beside
// AER: a predicted link to an untagged word is never in P, so AER mixes precision against an
// incomplete P with recall.
struct AlignmentScores {
    double aer = 0, sureAer = 0, sureRecall = 0;
};
AlignmentScores alignmentScores(const std::vector<Links>& predicted, const std::vector<Links>& sure,
                                const std::vector<Links>& possibleOnly);

struct WordAlignmentResult {
    std::vector<HeadAer> heads;  // every cross-attention head, and each layer's mean (head -1),
                                 // with sureAer and sureRecall
    int scored = 0;              // pairs scored
    int skipped = 0;             // pairs without a reference, too long, or not mappable
};

// Teacher-forced cross-attention of `model` (seq2seq) on `pairs`, scored as above.
WordAlignmentResult wordAlignmentErrors(Model& model, const std::vector<WordAlignedPair>& pairs,
                                        int batchSize = 32);

}  // namespace attnviz
