// SPDX-License-Identifier: GPL-3.0-or-later
// attnviz-cli bench analyze: the time of one head's statistics (core/head_stats.h), above all
// its Gaussian fit, which the Heads and Offset profiles docks compute for every head on every
// edit: per head, at the lengths a person types.
#include <algorithm>
#include <chrono>
#include <ctime>
#include <iterator>
#include <ostream>
#include <set>
#include <sstream>

#include "command.h"
#include "core/error.h"
#include "core/head_stats.h"
#include "core/input_limits.h"
#include "core/workspace.h"

namespace attnviz::cli {
namespace {

using nlohmann::json;

class BenchAnalyzeCommand : public Command {
public:
    CLI::App* add(CLI::App& parent) override;
    void run(const Context& ctx) override;

private:
    std::string m_models;
    std::vector<int> m_lengths{12, 47, 256};
    int m_repeat = 5;
};

// This thread's CPU time in ms: what the work costs, whatever else the machine is doing.
double cpuMs() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e3 + double(t.tv_nsec) / 1e6;
}

// A sentence of n words from the translate task's English (as attnviz-ui-bench types).
std::string sentence(int n) {
    static const char* words[] = {"i",       "want", "to",     "go",      "to",  "the", "station",
                                  "because", "she",  "says",   "that",    "the", "old", "man",
                                  "reads",   "a",    "new",    "book",    "in",  "the", "park",
                                  "with",    "my",   "friend", "today",   "and", "we",  "walk",
                                  "to",      "the",  "city",   "tomorrow"};
    std::string out;
    for (int i = 0; i < n; ++i)
        out += (i ? " " : "") + std::string(words[size_t(i) % std::size(words)]);
    return out;
}

CLI::App* BenchAnalyzeCommand::add(CLI::App& parent) {
    auto* c = parent.add_subcommand(
        "analyze", "Time each head's statistics and Gaussian fit (what the Heads dock shows)");
    input(
        c->add_option("--models", m_models, "Checkpoint folder (default: the bundled default set)"))
        ->check(CLI::ExistingDirectory);
    c->add_option("--len", m_lengths, "Sentence lengths in words")
        ->capture_default_str()
        ->check(integerIn(2, 1000));
    c->add_option("--repeat", m_repeat, "Timed runs per case")
        ->capture_default_str()
        ->check(integerIn(1, 1000));
    return c;
}

void BenchAnalyzeCommand::run(const Context& ctx) {
    std::vector<std::string> problems;
    const std::vector<ModelColumn> trained =
        loadModelDirectory(m_models.empty() ? bundledModelDirectory() : m_models, &problems);
    if (trained.empty()) throw Error("no model could be opened in the folder");
    json results = json::array();
    for (int n : m_lengths) {
        const std::string text = sentence(n);
        // Trained models that take the sentence, else untrained ones that do.
        Results runs = analyzeAll(trained, text, text);
        bool untrained = std::none_of(runs.begin(), runs.end(),
                                      [](const ColumnResult& r) { return r.error.empty(); });
        if (untrained) {  // the presets at max_len n + 4, as attnviz-ui-bench does at 256
            std::istringstream in(sentence(32));
            const std::set<std::string> words{std::istream_iterator<std::string>(in), {}};
            runs = analyzeAll(untrainedPresetColumns({"dot", "random", "hc-sa", "local"}, n + 4,
                                                     {words.begin(), words.end()}),
                              text, text);
        }
        std::vector<std::pair<const Mat*, bool>> heads;  // every head of every model that ran
        int models = 0, tokens = 0;
        for (const ColumnResult& r : runs) {
            if (!r.error.empty()) continue;
            ++models;
            for (const CapturedBlock& b : r.analysis.blocks) {
                tokens = std::max(tokens, int(b.weights.empty() ? 0 : b.weights[0].cols()));
                for (const Mat& w : b.weights)
                    heads.emplace_back(&w, b.kind == BlockKind::DecoderSelf);
            }
        }
        if (heads.empty()) throw Error("no model could analyse " + std::to_string(n) + " words");
        std::vector<double> statsMs, fitMs, fitCpu;
        for (int rep = 0; rep < m_repeat + 1; ++rep) {  // the first run warms up
            double stats = 0, fit = 0, cpu = 0;
            for (const auto& [w, causal] : heads) {
                const auto t0 = std::chrono::steady_clock::now();
                const HeadStats s = headStats({{w, causal}});
                const auto t1 = std::chrono::steady_clock::now();
                const double c0 = cpuMs();
                const GaussianFit f = fitGaussian({{w, causal}});
                const double c1 = cpuMs();
                const auto t2 = std::chrono::steady_clock::now();
                if (f.offset != s.fit.offset) throw Error("the fit is not deterministic");
                stats += std::chrono::duration<double, std::milli>(t1 - t0).count();
                fit += std::chrono::duration<double, std::milli>(t2 - t1).count();
                cpu += c1 - c0;
            }
            if (rep == 0) continue;
            statsMs.push_back(stats / double(heads.size()));
            fitMs.push_back(fit / double(heads.size()));
            fitCpu.push_back(cpu / double(heads.size()));
        }
        std::sort(statsMs.begin(), statsMs.end());
        std::sort(fitMs.begin(), fitMs.end());
        std::sort(fitCpu.begin(), fitCpu.end());
        results.push_back({{"words", n},
                           {"tokens", tokens},
                           {"models", untrained ? "untrained presets" : "trained"},
                           {"model_count", models},
                           {"heads", int(heads.size())},
                           {"ms_per_head_stats_median", statsMs[statsMs.size() / 2]},
                           {"ms_per_head_fit_median", fitMs[fitMs.size() / 2]},
                           {"ms_per_head_fit_min", fitMs.front()},
                           {"cpu_ms_per_head_fit_median", fitCpu[fitCpu.size() / 2]},
                           {"runs", m_repeat}});
    }
    ctx.out << jsonText(
                   json{{"benchmark", "analyze"},
                        {"what",
                         "per head, one sentence: headStats (entropy, confidence, distance and "
                         "the Gaussian fit) and fitGaussian alone, single-threaded, wall clock "
                         "and this thread's CPU time; tokens: the most keys of any head"},
                        {"results", results}},
                   2)
            << '\n';
}

}  // namespace

std::unique_ptr<Command> makeBenchAnalyzeCommand() {
    return std::make_unique<BenchAnalyzeCommand>();
}

}  // namespace attnviz::cli
