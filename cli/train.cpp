// SPDX-License-Identifier: GPL-3.0-or-later
// attnviz-cli train: train a model on a built-in task or the user's data, with progress on
// standard error; Ctrl-C stops early and still writes the checkpoint.
#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <csignal>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <ostream>
#include <sstream>
#include <thread>

#include "command.h"
#include "core/error.h"
#include "core/file_io.h"
#include "core/image_set.h"
#include "core/input_limits.h"
#include "core/presets.h"
#include "core/training_job.h"

namespace attnviz::cli {
namespace {

using nlohmann::json;

class TrainCommand : public Command {
public:
    CLI::App* add(CLI::App& parent) override;
    void run(const Context& ctx) override;
    // The checkpoints of --save-at and the probe file, beside --out.
    std::vector<NamedPath> derivedOutputs() const override;

private:
    JobSpec m_spec;
    std::string m_out, m_log, m_preset, m_size;
    std::string m_state;  // --state: the run's state, continued from when the file exists
    bool m_languageModel = false;
    CLI::Option* m_probeTarget = nullptr;
    std::string m_probeTargetText;
    bool m_noShuffle = false;
    std::vector<int> m_saveAt;  // --save-at: steps whose checkpoint is kept too
};

// The checkpoint kept at `step` by --save-at: OUT with ".stepN" before ".safetensors"
// ("runs/dot.safetensors" -> "runs/dot.step3000.safetensors").
std::string snapshotPath(const std::string& out, int step) {
    const std::string ext = ".safetensors", tag = ".step" + std::to_string(step);
    if (out.size() > ext.size() && out.compare(out.size() - ext.size(), ext.size(), ext) == 0)
        return out.substr(0, out.size() - ext.size()) + tag + ext;
    return out + tag;
}

std::atomic<bool> g_stop{false};
extern "C" void onInterrupt(int) {
    g_stop = true;
}

// Ctrl-C must never interrupt a thread that is computing. Handled on a training thread, it
// corrupted the heap with oneDNN: about 1 in 10 interrupted runs aborted with "corrupted
// double-linked list" inside the training step; none with OpenBLAS, none without the signal
// (tests/cli/interrupt.py --runs 30). Our guess, not verified inside oneDNN: a kernel keeps
// data below the stack pointer, where the kernel puts the signal's frame. While one of these
// lives, the calling thread and every thread it starts (the trainer's) block SIGINT, and a
// thread of its own waits for the signal and sets `stop`. The handler stays installed for
// threads started before (the BLAS library's, idle), so the signal never kills.
class InterruptWatcher {
public:
    explicit InterruptWatcher(std::atomic<bool>& stop) {
        sigemptyset(&m_set);
        sigaddset(&m_set, SIGINT);
        m_previous = std::signal(SIGINT, onInterrupt);
        pthread_sigmask(SIG_BLOCK, &m_set, &m_oldMask);
        m_thread = std::thread([this, &stop] {
            const timespec tick{0, 100'000'000};  // looks at m_done ten times a second
            while (!m_done)
                if (sigtimedwait(&m_set, nullptr, &tick) == SIGINT) stop = true;
        });
    }
    ~InterruptWatcher() {
        m_done = true;
        m_thread.join();
        pthread_sigmask(SIG_SETMASK, &m_oldMask, nullptr);
        std::signal(SIGINT, m_previous);
    }
    InterruptWatcher(const InterruptWatcher&) = delete;
    InterruptWatcher& operator=(const InterruptWatcher&) = delete;

private:
    sigset_t m_set{}, m_oldMask{};
    void (*m_previous)(int) = nullptr;
    std::atomic<bool> m_done{false};
    std::thread m_thread;
};

std::string clock(double s) {
    const long t = std::lround(std::max(0.0, s));
    std::ostringstream o;
    o << t / 60 << ":" << std::setw(2) << std::setfill('0') << t % 60;
    return o.str();
}

std::string rate(double tokensPerSecond) {
    std::ostringstream o;
    o << std::fixed << std::setprecision(1) << tokensPerSecond / 1000.0 << "k tok/s";
    return o.str();
}

// Progress on stderr: a bar redrawn with \r on a terminal, else a plain line every ~5%.
class ProgressPrinter {
public:
    ProgressPrinter(std::ostream& err, bool tty, int total)
        : m_err(err), m_tty(tty), m_total(total) {}
    void operator()(const Progress& p) {
        const int s = p.stats.step;
        std::ostringstream line;
        line << std::fixed << std::setprecision(3) << "step " << s << "/" << m_total << "  loss "
             << p.stats.loss << "  acc " << std::setprecision(3) << p.stats.accuracy << "  "
             << rate(p.tokensPerSecond) << "  ETA " << clock(p.etaSeconds);
        if (p.eval) {
            line << "  held-out loss " << std::setprecision(3) << p.eval->loss << " acc "
                 << p.eval->tokenAccuracy;
        }
        if (m_tty) {
            const int width = 24, filled = m_total ? width * s / m_total : width;
            m_err << "\r[" << std::string(size_t(filled), '#')
                  << std::string(size_t(width - filled), '-') << "] " << line.str() << "   "
                  << std::flush;
            if (s == m_total) m_err << "\n";
        } else if (s == 1 || s == m_total || p.eval || s % std::max(1, m_total / 20) == 0) {
            m_err << line.str() << "\n";
        }
    }
    void interrupted(int steps) {
        if (m_tty) m_err << "\n";
        m_err << "interrupted after " << steps << " steps; writing the checkpoint\n";
    }

private:
    std::ostream& m_err;
    bool m_tty;
    int m_total;
};

// One line of the --log file: a step's statistics, with the held-out metrics if evaluated.
json logLine(const Progress& p) {
    json j{{"step", p.stats.step},
           {"loss", p.stats.loss},
           {"nll", p.stats.nll},
           {"accuracy", p.stats.accuracy},
           {"lr", p.stats.lr},
           {"grad_norm", p.stats.gradNorm},
           {"tokens_per_s", p.tokensPerSecond},
           {"elapsed_s", p.elapsedSeconds}};
    if (p.eval) j["held_out"] = p.eval->toJson();
    if (p.watch) j["test"] = p.watch->toJson();  // --watch-test or --watch: for a curve only
    return j;
}

CLI::App* TrainCommand::add(CLI::App& parent) {
    TrainOptions& t = m_spec.train;
    auto* c = parent.add_subcommand("train", "Train a model on a built-in task or your data");
    auto* cfg = input(c->add_option("--config", m_spec.config, "Model configuration (JSON)"))
                    ->check(CLI::ExistingFile);
    auto* init = input(c->add_option("--init", m_spec.init,
                                     "Start from this checkpoint (its config and vocabularies)"))
                     ->check(CLI::ExistingFile);
    auto* preset = oneOf(c->add_option("--preset", m_preset,
                                       "A preset configuration (see 'presets'); with --task lm "
                                       "its decoder self-attention as a language model"),
                         [] { return presetIds(loadPresets(presetDirectory())); });
    cfg->excludes(init);
    preset->excludes(cfg)->excludes(init);
    input(c->add_option("--size", m_size,
                        "With --preset: a JSON file whose keys (d_model, heads, d_ff, enc_layers, "
                        "dec_layers, max_len, share_embeddings, tie_output) replace the preset's"))
        ->check(CLI::ExistingFile)
        ->needs(preset);
    c->add_flag("--language-model", m_languageModel,
                "With --preset: a language model (decoder only) with the preset's decoder "
                "self-attention, e.g. on a text --data file (implied by --task lm)")
        ->needs(preset);
    auto* task = oneOf(c->add_option("--task", m_spec.task,
                                     "Built-in task: " + alternatives(taskNames()) + ", or " +
                                         kFashionMnistTask + " (images, for \"arch\": \"vit\")"),
                       allTaskNames);
    auto* data =
        input(
            c->add_option(
                "--data", m_spec.data,
                "TSV of source<TAB>target (seq2seq) or text, one sentence per line (decoder-only)"))
            ->check(CLI::ExistingFile);
    task->excludes(data);
    input(
        c->add_option("--dev", m_spec.dev,
                      "Data: held-out lines from this file (the first --held-out of them) instead "
                      "of every 20th line of --data"))
        ->check(CLI::ExistingFile)
        ->needs(data);
    c->add_option("--steps", t.steps, "Optimisation steps")
        ->capture_default_str()
        ->check(integerIn(0));
    output(c->add_option("--out", m_out, "Output checkpoint (.safetensors, written atomically)"))
        ->required();
    c->add_option("--seed", t.seed, "Seed for initialisation, data order and dropout")
        ->capture_default_str()
        ->check(nonNegative());
    c->add_option("--threads", t.threads, "Threads (data-parallel)")
        ->capture_default_str()
        ->check(integerIn(1, 256));
    c->add_option("--batch-size", t.batchSize, "Sequences per step")
        ->capture_default_str()
        ->check(integerIn(1, kMaxBatchSize));
    c->add_option("--lr", t.lr, "Peak learning rate")
        ->capture_default_str()
        ->check(numberIn(0, 10, false, true));
    oneOf(c->add_option("--optimizer", t.optimizer, alternatives(optimizerNames())), optimizerNames)
        ->capture_default_str();
    c->add_option("--weight-decay", t.weightDecay, "AdamW decoupled weight decay")
        ->capture_default_str()
        ->check(numberIn(0, 1));
    oneOf(c->add_option("--schedule", t.schedule, alternatives(scheduleNames())), scheduleNames)
        ->capture_default_str();
    c->add_option("--warmup", t.warmup, "Linear warm-up steps")
        ->capture_default_str()
        ->check(integerIn(0));
    c->add_option("--dropout", t.dropout, "Dropout rate")
        ->capture_default_str()
        ->check(numberIn(0, 1, true));
    c->add_option("--label-smoothing", t.labelSmoothing, "Label smoothing")
        ->capture_default_str()
        ->check(numberIn(0, 1, true));
    c->add_option("--clip", t.clip, "Maximum global gradient norm (0 = off)")
        ->capture_default_str()
        ->check(numberIn(0, std::numeric_limits<double>::infinity()));
    oneOf(c->add_option("--augment", t.augment,
                        "Images: " + alternatives(ImageAugment::names()) +
                            " (training images only; docs/training.md)"),
          ImageAugment::names)
        ->capture_default_str();
    c->add_flag("--no-shuffle", m_noShuffle, "Data in file order, no length bucketing");
    c->add_option("--eval-every", m_spec.evalEvery, "Held-out loss and accuracy every N steps")
        ->capture_default_str()
        ->check(integerIn(0));
    c->add_option("--held-out", m_spec.heldOutCount,
                  "Held-out examples: of the task, or the first N lines of --dev")
        ->capture_default_str()
        ->check(integerIn(0, kMaxExampleCount));
    c->add_option("--vocab-size", m_spec.vocabSize,
                  "Data: vocabulary cap per side (specials included)")
        ->capture_default_str()
        ->check(integerIn(kMinVocabSize));
    c->add_flag("--case-sensitive", m_spec.caseSensitive, "Data: do not lowercase");
    oneOf(c->add_option("--tokenizer", m_spec.tokenizer,
                        "Data: word, or sentencepiece (a subword model with byte fallback trained "
                        "on the data, --vocab-size pieces shared by both sides)"),
          tokenizerNames)
        ->capture_default_str();
    output(c->add_option("--log", m_log,
                         "Write one JSON line per step (and evaluation) to this file"));
    c->add_option("--probe", m_spec.probeSource,
                  "Attention over training: record this sentence's attention every "
                  "--probe-every steps into OUT with .probe.json for .safetensors "
                  "(docs/analysis.md)");
    m_probeTarget =
        c->add_option("--probe-target", m_probeTargetText,
                      "The probe's target (seq2seq; default: decoded at each snapshot)");
    c->add_option("--probe-every", m_spec.probeEvery,
                  "Steps between probe snapshots (default with --probe: 100)")
        ->check(integerIn(0));
    c->add_option("--save-at", m_saveAt,
                  "Also keep the checkpoint after these steps (each below --steps), with its "
                  "held-out evaluation, as OUT with .stepN before .safetensors: one run gives "
                  "the models of several training lengths (the schedule does not depend on "
                  "--steps unless it is linear)")
        ->delimiter(',')
        ->check(integerIn(1));
    auto* select =
        oneOf(c->add_option("--select-on", m_spec.selectOn,
                            "Early stopping: OUT is the model of the evaluation (every "
                            "--eval-every steps) with the best held-out " +
                                alternatives(selectionMetricNames()) +
                                " (bleu: seq2seq), its step recorded in its training metadata"),
              selectionMetricNames);
    c->add_option("--patience", m_spec.patience,
                  "With --select-on: stop after this many evaluations in a row without a "
                  "better one (0: train every step)")
        ->check(integerIn(0))
        ->needs(select);
    c->add_flag("--watch-test", m_spec.watchTest,
                "Image task: evaluate its test split too at every --eval-every evaluation, "
                "logged as \"test\" beside \"held_out\" (--log): the test metric's curve over "
                "training. Nothing is chosen on it: --select-on and --patience read the "
                "held-out set only")
        ->needs(task);
    input(c->add_option("--watch", m_spec.watch,
                        "Data: as --watch-test, with this file (--data's format) as the test set"))
        ->check(CLI::ExistingFile)
        ->needs(data);
    c->add_option("--watch-count", m_spec.watchCount,
                  "With --watch-test or --watch: its first N examples (0: all)")
        ->capture_default_str()
        ->check(integerIn(0, kMaxExampleCount));
    output(c->add_option("--state", m_state,
                         "Keep the run's state (model, optimiser, best evaluation so far) in "
                         "this file at every evaluation and when stopped; when the file "
                         "exists, continue from it (the same options), with the same result "
                         "as a run never stopped"));
    return c;
}

std::vector<NamedPath> TrainCommand::derivedOutputs() const {
    std::vector<NamedPath> files;
    if (m_out.empty()) return files;
    for (const int step : m_saveAt) files.push_back({"--save-at", snapshotPath(m_out, step)});
    if (!m_spec.probeSource.empty() || m_spec.probeEvery > 0)
        files.push_back({"the probe file", probePathFor(m_out)});
    return files;
}

void TrainCommand::run(const Context& ctx) {
    g_stop = false;
    const InterruptWatcher interrupts(g_stop);  // before the trainer starts its threads
    if (!m_preset.empty()) {
        const std::vector<Preset> presets = loadPresets(presetDirectory());
        const nlohmann::json size =
            m_size.empty() ? nlohmann::json::object()
                           : parseJson(readTextFile(m_size, kMaxConfigBytes, "'" + m_size + "'"),
                                       "'" + m_size + "'");
        m_spec.configJson = presetConfig(findPreset(presets, m_preset), size,
                                         m_spec.task == "lm" || m_languageModel);
    }
    if (m_spec.config.empty() && m_spec.init.empty() && m_preset.empty())
        throw Error("train needs --config, --preset or --init");
    if (m_spec.task.empty() && m_spec.data.empty()) throw Error("train needs --task or --data");
    m_spec.train.shuffle = !m_noShuffle;
    if (!m_spec.probeSource.empty() && m_spec.probeEvery == 0) m_spec.probeEvery = 100;
    if (m_probeTarget->count()) {
        if (m_spec.probeSource.empty()) throw Error("--probe-target needs --probe");
        m_spec.probeTarget = m_probeTargetText;
    }
    m_spec.name = std::filesystem::path(m_out).filename().string();
    const std::string probePath = probePathFor(m_out);
    // Before any work: a run of hours must not fail at its last step for a bad path. (That
    // no output is an input, nor another output, cli.cpp has checked.)
    checkOutputPath(m_out);
    if (!m_log.empty()) checkOutputPath(m_log, "--log");
    std::sort(m_saveAt.begin(), m_saveAt.end());
    m_saveAt.erase(std::unique(m_saveAt.begin(), m_saveAt.end()), m_saveAt.end());
    if (!m_saveAt.empty() && m_saveAt.back() >= m_spec.train.steps)
        throw Error("--save-at " + std::to_string(m_saveAt.back()) + " is not below --steps " +
                    std::to_string(m_spec.train.steps) + " (the last step's checkpoint is --out)");
    if (!m_saveAt.empty() && m_spec.train.schedule == "linear")
        throw Error(
            "--save-at with --schedule linear: the learning rate depends on --steps, "
            "so a kept step is not the model of a run that long");
    for (const int step : m_saveAt) checkOutputPath(snapshotPath(m_out, step), "--save-at");
    if (m_spec.probeEvery > 0) checkOutputPath(probePath, "the probe file");
    if (!m_state.empty()) checkOutputPath(m_state, "--state");
    TrainingJob job(m_spec);
    const bool resumed = !m_state.empty() && std::filesystem::exists(m_state);
    if (resumed) {
        job.resume(m_state);
        ctx.err << "attnviz-cli: continuing from step " << job.stepsDone() << " of "
                << m_spec.train.steps << " (" << m_state << ")\n";
    }
    // The probe file, rewritten atomically at every snapshot: readable while training runs.
    auto writeProbe = [&] {
        if (job.probe())
            writeFileAtomically(probePath, probeJson(job.probe()->record(), job.model().config()));
    };
    writeProbe();
    for (const auto& n : job.notes()) ctx.err << "attnviz-cli: note: " << n << "\n";
    std::ofstream log;
    if (!m_log.empty()) {
        log.open(m_log, std::ios::trunc);
        if (!log) throw Error("cannot write the log '" + m_log + "'");
    }
    ProgressPrinter printer(ctx.err, ctx.errIsTty, m_spec.train.steps);
    int diverged = 0;
    const int steps = job.run(
        [&](const Progress& p) {
            if (!std::isfinite(p.stats.loss) && !diverged) {
                diverged = p.stats.step;
                g_stop = true;
            }
            printer(p);
            if (log) log << jsonText(logLine(p)) << "\n" << std::flush;
            if (p.probe) writeProbe();
            if (p.eval && !m_state.empty()) job.saveState(m_state);
            if (std::binary_search(m_saveAt.begin(), m_saveAt.end(), p.stats.step)) {
                // As at the end of a run that long: evaluated, its metadata, written atomically
                // (the evaluation draws no random numbers, so the run goes on unchanged).
                job.finish(job.evaluateHeldOut(true), false);
                const std::string path = snapshotPath(m_out, p.stats.step);
                job.model().save(path);
                ctx.err << "attnviz-cli: wrote " << path << "\n";
            }
        },
        &g_stop);
    if (diverged) {
        throw Error("training diverged: the loss is not finite at step " +
                    std::to_string(diverged) + "; no checkpoint written to '" + m_out +
                    "' (lower --lr or set --clip)");
    }
    if (!m_state.empty()) job.saveState(m_state);  // an interrupted run goes on from here
    const bool patience = job.patienceRanOut();
    const bool stopped = steps < m_spec.train.steps && !patience;
    if (stopped) printer.interrupted(steps);
    if (patience)
        ctx.err << "attnviz-cli: stopped after step " << steps << ": " << m_spec.patience
                << " evaluations without a better held-out " << m_spec.selectOn << "\n";
    job.useBest();
    const Evaluation ev = job.evaluateHeldOut(!stopped);
    job.finish(ev, stopped);
    job.model().save(m_out);
    ctx.out << "wrote " << m_out << " after " << steps << " steps; ";
    if (job.bestStep() > 0)
        ctx.out << "the model of step " << job.bestStep() << ", chosen on held-out "
                << m_spec.selectOn << "; ";
    if (ev.sentences > 0)
        ctx.out << "held-out " << jsonText(ev.toJson()) << "\n";
    else  // say so rather than print zeros that read like results
        ctx.out << "no held-out set: no example was held out (data files: every 20th line is, "
                   "so give more lines or --dev FILE)\n";
    if (job.probe())
        ctx.out << "wrote " << probePath << " (" << job.probe()->record().snapshots.size()
                << " snapshots of the probe's attention)\n";
}

}  // namespace

std::unique_ptr<Command> makeTrainCommand() {
    return std::make_unique<TrainCommand>();
}

}  // namespace attnviz::cli
