// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Held-out metrics of a model on examples: loss, token accuracy (teacher-forced), exact
// match and corpus BLEU (greedy decoding), and the alignment error rate of every
// cross-attention head and of each layer's head average against gold alignments.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "metrics.h"
#include "model.h"
#include "tasks.h"

namespace attnviz {

struct HeadAer {
    int layer = 0;
    int head = -1;  // -1: the mean of the layer's heads
    double aer = 0;
    // Against references with sure and possible links (core/word_alignment.h): AER against
    // the sure links alone (P = S) and the share of sure links found, |A ∩ S| / |S|.
    std::optional<double> sureAer, sureRecall;
};

struct Evaluation {
    int sentences = 0;
    int tokens = 0;                    // non-pad target tokens (with <eos>)
    double loss = 0;                   // mean token cross-entropy (no smoothing)
    double tokenAccuracy = 0;          // teacher-forced, <eos> included
    std::optional<double> exactMatch;  // greedy decoding, seq2seq only
    std::optional<Bleu> bleu;          // over words: SentencePiece output is detokenized and split
                                       // by the word tokenizer (case kept) first
    // With decoding: the words BLEU was computed over, one entry per example in order (the
    // greedy output and the reference), for per-sentence statistics such as a bootstrap.
    std::vector<Tokens> hypotheses, references;
    std::vector<HeadAer> aer;  // when the examples have alignments and the model cross-attends
    std::optional<HeadAer> bestAer() const;
    nlohmann::json toJson() const;
};

// An image classifier on labelled images: loss, accuracy, per-class accuracy and the
// confusion matrix.
struct Classification {
    int images = 0;
    double loss = 0;  // mean cross-entropy (no smoothing)
    int correct = 0;
    // [true class][predicted class] counts; the prediction is the first arg-max of the logits.
    std::vector<std::vector<int>> confusion;
    std::vector<int> predicted;  // [images], each image's prediction, in the examples' order
    double accuracy() const { return images ? double(correct) / images : 0.0; }
    // Per class: correct / images of that class (0 for a class without images).
    std::vector<double> classAccuracy() const;
    // {"images", "loss", "accuracy", "classes": [names], "class_accuracy": [...],
    //  "confusion": [[...], ...] (rows: true class, columns: predicted)}
    nlohmann::json toJson(const std::vector<std::string>& classes) const;
};

// Image examples (Example::pixels, Example::label) through an image model.
Classification classifyImages(Model& model, const std::vector<Example>& examples,
                              int batchSize = 64);

struct EvalOptions {
    int batchSize = 64;
    bool decode = true;  // greedy decoding for exact match and BLEU (seq2seq)
};

// Examples [start, end) as a padded batch of ids through the model's vocabularies
// (unknown -> <unk>); sources only for a seq2seq model.
Batch exampleBatch(const Model& model, const std::vector<Example>& examples, size_t start,
                   size_t end);

// Examples are tokens; they are mapped through the model's vocabularies (unknown -> <unk>).
// For an image model they are images: sentences and tokens count the images, token_accuracy
// is the classification accuracy (classifyImages).
Evaluation evaluate(Model& model, const std::vector<Example>& examples,
                    const EvalOptions& opt = {});

}  // namespace attnviz
