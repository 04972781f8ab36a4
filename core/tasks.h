// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Built-in tasks: seeded, streaming generators of training pairs with gold word alignments.
//   copy, reverse, sort   symbol sequences (sort is content-based: alphabetical order)
//   translate             English into a generated toy language with its own vocabulary and
//                         word order (docs/training.md, "Tasks")
//   lm                    causal language modelling on the English of `translate`
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "rng.h"

namespace attnviz {

// One pair as tokens. align holds the gold links (target index, source index); empty for lm.
// An image example (arch "vit") has no tokens: its pixels (image_size², 0 … 255, row-major)
// and its class label.
struct Example {
    std::vector<std::string> src, tgt;  // src empty for a language-model example
    std::vector<std::pair<int, int>> align;
    std::vector<uint8_t> pixels{};  // images only (braces: Example{src, tgt, align} stays complete)
    int label = -1;                 // images only
};

class Task {
public:
    virtual ~Task() = default;
    virtual std::string name() const = 0;
    virtual std::string description() const = 0;
    // false: a decoder-only (language model) task whose text is Example::tgt.
    virtual bool seq2seq() const { return true; }
    // Every word the task can emit (no specials): the model's vocabularies.
    virtual std::vector<std::string> sourceWords() const = 0;
    virtual std::vector<std::string> targetWords() const = 0;
    virtual Example sample(Rng& rng) const = 0;
    // Longest source and target the task can emit, in tokens.
    virtual int maxTokens() const = 0;
};

const std::vector<std::string>& taskNames();
// Error listing the known tasks when `name` is unknown.
std::unique_ptr<Task> makeTask(const std::string& name);

// The toy translation task on its own (for tests and docs).
std::unique_ptr<Task> makeTranslateTask(bool languageModel);

}  // namespace attnviz
