// SPDX-License-Identifier: GPL-3.0-or-later
#include "train.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "core/config.h"
#include "core/data.h"
#include "core/error.h"
#include "core/thread_pool.h"

namespace attnviz::cli {
namespace {

using nlohmann::json;

std::atomic<bool> g_stop{false};
extern "C" void onInterrupt(int) {
    g_stop = true;
}

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

// Floating-point operations of one training step (forward and backward, matrix products
// only; backward counted as twice the forward). N = B*T rows.
double trainingFlops(const ModelConfig& c, int B, int Ts, int Tt, int V) {
    const double d = c.dModel, f = c.dFf;
    auto block = [&](const BlockConfig& bc, double Tq, double Tk) {
        double fl = 2 * B * Tk * d * d + 2 * B * Tq * d * d + 2 * B * Tq * Tk * d;  // V, out, AV
        if (const auto& score = variantInfo(bc.variant).scoreFlops) fl += B * score(bc, Tq, Tk, d);
        return fl;
    };
    auto ffn = [&](double T) { return 4 * B * T * d * f; };
    double fwd = 0;
    if (c.hasEncoder())
        for (int i = 0; i < c.encLayers; ++i) fwd += block(c.encoderSelf, Ts, Ts) + ffn(Ts);
    for (int i = 0; i < c.decLayers; ++i) {
        fwd += block(c.decoderSelf, Tt, Tt) + ffn(Tt);
        if (c.hasCross(i)) fwd += block(c.cross, Tt, Ts);
    }
    fwd += 2.0 * B * Tt * d * V;
    return 3 * fwd;
}

// Eigen's rate on a large single-precision matrix product, one product per thread at once.
double eigenGemmGflops(int threads) {
    const int n = 1024;
    ThreadPool pool(threads);
    std::vector<Mat> a(size_t(threads), Mat::Random(n, n)), b(size_t(threads), Mat::Random(n, n)),
        c(size_t(threads), Mat(n, n));
    double best = 0;
    for (int rep = 0; rep < 4; ++rep) {
        const auto t0 = std::chrono::steady_clock::now();
        pool.run(threads, [&](int k) { c[size_t(k)].noalias() = a[size_t(k)] * b[size_t(k)]; });
        const double s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        best = std::max(best, 2.0 * n * n * n * threads / s / 1e9);
    }
    return best;
}

}  // namespace

void TrainCommands::add(CLI::App& app, CLI::App& bench) {
    TrainOptions& t = m_spec.train;
    m_train = app.add_subcommand("train", "Train a model on a built-in task or your data");
    auto* cfg = m_train->add_option("--config", m_spec.config, "Model configuration (JSON)")
                    ->check(CLI::ExistingFile);
    auto* init = m_train
                     ->add_option("--init", m_spec.init,
                                  "Start from this checkpoint (its config and vocabularies)")
                     ->check(CLI::ExistingFile);
    cfg->excludes(init);
    auto* task = m_train->add_option("--task", m_spec.task,
                                     "Built-in task: copy, reverse, sort, translate, lm");
    auto* data =
        m_train
            ->add_option(
                "--data", m_spec.data,
                "TSV of source<TAB>target (seq2seq) or text, one sentence per line (decoder-only)")
            ->check(CLI::ExistingFile);
    task->excludes(data);
    m_train->add_option("--steps", t.steps, "Optimisation steps")->capture_default_str();
    m_train->add_option("--out", m_out, "Output checkpoint (.safetensors, written atomically)")
        ->required();
    m_train->add_option("--seed", t.seed, "Seed for initialisation, data order and dropout")
        ->capture_default_str();
    m_train->add_option("--threads", t.threads, "Threads (data-parallel)")->capture_default_str();
    m_train->add_option("--batch-size", t.batchSize, "Sequences per step")->capture_default_str();
    m_train->add_option("--lr", t.lr, "Peak learning rate")->capture_default_str();
    m_train->add_option("--optimizer", t.optimizer, "sgd or adam")->capture_default_str();
    m_train->add_option("--weight-decay", t.weightDecay, "AdamW decoupled weight decay")
        ->capture_default_str();
    m_train->add_option("--schedule", t.schedule, "constant, inverse-sqrt or linear")
        ->capture_default_str();
    m_train->add_option("--warmup", t.warmup, "Linear warm-up steps")->capture_default_str();
    m_train->add_option("--dropout", t.dropout, "Dropout rate")->capture_default_str();
    m_train->add_option("--label-smoothing", t.labelSmoothing, "Label smoothing")
        ->capture_default_str();
    m_train->add_option("--clip", t.clip, "Maximum global gradient norm (0 = off)")
        ->capture_default_str();
    m_train->add_flag("--no-shuffle", m_noShuffle, "Data in file order, no length bucketing");
    m_train
        ->add_option("--eval-every", m_spec.evalEvery, "Held-out loss and accuracy every N steps")
        ->capture_default_str();
    m_train->add_option("--held-out", m_spec.heldOutCount, "Task: held-out examples")
        ->capture_default_str();
    m_train
        ->add_option("--vocab-size", m_spec.vocabSize,
                     "Data: vocabulary cap per side (specials included)")
        ->capture_default_str();
    m_train->add_flag("--case-sensitive", m_spec.caseSensitive, "Data: do not lowercase");
    m_train->add_option("--log", m_log,
                        "Write one JSON line per step (and evaluation) to this file");

    m_eval = app.add_subcommand("eval", "Held-out metrics of a checkpoint as JSON");
    m_eval->add_option("--model", m_model, "Checkpoint (.safetensors)")->required();
    auto* et = m_eval->add_option("--task", m_evalTask, "Built-in task");
    auto* ed =
        m_eval->add_option("--data", m_evalData, "TSV or text file")->check(CLI::ExistingFile);
    et->excludes(ed);
    m_eval->add_option("--count", m_count, "Task: examples")->capture_default_str();
    m_eval
        ->add_option("--seed", m_evalSeed, "Task: seed of the held-out examples (as train --seed)")
        ->capture_default_str();
    m_eval->add_option("--batch-size", m_evalBatch, "Sequences per batch")->capture_default_str();
    m_eval->add_flag("--no-decode", m_noDecode, "Skip greedy decoding (no BLEU, no exact match)");

    m_bleu = app.add_subcommand("bleu", "Corpus BLEU of hypotheses against references (JSON)");
    m_bleu->add_option("--hyp", m_hyp, "Hypotheses, one per line (tokens separated by spaces)")
        ->required()
        ->check(CLI::ExistingFile);
    m_bleu->add_option("--ref", m_ref, "References, one per line, same order")
        ->required()
        ->check(CLI::ExistingFile);

    m_bench = bench.add_subcommand("train", "Time Adam training steps (JSON)");
    m_bench->add_option("--config", m_benchConfig, "Model configuration (JSON)")
        ->required()
        ->check(CLI::ExistingFile);
    m_bench->add_option("--batch-size", m_benchBatch, "Sequences per step")->capture_default_str();
    m_bench->add_option("--seq-len", m_benchLen, "Source and target positions")
        ->capture_default_str();
    m_bench->add_option("--steps", m_benchSteps, "Timed steps")->capture_default_str();
    m_bench->add_option("--threads", m_benchThreads, "Threads")->capture_default_str();
    m_bench->add_option("--vocab", m_benchVocab, "Vocabulary size")->capture_default_str();
}

void TrainCommands::run(std::ostream& out, std::ostream& err, bool tty) {
    if (*m_train) {
        if (m_spec.config.empty() && m_spec.init.empty())
            throw Error("train needs --config or --init");
        if (m_spec.task.empty() && m_spec.data.empty()) throw Error("train needs --task or --data");
        m_spec.train.shuffle = !m_noShuffle;
        TrainingJob job(m_spec);
        for (const auto& n : job.notes()) err << "attnviz-cli: note: " << n << "\n";
        std::ofstream log;
        if (!m_log.empty()) {
            log.open(m_log, std::ios::trunc);
            if (!log) throw Error("cannot write the log '" + m_log + "'");
        }
        ProgressPrinter printer(err, tty, m_spec.train.steps);
        g_stop = false;
        auto previous = std::signal(SIGINT, onInterrupt);
        int steps = 0;
        try {
            steps = job.run(
                [&](const Progress& p) {
                    printer(p);
                    if (log) {
                        json j{{"step", p.stats.step},
                               {"loss", p.stats.loss},
                               {"nll", p.stats.nll},
                               {"accuracy", p.stats.accuracy},
                               {"lr", p.stats.lr},
                               {"grad_norm", p.stats.gradNorm},
                               {"tokens_per_s", p.tokensPerSecond},
                               {"elapsed_s", p.elapsedSeconds}};
                        if (p.eval) j["held_out"] = p.eval->toJson();
                        log << j.dump() << "\n" << std::flush;
                    }
                },
                &g_stop);
        } catch (...) {
            std::signal(SIGINT, previous);
            throw;
        }
        std::signal(SIGINT, previous);
        const bool stopped = steps < m_spec.train.steps;
        if (stopped) printer.interrupted(steps);
        const Evaluation ev = job.evaluateHeldOut(!stopped);
        job.finish(ev, stopped);
        job.model().save(m_out);
        out << "wrote " << m_out << " after " << steps << " steps; held-out " << ev.toJson().dump()
            << "\n";
        return;
    }
    if (*m_eval) {
        if (m_evalTask.empty() == m_evalData.empty()) throw Error("eval needs --task or --data");
        Model model = Model::load(m_model);
        std::vector<Example> examples;
        json j{{"model", m_model}};
        if (!m_evalTask.empty()) {
            const auto task = makeTask(m_evalTask);
            examples = taskHeldOut(*task, m_evalSeed, m_count);
            j["task"] = m_evalTask;
        } else {
            const int limit = std::min(model.config().maxLen, Model::kMaxTokens) - 1;
            const LoadedData d =
                loadData(m_evalData, model.config().hasEncoder(), model.tokenizer(), limit);
            if (!d.skipped.empty())
                err << "attnviz-cli: note: " << m_evalData << ": " << describeSkipped(d) << "\n";
            examples = d.examples;
            j["data"] = m_evalData;
        }
        j["metrics"] = evaluate(model, examples, EvalOptions{m_evalBatch, !m_noDecode}).toJson();
        out << j.dump(2) << "\n";
        return;
    }
    if (*m_bleu) {
        // Lines split on spaces: the files are already tokenized (as the outputs of decoding).
        auto read = [](const std::string& path) {
            std::vector<Tokens> lines;
            std::istringstream in(readTextFile(path));
            std::string line;
            while (std::getline(in, line)) {
                if (!line.empty() && line.back() == '\r') line.pop_back();
                std::istringstream words(line);
                Tokens t;
                for (std::string w; words >> w;) t.push_back(w);
                lines.push_back(std::move(t));
            }
            return lines;
        };
        const auto h = read(m_hyp), r = read(m_ref);
        if (h.size() != r.size()) {
            throw Error(std::to_string(h.size()) + " hypotheses but " + std::to_string(r.size()) +
                        " references");
        }
        const Bleu b = corpusBleu(h, r);
        out << json{{"bleu", b.score},
                    {"precisions",
                     {b.precisions[0], b.precisions[1], b.precisions[2], b.precisions[3]}},
                    {"brevity_penalty", b.brevityPenalty},
                    {"hyp_length", b.hypLength},
                    {"ref_length", b.refLength}}
                   .dump(2)
            << "\n";
        return;
    }
    if (*m_bench) {
        const ModelConfig cfg = ModelConfig::fromFile(m_benchConfig);
        if (m_benchLen < 2 || m_benchBatch < 1 || m_benchSteps < 1)
            throw Error("bench train needs --seq-len >= 2, --batch-size >= 1, --steps >= 1");
        std::vector<std::string> words;
        for (int i = 0; i < m_benchVocab - 4; ++i) words.push_back("w" + std::to_string(i));
        const Vocab vocab = Vocab::fromWords(words);
        Model model = Model::initialize(cfg, vocab, vocab, Tokenizer(true), 1);
        TrainOptions o;
        o.threads = m_benchThreads;
        o.batchSize = m_benchBatch;
        o.dropout = 0;
        o.labelSmoothing = 0;
        o.steps = m_benchSteps;
        o.warmup = 0;
        Trainer trainer(model, o);
        Rng rng(7);
        // Sequences of T positions: T-1 tokens plus <eos> (source) or <bos> (target).
        auto batch = [&] {
            std::vector<Example> b(static_cast<size_t>(m_benchBatch));
            for (auto& e : b) {
                for (int i = 0; i < m_benchLen - 1; ++i) {
                    if (cfg.hasEncoder()) e.src.push_back(words[rng.below(words.size())]);
                    e.tgt.push_back(words[rng.below(words.size())]);
                }
            }
            return b;
        };
        for (int i = 0; i < 3; ++i) trainer.step(batch());  // warm-up
        std::vector<double> ms;
        for (int i = 0; i < m_benchSteps; ++i) {
            const auto b = batch();
            const auto t0 = std::chrono::steady_clock::now();
            trainer.step(b);
            ms.push_back(
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                    .count());
        }
        std::sort(ms.begin(), ms.end());
        const double median = ms[ms.size() / 2];
        const double flops = trainingFlops(cfg, m_benchBatch, m_benchLen, m_benchLen, vocab.size());
        const double gemm = eigenGemmGflops(m_benchThreads);
        const double tokens = (cfg.hasEncoder() ? 2.0 : 1.0) * m_benchBatch * m_benchLen;
        const double gflops = flops / (median / 1000.0) / 1e9;
        json j{{"benchmark", "train"},
               {"config", cfg.toJson()},
               {"batch_size", m_benchBatch},
               {"seq_len", m_benchLen},
               {"vocab", vocab.size()},
               {"threads", m_benchThreads},
               {"optimizer", "adam"},
               {"steps", m_benchSteps},
               {"ms_per_step", median},
               {"ms_min", ms.front()},
               {"tokens_per_s", tokens / (median / 1000.0)},
               {"gflop_per_step", flops / 1e9},
               {"gflops", gflops},
               {"eigen_gemm_gflops", gemm},
               {"fraction_of_gemm", gflops / gemm},
               {"what",
                "median wall time of an Adam step (forward, backward, update), no dropout; "
                "tokens = source + target positions; FLOPs = matrix products only, backward = 2x "
                "forward; "
                "eigen_gemm_gflops = 1024^3 float products, one per thread at once"}};
        out << j.dump(2) << "\n";
    }
}

}  // namespace attnviz::cli
