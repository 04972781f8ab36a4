// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// User data for training and evaluation: a TSV of sentence pairs (source, tab, target) for
// seq2seq models or a text file of sentences (one per line) for language models.
#include <string>
#include <vector>

#include "input_limits.h"
#include "tasks.h"
#include "tokenizer.h"

namespace attnviz {

// A line that was not used, and why.
struct DataIssue {
    int line = 0;  // 1-based
    std::string message;
};

struct LoadedData {
    std::vector<Example> examples;
    std::vector<DataIssue> skipped;  // the first kMaxListedIssues skipped lines
    int skippedLines = 0;            // all of them
    int lines = 0;                   // non-empty lines read
    static constexpr size_t kMaxListedIssues = 100;
};

// Reads `path`. seq2seq: every non-empty line must be "source<TAB>target" with both sides
// non-empty; otherwise every non-empty line is one sentence. Lines that are not valid UTF-8,
// have the wrong number of fields, tokenize to nothing, or exceed maxTokens tokens on a side
// are skipped and listed in `skipped` with their line numbers. Blank lines are ignored.
// Error when the file cannot be read, no line is usable, or its examples would take more
// than `maxMemory` bytes (strings and their vectors counted: tiny tokens cost ~40 bytes
// each, so a file within the size limit could otherwise take 20 times its size).
LoadedData loadData(const std::string& path, bool seq2seq, const Tokenizer& tok, int maxTokens,
                    uint64_t maxMemory = kMaxDataMemoryBytes);

// The raw sentences of a data file (both sides of each TSV line for seq2seq), for training
// a subword tokenizer. Lines without exactly one tab (seq2seq) are left out. The same
// memory bound as loadData.
std::vector<std::string> dataSentences(const std::string& path, bool seq2seq,
                                       uint64_t maxMemory = kMaxDataMemoryBytes);

// A vocabulary from token counts: specials first, then tokens by descending count, ties in
// byte order, at most maxSize entries in all (specials included). Tokens beyond the cap
// become <unk>.
Vocab buildVocab(const std::vector<std::vector<std::string>>& sentences, int maxSize);

// Splits off every k-th example (k = round(1/fraction)) as held-out data, in file order.
void splitHeldOut(std::vector<Example>& train, std::vector<Example>& heldOut, double fraction);

// A message listing up to `limit` skipped lines ("line 4: no tab ..."), for people.
std::string describeSkipped(const LoadedData& d, size_t limit = 10);

}  // namespace attnviz
