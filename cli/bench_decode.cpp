// SPDX-License-Identifier: GPL-3.0-or-later
// attnviz-cli bench decode: greedy decoding of a fixed-length output, per variant, with
// cached keys and values (one position per step) beside the reference that runs the whole
// prefix through the decoder at every step, in the same run.
#include <algorithm>
#include <chrono>
#include <ostream>

#include "command.h"
#include "core/error.h"
#include "core/input_limits.h"
#include "core/model.h"
#include "core/rng.h"

namespace attnviz::cli {
namespace {

using nlohmann::json;

class BenchDecodeCommand : public Command {
public:
    CLI::App* add(CLI::App& parent) override;
    void run(const Context& ctx) override;

private:
    std::string m_config, m_variant = "all";
    std::vector<int> m_lengths{16, 64};
    int m_repeat = 5, m_batch = 1, m_source = 32;
    uint64_t m_seed = 1;
};

CLI::App* BenchDecodeCommand::add(CLI::App& parent) {
    auto* c = parent.add_subcommand(
        "decode", "Time greedy decoding: cached keys and values vs the whole prefix each step");
    input(c->add_option("--config", m_config,
                        "Base configuration (default: d_model 64, 4 heads, 2+2 layers)"))
        ->check(CLI::ExistingFile);
    oneOf(c->add_option("--variant", m_variant, "Variant for every block, or 'all'"), [] {
        auto names = variantNames();
        names.insert(names.begin(), "all");
        return names;
    })->capture_default_str();
    c->add_option("--len", m_lengths, "Output lengths (tokens, <eos> never chosen)")
        ->capture_default_str()
        ->check(integerIn(1, 8191));
    c->add_option("--source", m_source, "Source length (tokens)")
        ->capture_default_str()
        ->check(integerIn(1, 100000));
    c->add_option("--batch", m_batch, "Sources decoded together")
        ->capture_default_str()
        ->check(integerIn(1, 4096));
    c->add_option("--repeat", m_repeat, "Timed runs per case")
        ->capture_default_str()
        ->check(integerIn(1, 100000));
    c->add_option("--seed", m_seed, "Random seed")->capture_default_str()->check(nonNegative());
    return c;
}

void BenchDecodeCommand::run(const Context& ctx) {
    json base = m_config.empty()
                    ? json{{"arch", "seq2seq"}, {"d_model", 64},   {"heads", 4},
                           {"d_ff", 256},       {"enc_layers", 2}, {"dec_layers", 2}}
                    : parseJson(readTextFile(m_config, kMaxConfigBytes, "configuration"),
                                "'" + m_config + "'");
    for (int n : m_lengths)
        if (n < 1) throw Error("--len must be at least 1");
    const int longest = *std::max_element(m_lengths.begin(), m_lengths.end());
    json results = json::array();
    for (const auto& v : allVariants()) {
        if (m_variant != "all" && m_variant != v.name) continue;
        json block = v.example;
        block["variant"] = v.name;
        json cj = base;
        cj["max_len"] = std::max({cj.value("max_len", 64), longest + 1, m_source + 1});
        cj["encoder_self"] = block;
        cj["decoder_self"] = block;
        cj["cross"] = block;
        const ModelConfig cfg = ModelConfig::fromJson(cj);
        if (!cfg.hasEncoder()) throw Error("bench decode needs a seq2seq configuration");
        Vocab vocab = Vocab::fromWords(builtinEnglishWords());
        Model m = Model::initialize(cfg, vocab, vocab, Tokenizer(true), m_seed);
        Rng rng(m_seed);
        std::vector<std::vector<int>> sources(size_t(m_batch),
                                              std::vector<int>(size_t(m_source), 0));
        for (auto& s : sources)
            for (auto& x : s) x = 4 + static_cast<int>(rng.below(uint64_t(vocab.size() - 4)));
        for (int n : m_lengths) {
            Model::DecodeOptions o;
            o.maxTokens = n;
            o.stopAtEos = false;
            auto time = [&](bool incremental, std::vector<std::vector<int>>* out) {
                o.incremental = incremental;
                *out = m.greedyDecode(sources, o);  // warm-up
                std::vector<double> ms;
                for (int r = 0; r < m_repeat; ++r) {
                    const auto t0 = std::chrono::steady_clock::now();
                    *out = m.greedyDecode(sources, o);
                    const auto t1 = std::chrono::steady_clock::now();
                    ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
                }
                std::sort(ms.begin(), ms.end());
                return ms[ms.size() / 2];
            };
            std::vector<std::vector<int>> fast, full;
            const double cached = time(true, &fast), recompute = time(false, &full);
            results.push_back({{"variant", v.name},
                               {"tokens", n},
                               {"ms_median_cached", cached},
                               {"ms_median_whole_prefix", recompute},
                               {"speedup", recompute / cached},
                               {"same_output", fast == full},
                               {"runs", m_repeat}});
        }
    }
    if (results.empty()) variantInfo(m_variant);  // Error listing the variants
    json j{{"benchmark", "decode"},
           {"what",
            "greedy decoding of outputs of the given length (<eos> never chosen) for a batch "
            "of random sources; cached: one new position per step (keys and values of earlier "
            "positions kept); whole_prefix: the decoder runs the whole prefix at every step"},
           {"base_config", base},
           {"source_tokens", m_source},
           {"batch", m_batch},
           {"results", results}};
    ctx.out << jsonText(j, 2) << '\n';
}

}  // namespace

std::unique_ptr<Command> makeBenchDecodeCommand() {
    return std::make_unique<BenchDecodeCommand>();
}

}  // namespace attnviz::cli
