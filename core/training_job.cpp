// SPDX-License-Identifier: GPL-3.0-or-later
#include "training_job.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <optional>

#include "data.h"
#include "error.h"
#include "image_set.h"
#include "input_limits.h"
#include "safetensors.h"
#include "trainer.h"

namespace attnviz {

std::vector<Example> taskHeldOut(const Task& task, uint64_t seed, int count) {
    Rng rng(seed ^ 0x5DEECE66DULL);
    std::vector<Example> out;
    // Only examples reserved for held-out sets (about 1 in kHeldOutShare is), so that no
    // training stream, of this seed or any other, contains them.
    for (int64_t tries = 0; int(out.size()) < count; ++tries) {
        if (tries > int64_t(count) * kHeldOutShare * 1000)
            throw Error("task '" + task.name() + "' has too few distinct examples for " +
                        std::to_string(count) + " held-out ones");
        Example e = task.sample(rng);
        if (isHeldOutExample(e)) out.push_back(std::move(e));
    }
    return out;
}

namespace {

ModelConfig specConfig(const JobSpec& spec) {
    return spec.config.empty() ? ModelConfig::fromJson(spec.configJson)
                               : ModelConfig::fromFile(spec.config);
}

void checkArch(const Task& task, const ModelConfig& cfg) {
    if (task.seq2seq() != cfg.hasEncoder()) {
        throw Error("task '" + task.name() + "' needs a " +
                    (task.seq2seq() ? "seq2seq" : "decoder-only") + " model (\"arch\": \"" +
                    (task.seq2seq() ? "seq2seq" : "decoder") + "\")");
    }
}

// Refuses, before anything is allocated, a request whose estimated memory is over the limit.
void checkTrainingMemory(const ModelConfig& cfg, const TrainOptions& t) {
    const double need = cfg.trainingBytes(t.batchSize, t.threads);
    if (need > double(kMaxRequestBytes)) {
        throw Error("training with --batch-size " + std::to_string(t.batchSize) + " and " +
                    std::to_string(t.threads) + " threads needs " + gigabytes(need) +
                    " for this model (max_len " + std::to_string(cfg.maxLen) + ", d_model " +
                    std::to_string(cfg.dModel) + "); the limit is " +
                    gigabytes(double(kMaxRequestBytes)) + ": lower --batch-size");
    }
}

// The checkpoint this job will write must be one every reader accepts: a vocabulary or a
// tokenizer too large for the header is refused now, before the training, not after it.
void checkHeaderFits(const Tokenizer& tok, const Vocab& src, const Vocab& tgt) {
    const uint64_t bytes = tok.toJson().dump().size() + nlohmann::json(src.tokens()).dump().size() +
                           nlohmann::json(tgt.tokens()).dump().size();
    const uint64_t room = SafeTensorsFile::kMaxHeaderBytes - (1ull << 20);  // config, tensors
    if (bytes > room) {
        throw Error("the vocabularies and tokenizer need " + std::to_string(bytes) +
                    " bytes of checkpoint header, over the " + std::to_string(room) +
                    " a checkpoint may hold: use a smaller --vocab-size");
    }
}

// An image task needs an image model of its size and classes, and an image model an image task.
void checkImageArch(const JobSpec& spec, const ModelConfig& cfg) {
    const ImageTask* task = findImageTask(spec.task);
    if (!task) {
        if (cfg.isVision())
            throw Error("an image model (arch \"vit\") trains on images: use --task " +
                        imageTaskNames());
        return;
    }
    task->checkModel(cfg, "the model");
}

}  // namespace

const std::vector<std::string>& tokenizerNames() {
    static const std::vector<std::string> n{"word", "sentencepiece"};
    return n;
}

void validateJobSpec(const JobSpec& spec) {
    if (spec.task.empty() == spec.data.empty()) throw Error("give either a task or a data file");
    spec.train.validate();
    const auto& kinds = tokenizerNames();
    if (std::find(kinds.begin(), kinds.end(), spec.tokenizer) == kinds.end())
        throw Error("tokenizer must be " + alternatives(kinds) + ", got \"" +
                    spec.tokenizer.substr(0, 40) + "\"");
    if (spec.tokenizer == "sentencepiece" && (spec.data.empty() || !spec.init.empty()))
        throw Error(
            "a sentencepiece tokenizer is trained on a data file: use it with --data, "
            "without --init");
    static_assert(kMinVocabSize == Vocab::kEos + 2, "the specials and one word");
    if (spec.vocabSize < kMinVocabSize)
        throw Error("--vocab-size must be at least " + std::to_string(kMinVocabSize) +
                    " (the 4 special tokens and a word), got " + std::to_string(spec.vocabSize));
    if (spec.heldOutCount < 0 || spec.heldOutCount > kMaxExampleCount)
        throw Error("--held-out must be between 0 and " + std::to_string(kMaxExampleCount));
    if (spec.evalEvery < 0) throw Error("--eval-every must be at least 0 (0: only at the end)");
    const auto& metrics = selectionMetricNames();
    if (!spec.selectOn.empty()) {
        if (std::find(metrics.begin(), metrics.end(), spec.selectOn) == metrics.end())
            throw Error("--select-on must be " + alternatives(metrics) + ", got \"" +
                        excerpt(spec.selectOn) + "\"");
        if (spec.evalEvery <= 0)
            throw Error("--select-on needs --eval-every: the held-out set is evaluated only then");
        if (spec.heldOutCount == 0)
            throw Error("--select-on needs held-out examples (--held-out is 0)");
    }
    if (spec.patience < 0) throw Error("--patience must be at least 0 (0: train every step)");
    if (spec.watchTest || !spec.watch.empty()) {
        if (spec.watchTest && !spec.watch.empty())
            throw Error(
                "watch either an image task's test split (--watch-test) or a file (--watch)");
        if (spec.watchTest && !isImageTask(spec.task))
            throw Error("--watch-test needs an image task (--task " + imageTaskNames() +
                        "): only they have a test split; with --data, --watch names a file");
        if (!spec.watch.empty() && spec.data.empty())
            throw Error("--watch FILE goes with --data (a file of its format)");
        if (spec.evalEvery <= 0)
            throw Error("watching a test set needs --eval-every: it is evaluated only then");
    }
    if (spec.watchCount < 0 || spec.watchCount > kMaxExampleCount)
        throw Error("--watch-count must be between 0 (all) and " +
                    std::to_string(kMaxExampleCount));
    if (spec.patience > 0 && spec.selectOn.empty())
        throw Error("--patience needs --select-on: the held-out metric that must improve");
    if (spec.probeEvery < 0) throw Error("--probe-every must be at least 1 (or 0: no probe)");
    if (spec.probeEvery > 0 && spec.probeRequired &&
        spec.probeSource.find_first_not_of(" \t\r\n") == std::string::npos)
        throw Error("recording attention over training needs a probe sentence (--probe)");
    const bool images = isImageTask(spec.task);
    if (ImageAugment::parse(spec.train.augment).any() && !images)
        throw Error("--augment applies to image tasks (--task " + imageTaskNames() + ") only");
    const auto task = spec.task.empty() || images ? nullptr : makeTask(spec.task);
    if (spec.init.empty()) {
        const ModelConfig cfg = specConfig(spec);
        if (task) checkArch(*task, cfg);
        checkImageArch(spec, cfg);
    }
}

const std::vector<std::string>& selectionMetricNames() {
    static const std::vector<std::string> names{"accuracy", "loss", "bleu"};
    return names;
}

namespace {

// The selection metric of an evaluation, larger is better (the loss negated).
double selectionValue(const std::string& metric, const Evaluation& e) {
    if (metric == "loss") return -e.loss;
    if (metric == "bleu") return e.bleu ? e.bleu->score : 0.0;
    return e.tokenAccuracy;
}

constexpr const char* kStateKey = "attnviz_training_state";

struct Difference {
    std::string key, theirs, ours;
};

// The first key (dotted path) whose value differs between a state file's run and this one.
std::optional<Difference> firstDifference(const nlohmann::json& theirs, const nlohmann::json& ours,
                                          const std::string& path) {
    if (theirs == ours) return std::nullopt;
    if (theirs.is_object() && ours.is_object()) {
        for (const auto& [key, value] : ours.items()) {
            const std::string sub = path.empty() ? key : path + "." + key;
            if (!theirs.contains(key)) return Difference{sub, "absent", excerpt(value)};
            if (auto d = firstDifference(theirs[key], value, sub)) return d;
        }
        for (const auto& [key, value] : theirs.items())
            if (!ours.contains(key))
                return Difference{path.empty() ? key : path + "." + key, excerpt(value), "absent"};
    }
    return Difference{path.empty() ? "run" : path, excerpt(theirs), excerpt(ours)};
}

// Tensors of a state file under a prefix ("model/", "adam.m/" …), by parameter name.
ParamStore withPrefix(const std::map<std::string, Tensor>& all, const std::string& prefix) {
    ParamStore out;
    for (const auto& [name, t] : all)
        if (name.compare(0, prefix.size(), prefix) == 0) out.emplace(name.substr(prefix.size()), t);
    return out;
}

}  // namespace

struct TrainingJob::Impl {
    JobSpec spec;
    std::optional<Model> model;
    std::shared_ptr<const Task> task;
    std::vector<Example> heldOut;
    std::vector<Example> watched;  // spec.watchTest or spec.watch: evaluated with heldOut
    std::vector<std::string> notes;
    std::unique_ptr<ExampleSource> source;
    std::unique_ptr<Batcher> batcher;
    std::unique_ptr<Trainer> trainer;
    std::optional<ProbeRecorder> probe;
    int steps = 0;
    // Early stopping (spec.selectOn): the best evaluation so far and its parameters.
    ParamStore bestParams;
    int bestStep = 0;
    double bestValue = 0;
    int sinceBest = 0;  // evaluations since the best one

    bool patienceRanOut() const { return spec.patience > 0 && sinceBest >= spec.patience; }

    // What a state file must share with this run to continue it: every option that changes
    // the steps' results, the data and the model's configuration.
    // The steps are not part of it unless the schedule depends on them (linear): a run can be
    // continued for longer than first asked.
    nlohmann::json runKey() const {
        nlohmann::json options = spec.train.toJson();
        if (spec.train.schedule != "linear") options.erase("steps");
        return {{"options", options},
                {"task", spec.task},
                {"data", std::filesystem::path(spec.data).filename().string()},
                {"dev", std::filesystem::path(spec.dev).filename().string()},
                {"init", std::filesystem::path(spec.init).filename().string()},
                {"held_out", spec.heldOutCount},
                {"eval_every", spec.evalEvery},
                {"select_on", spec.selectOn},
                {"patience", spec.patience},
                {"vocab_size", spec.vocabSize},
                {"case_sensitive", spec.caseSensitive},
                {"tokenizer", spec.tokenizer},
                {"config", model->config().toJson()}};
    }

    void prepare() {
        const bool fromInit = !spec.init.empty();
        validateJobSpec(spec);
        ModelConfig cfg;
        if (fromInit) {
            model = Model::load(spec.init);
            cfg = model->config();
        } else {
            cfg = specConfig(spec);
        }
        checkTrainingMemory(cfg, spec.train);
        checkImageArch(spec, cfg);
        const Tokenizer tok = fromInit ? model->tokenizer()
                              : spec.tokenizer == "sentencepiece"
                                  ? Tokenizer::trainSentencePiece(
                                        dataSentences(spec.data, cfg.hasEncoder()), spec.vocabSize)
                                  : Tokenizer(!spec.caseSensitive);
        std::vector<Example> train;
        const bool images = isImageTask(spec.task);
        if (images) {
            const ImageTask& imageTask = *findImageTask(spec.task);
            ImageSet trainImages, validation;
            imageTask.loadTraining(trainImages, validation);
            train = imageExamples(trainImages);
            heldOut = imageExamples(validation);
            if (spec.watchTest) watched = imageExamples(imageTask.load("test"));
            if (!fromInit)
                model = Model::initializeImages(cfg, *imageTask.classes, spec.train.seed);
        } else if (!spec.task.empty()) {
            task = makeTask(spec.task);
            if (fromInit) checkArch(*task, cfg);  // validateJobSpec checked the others
            heldOut = taskHeldOut(*task, spec.train.seed, spec.heldOutCount);
        } else {
            // Longest usable line: one position is taken by <eos> or <bos>.
            const int limit = std::min(cfg.maxLen, Model::kMaxTokens) - 1;
            LoadedData d = loadData(spec.data, cfg.hasEncoder(), tok, limit);
            if (!d.skipped.empty()) notes.push_back(spec.data + ": " + describeSkipped(d));
            train = std::move(d.examples);
            if (spec.dev.empty()) {
                splitHeldOut(train, heldOut, spec.heldOutFraction);
            } else {
                LoadedData dv = loadData(spec.dev, cfg.hasEncoder(), tok, limit);
                if (!dv.skipped.empty()) notes.push_back(spec.dev + ": " + describeSkipped(dv));
                heldOut = std::move(dv.examples);
                if (heldOut.size() > static_cast<size_t>(spec.heldOutCount))
                    heldOut.resize(static_cast<size_t>(spec.heldOutCount));
            }
            if (train.empty()) throw Error(spec.data + ": too few lines to train on");
            if (!spec.watch.empty()) {
                LoadedData w = loadData(spec.watch, cfg.hasEncoder(), tok, limit);
                if (!w.skipped.empty()) notes.push_back(spec.watch + ": " + describeSkipped(w));
                if (w.examples.empty()) throw Error(spec.watch + ": no usable line to watch");
                watched = std::move(w.examples);
            }
        }
        if (!fromInit && !images) {
            Vocab src, tgt;
            if (tok.kind() == Tokenizer::Kind::SentencePiece) {
                src = tgt = Vocab(tok.pieces());  // ids are the SentencePiece model's
            } else if (task) {
                src = Vocab::fromWords(task->sourceWords());
                tgt = Vocab::fromWords(task->targetWords());
            } else {
                std::vector<std::vector<std::string>> s, t;
                for (const auto& e : train) s.push_back(e.src), t.push_back(e.tgt);
                if (cfg.hasEncoder() && !cfg.shareEmbeddings) {
                    src = buildVocab(s, spec.vocabSize);
                    tgt = buildVocab(t, spec.vocabSize);
                } else {
                    for (const auto& x : t) s.push_back(x);
                    src = tgt = buildVocab(s, spec.vocabSize);
                }
            }
            if (task && cfg.hasEncoder() && cfg.shareEmbeddings) {
                std::vector<std::string> all = task->sourceWords();
                for (const auto& w : task->targetWords()) all.push_back(w);
                src = tgt = Vocab::fromWords(all);
            }
            if (!cfg.hasEncoder()) src = tgt;
            checkHeaderFits(tok, src, tgt);
            model = Model::initialize(cfg, src, tgt, tok, spec.train.seed);
        }
        if (spec.watchCount > 0 && watched.size() > static_cast<size_t>(spec.watchCount))
            watched.resize(static_cast<size_t>(spec.watchCount));
        if (task) {
            if (task->maxTokens() > std::min(model->maxSourceTokens(), model->maxTargetTokens())) {
                throw Error("task '" + spec.task + "' emits up to " +
                            std::to_string(task->maxTokens() + 1) +
                            " positions but this model's max_len is " + std::to_string(cfg.maxLen));
            }
            std::set<std::vector<std::string>> exclude;
            for (const auto& e : heldOut) exclude.insert(exampleKey(e));
            source = taskSource(task, spec.train.seed, std::move(exclude));
        } else {
            source = datasetSource(std::move(train), spec.train.seed, spec.train.shuffle);
        }
        // Images are all of one length: no bucketing.
        batcher = std::make_unique<Batcher>(*source, spec.train.batchSize,
                                            spec.train.shuffle && !images, spec.train.seed + 1);
        if (spec.selectOn == "bleu" && !model->config().hasEncoder())
            throw Error("--select-on bleu needs a seq2seq model: BLEU scores translations");
        trainer = std::make_unique<Trainer>(*model, spec.train);
        if (spec.probeEvery > 0) {
            try {
                probe.emplace(*model, spec.name, spec.probeSource, spec.probeTarget,
                              spec.probeEvery);
                probe->record(*model, 0);
            } catch (const Error& e) {
                if (spec.probeRequired) throw;
                probe.reset();
                notes.push_back(std::string("attention over training is not recorded: ") +
                                e.what());
            }
        }
    }
};

TrainingJob::TrainingJob(const JobSpec& spec) : d(std::make_unique<Impl>()) {
    d->spec = spec;
    d->prepare();
}

TrainingJob::~TrainingJob() = default;

Model& TrainingJob::model() {
    return *d->model;
}

const std::vector<Example>& TrainingJob::heldOut() const {
    return d->heldOut;
}

const std::vector<std::string>& TrainingJob::notes() const {
    return d->notes;
}

int TrainingJob::run(const std::function<void(const Progress&)>& onProgress,
                     const std::atomic<bool>* stop) {
    using Clock = std::chrono::steady_clock;
    const auto t0 = Clock::now();
    double tokens = 0;
    const int total = d->spec.train.steps;
    const int first = d->steps;  // a continued run (resume) starts after its state's steps
    if (d->patienceRanOut()) return d->steps;
    while (d->steps < total && !(stop && stop->load())) {
        const auto batch = d->batcher->next();
        Progress p;
        p.stats = d->trainer->step(batch);
        ++d->steps;
        tokens += p.stats.sourceTokens + p.stats.targetTokens;
        p.elapsedSeconds = std::chrono::duration<double>(Clock::now() - t0).count();
        p.tokensPerSecond = p.elapsedSeconds > 0 ? tokens / p.elapsedSeconds : 0;
        p.etaSeconds = p.elapsedSeconds / (d->steps - first) * (total - d->steps);
        const bool select = !d->spec.selectOn.empty();
        if (d->spec.evalEvery > 0 && d->steps % d->spec.evalEvery == 0 && !d->heldOut.empty()) {
            const EvalOptions options{64, select && d->spec.selectOn == "bleu"};
            p.eval = evaluate(*d->model, d->heldOut, options);
            // The same measure on the watched test set, for its curve: read by nothing below.
            if (!d->watched.empty()) p.watch = evaluate(*d->model, d->watched, options);
            if (select) {
                const double v = selectionValue(d->spec.selectOn, *p.eval);
                if (d->bestStep == 0 || v > d->bestValue) {  // ties keep the earlier model
                    d->bestParams = d->model->params();
                    d->bestStep = d->steps;
                    d->bestValue = v;
                    d->sinceBest = 0;
                    p.best = true;
                } else {
                    ++d->sinceBest;
                }
            }
        }
        if (d->probe && d->probe->due(d->steps, total))
            p.probe = &d->probe->record(*d->model, d->steps);
        if (onProgress) onProgress(p);
        if (d->patienceRanOut()) break;
    }
    return d->steps;
}

int TrainingJob::stepsDone() const {
    return d->steps;
}

int TrainingJob::bestStep() const {
    return d->bestStep;
}

bool TrainingJob::patienceRanOut() const {
    return d->patienceRanOut();
}

void TrainingJob::useBest() {
    // Values only: networks hold pointers to the model's tensors.
    if (d->bestStep > 0)
        for (auto& [name, t] : d->model->params()) t.m = d->bestParams.at(name).m;
}

void TrainingJob::saveState(const std::string& path) const {
    SafeTensorsFile f;
    for (const auto& [name, t] : d->model->params()) f.tensors.emplace("model/" + name, t);
    for (const auto& [name, t] : d->trainer->firstMoments()) f.tensors.emplace("adam.m/" + name, t);
    for (const auto& [name, t] : d->trainer->secondMoments())
        f.tensors.emplace("adam.v/" + name, t);
    for (const auto& [name, t] : d->bestParams) f.tensors.emplace("best/" + name, t);
    char value[32];
    std::snprintf(value, sizeof value, "%.17g", d->bestValue);
    f.metadata = {{kStateKey, "1"},
                  {"run", d->runKey().dump()},
                  {"steps", std::to_string(d->steps)},
                  {"best_step", std::to_string(d->bestStep)},
                  {"best_value", value},
                  {"since_best", std::to_string(d->sinceBest)}};
    f.write(path);
}

void TrainingJob::resume(const std::string& path) {
    const std::string what = "the training state '" + path + "'";
    if (d->probe) throw Error("a run with a probe cannot be continued from " + what);
    if (d->steps > 0) throw Error("only a run that has not started can continue " + what);
    const SafeTensorsFile f = SafeTensorsFile::read(
        path, [&](const std::map<std::string, std::string>& meta, const auto&) {
            if (!meta.count(kStateKey) || meta.at(kStateKey) != "1")
                throw Error(what + " is not a training state written by train --state");
        });
    auto number = [&](const char* key, long long lo, long long hi) {
        const auto it = f.metadata.find(key);
        try {
            size_t used = 0;
            if (it != f.metadata.end()) {
                const long long v = std::stoll(it->second, &used);
                if (used == it->second.size() && v >= lo && v <= hi) return v;
            }
        } catch (const std::exception&) {
        }
        throw Error(what + " has no valid \"" + key + "\"");
    };
    nlohmann::json run;
    try {
        run = nlohmann::json::parse(f.metadata.count("run") ? f.metadata.at("run") : "");
    } catch (const nlohmann::json::exception&) {
        throw Error(what + " has no valid \"run\"");
    }
    if (const auto diff = firstDifference(run, d->runKey(), ""))
        throw Error(what + " is of another run: its " + diff->key + " is " + diff->theirs +
                    ", this run's " + diff->ours);
    const int steps = int(number("steps", 0, std::numeric_limits<int>::max()));
    if (steps > d->spec.train.steps)
        throw Error(what + " is after step " + std::to_string(steps) + ", beyond --steps " +
                    std::to_string(d->spec.train.steps));
    const int bestStep = int(number("best_step", 0, steps));
    const int sinceBest = int(number("since_best", 0, steps));
    double bestValue = 0;
    try {
        bestValue = std::stod(f.metadata.count("best_value") ? f.metadata.at("best_value") : "");
    } catch (const std::exception&) {
        throw Error(what + " has no valid \"best_value\"");
    }
    const ParamStore params = withPrefix(f.tensors, "model/"),
                     best = withPrefix(f.tensors, "best/");
    const ParamStore& own0 = d->model->params();
    for (const auto* store : {&params, &best}) {
        if (store == &best && bestStep == 0 && best.empty()) continue;
        const char* part = store == &params ? "model" : "best model";
        if (store->size() != own0.size())
            throw Error(what + ": its " + part + " has " + std::to_string(store->size()) +
                        " tensors, this run's model " + std::to_string(own0.size()));
        for (const auto& [name, t] : own0) {
            const auto it = store->find(name);
            if (it == store->end() || it->second.shape != t.shape)
                throw Error(what + ": its " + part + " lacks '" + name + "' of this run's shape");
            if (!it->second.m.allFinite())
                throw Error(what + ": its " + part + "'s '" + name + "' is not finite");
        }
    }
    try {
        d->trainer->restore(steps, withPrefix(f.tensors, "adam.m/"),
                            withPrefix(f.tensors, "adam.v/"));
    } catch (const Error& e) {
        throw Error(what + ": " + e.what());
    }
    for (auto& [name, t] : d->model->params()) t.m = params.at(name).m;
    d->bestParams = best;
    d->bestStep = bestStep;
    d->bestValue = bestValue;
    d->sinceBest = sinceBest;
    // The data stream as it stood: the same batches drawn again, not trained on.
    for (int i = 0; i < steps; ++i) d->batcher->next();
    d->steps = steps;
}

const ProbeRecorder* TrainingJob::probe() const {
    return d->probe ? &*d->probe : nullptr;
}

Evaluation TrainingJob::evaluateHeldOut(bool decode) {
    return evaluate(*d->model, d->heldOut, EvalOptions{64, decode});
}

void TrainingJob::finish(const Evaluation& heldOut, bool stoppedEarly) {
    nlohmann::json t{{"kind", "trained"},
                     {"steps", d->steps},
                     {"stopped_early", stoppedEarly},
                     {"options", d->spec.train.toJson()},
                     {"held_out", heldOut.toJson()}};
    if (isImageTask(d->spec.task)) {
        t["task"] = d->spec.task;
        t["held_out"]["source"] = d->spec.task == kFashionMnistTask
                                      ? "the last " + std::to_string(d->heldOut.size()) +
                                            " training images of Fashion-MNIST, never trained on"
                                      : "the validation split of task '" + d->spec.task + "' (" +
                                            std::to_string(d->heldOut.size()) +
                                            " images), never trained on";
    } else if (d->task) {
        t["task"] = d->task->name();
        t["held_out"]["source"] = "task '" + d->task->name() + "', " +
                                  std::to_string(d->heldOut.size()) + " examples never trained on";
    } else {
        t["data"] = std::filesystem::path(d->spec.data).filename().string();
        t["held_out"]["source"] =
            d->spec.dev.empty()
                ? "every " + std::to_string(std::lround(1.0 / d->spec.heldOutFraction)) +
                      "th usable line of the data"
                : "the first " + std::to_string(d->heldOut.size()) + " usable lines of " +
                      std::filesystem::path(d->spec.dev).filename().string();
    }
    if (!d->spec.init.empty()) {
        t["init"] = std::filesystem::path(d->spec.init).filename().string();
        if (d->model->training().present()) t["init_training"] = d->model->training().raw();
    }
    if (!d->spec.selectOn.empty()) {
        t["checkpoint_chosen_on"] = "validation";
        t["selected_on"] = d->spec.selectOn;
        t["chosen_step"] = d->bestStep > 0 ? d->bestStep : d->steps;
        t["eval_every"] = d->spec.evalEvery;
        t["patience"] = d->spec.patience;
        t["stopped_by_patience"] = d->patienceRanOut();
    }
    d->model->setTraining(t);
}

}  // namespace attnviz
