// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A whole training run as the CLI and the app start it: a model (fresh from a configuration
// with the task's or the data's vocabulary, or continued from a checkpoint), training and
// held-out examples, the step loop with progress reports and a stop flag, the final
// held-out evaluation and the checkpoint's "training" metadata.
#include <atomic>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "evaluate.h"
#include "probe.h"
#include "trainer.h"

namespace attnviz {

struct JobSpec {
    std::string config;         // configuration file (JSON); ignored with `init`
    nlohmann::json configJson;  // or the configuration itself (used when config is empty)
    std::string init;           // checkpoint to continue from (its config and vocabularies)
    std::string task;           // built-in task, or
    std::string data;           // a TSV (seq2seq) or text file (decoder-only)
    TrainOptions train;
    int evalEvery = 0;              // held-out loss/accuracy every N steps (0: only at the end)
    int heldOutCount = 200;         // task: held-out examples
    double heldOutFraction = 0.05;  // data without `dev`: every 20th line is held out
    // data: held-out examples from this file instead (its first heldOutCount usable lines);
    // the training data is then used whole
    std::string dev;
    int vocabSize = 8000;  // data: vocabulary cap per side, specials included
    bool caseSensitive = false;
    // data: "word", or "sentencepiece": a subword model trained on the data's sentences
    // (both sides, one vocabulary of vocabSize pieces shared by source and target)
    std::string tokenizer = "word";
    // Attention over training (core/probe.h): the probe sentence's attention every
    // probeEvery steps (0: none), from step 0 (before training) to the last.
    int probeEvery = 0;
    std::string probeSource;
    std::optional<std::string> probeTarget;  // seq2seq; none: decoded at each snapshot
    std::string name = "model";              // the run's name in the probe file
    // false (the app, whose probe is simply the current sentence): a probe the model cannot
    // analyse (too long, empty) is dropped with a note instead of failing the run.
    bool probeRequired = true;
    // Early stopping: keep the model of the evaluation (every evalEvery steps, which it needs)
    // with the best held-out selectOn ("accuracy", "loss" or "bleu", seq2seq only; "": keep
    // the last), and stop after `patience` evaluations in a row without a better one (0:
    // train every step). The held-out examples are the validation set: never the test set.
    std::string selectOn;
    int patience = 0;
    // The test metric over training, for its curve and nothing else (no choice reads it): at
    // every evaluation, the same evaluation of these examples as Progress::watch. watchTest:
    // an image task's test split; watch: a file of the data's format (data runs only). Their
    // first watchCount examples (0: all). Not part of a state file's options: watching
    // changes no step's result.
    bool watchTest = false;
    std::string watch;
    int watchCount = 0;
};

// The values of JobSpec::selectOn but "", as validateJobSpec checks them.
const std::vector<std::string>& selectionMetricNames();

struct Progress {
    StepStats stats;
    double elapsedSeconds = 0;
    double tokensPerSecond = 0;  // source + target tokens of the steps so far, per second
    double etaSeconds = 0;
    std::optional<Evaluation> eval;        // at --eval-every steps
    std::optional<Evaluation> watch;       // with eval, when the spec watches a test set
    bool best = false;                     // with selectOn: eval is the best so far
    const ProbeSnapshot* probe = nullptr;  // recorded after this step (valid in the callback)
};

class TrainingJob {
public:
    // Prepares the model and the data; Error with a clear message on any problem.
    explicit TrainingJob(const JobSpec& spec);
    ~TrainingJob();

    Model& model();
    const std::vector<Example>& heldOut() const;
    // People-readable notes about the data (e.g. skipped lines), empty when none.
    const std::vector<std::string>& notes() const;

    // Trains until spec.train.steps steps are done or *stop becomes true; returns the steps
    // done. onProgress is called after every step (from the calling thread).
    int run(const std::function<void(const Progress&)>& onProgress,
            const std::atomic<bool>* stop = nullptr);

    // Held-out evaluation, and the metadata stored in the checkpoint (deterministic: no
    // timings, so identical runs give identical files).
    Evaluation evaluateHeldOut(bool decode = true);
    // The probe's snapshots so far (step 0 is recorded when the job is prepared); null
    // without a probe.
    const ProbeRecorder* probe() const;
    // The checkpoint's "training" metadata; with selectOn also how the checkpoint was chosen
    // ("checkpoint_chosen_on": "validation", "selected_on", "chosen_step", "patience", …).
    void finish(const Evaluation& heldOut, bool stoppedEarly);
    int stepsDone() const;

    // With selectOn: the step of the best evaluation so far (0: none yet).
    int bestStep() const;
    // Whether run() stopped because `patience` evaluations in a row brought nothing better.
    bool patienceRanOut() const;
    // Puts the best evaluation's parameters into model() (no change without one).
    void useBest();

    // The run's state after stepsDone() steps (the model, the optimiser's moments, the best
    // evaluation so far and its parameters) as a safetensors file, written atomically; and
    // continuing from one written by this same run (the same options, data and
    // configuration), bit for bit as if it had not stopped: Error naming the file and what is
    // wrong with it or which option differs, and nothing changed. Not with a probe.
    void saveState(const std::string& path) const;
    void resume(const std::string& path);

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

// Checks a spec without reading data or checkpoints (cheap enough for a UI thread): task or
// data, the options, the configuration, and that a task fits its architecture. Error
// naming the problem. TrainingJob runs the same checks.
void validateJobSpec(const JobSpec& spec);
// The values of JobSpec::tokenizer, as validateJobSpec checks them: "word", "sentencepiece".
const std::vector<std::string>& tokenizerNames();

// Held-out examples of a task: `count` examples from a seed derived from `seed`.
std::vector<Example> taskHeldOut(const Task& task, uint64_t seed, int count);

}  // namespace attnviz
