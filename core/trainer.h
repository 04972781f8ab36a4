// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Training: batches from a task or a dataset (length-bucketed, seeded), a data-parallel
// step over a thread pool (each thread a Network with its own gradients; gradients summed
// in a fixed order, so a given seed, data and thread count give bit-identical results),
// gradient clipping, SGD or Adam/AdamW and learning-rate schedules. docs/training.md.
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "augment.h"
#include "model.h"
#include "tasks.h"

namespace attnviz {

struct TrainOptions {
    int steps = 1000;
    int batchSize = 32;
    std::string optimizer = "adam";  // "sgd" or "adam"
    double lr = 1e-3;
    std::string schedule = "inverse-sqrt";  // "constant", "inverse-sqrt" or "linear"
    int warmup = 100;                       // steps of linear warm-up from 0
    double weightDecay = 0;                 // AdamW's decoupled decay (adam only)
    double beta1 = 0.9, beta2 = 0.98, eps = 1e-9;
    float dropout = 0.1f;
    float labelSmoothing = 0.1f;
    double clip = 1.0;  // maximum global gradient norm; 0 = off
    bool shuffle = true;
    int threads = 1;
    uint64_t seed = 1;
    std::string augment = "none";  // image models only: ImageAugment::parse (core/augment.h)

    void validate() const;  // Error naming the bad option
    nlohmann::json toJson() const;
};

// The values of TrainOptions::optimizer and ::schedule, as validate() checks them (and the
// bash completion of train --optimizer and --schedule offers them).
const std::vector<std::string>& optimizerNames();
const std::vector<std::string>& scheduleNames();

// The learning rate at step s (1-based) of `total`.
double learningRate(const TrainOptions& o, int step);

// Where training examples come from: an endless task stream, or a dataset walked in epochs.
class ExampleSource {
public:
    virtual ~ExampleSource() = default;
    virtual Example next() = 0;
};
// A task's stream from `seed`, skipping every held-out example (isHeldOutExample) and any
// whose source and target are in `exclude`, so held-out sentences are never trained on.
std::unique_ptr<ExampleSource> taskSource(std::shared_ptr<const Task> task, uint64_t seed,
                                          std::set<std::vector<std::string>> exclude = {});
// A dataset in epochs, reshuffled every epoch from `seed` when `shuffle`, else in order.
std::unique_ptr<ExampleSource> datasetSource(std::vector<Example> data, uint64_t seed,
                                             bool shuffle);

// The key under which an example is excluded: source tokens, a tab, target tokens.
std::vector<std::string> exampleKey(const Example& e);

// Whether an example of a built-in task is reserved for held-out sets: decided by a hash of
// its tokens (FNV-1a of the key, mixed), not by a seed, so that no training stream of any seed
// contains an example that a held-out set of any seed (train's or eval's --seed) can draw.
// About one example in kHeldOutShare.
bool isHeldOutExample(const Example& e);
constexpr int kHeldOutShare = 10;

// Groups examples into batches. With bucketing, a pool of 16 batches' worth is sorted by
// length and cut, and the batches come out in a seeded random order (less padding);
// without, batches are consecutive examples.
class Batcher {
public:
    Batcher(ExampleSource& source, int batchSize, bool bucketing, uint64_t seed);
    std::vector<Example> next();

private:
    ExampleSource& m_source;
    int m_batchSize;
    bool m_bucketing;
    Rng m_rng;
    std::vector<std::vector<Example>> m_queue;
};

// Image examples [begin, end) as a batch for an image model (arch "vit"); Error when one is
// not an image of the model's size with a label below its classes. With `augment`, example
// i is augmented with the seed augmentSeed(runSeed, step, i) (core/augment.h).
Batch imageBatch(const Model& model, const std::vector<Example>& examples, size_t begin, size_t end,
                 const ImageAugment& augment = {}, uint64_t runSeed = 0, int step = 0);

struct StepStats {
    int step = 0;
    double loss = 0;  // mean smoothed loss over the batch's non-pad target tokens
    double nll = 0;   // mean cross-entropy without smoothing
    double accuracy = 0;
    int targetTokens = 0, sourceTokens = 0;
    double lr = 0;
    double gradNorm = 0;  // before clipping
};

class Trainer {
public:
    // Trains model's tensors in place (every ParamInfo marked trainable).
    Trainer(Model& model, const TrainOptions& opt);
    ~Trainer();
    // One optimisation step on a batch of examples (tokens, mapped through the vocabularies).
    StepStats step(const std::vector<Example>& batch);
    int stepsDone() const;

    // Adam's first and second moments, by parameter name (each the shape of its parameter;
    // zero for sgd): with the model and the steps done, all a run needs to go on exactly as it
    // would have (TrainingJob::saveState). The dropout and augmentation seeds follow the step.
    const ParamStore& firstMoments() const;
    const ParamStore& secondMoments() const;
    // Continues after `steps` steps with these moments; Error naming a tensor that is missing
    // or of another shape (nothing is changed then).
    void restore(int steps, const ParamStore& first, const ParamStore& second);

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

}  // namespace attnviz
