// SPDX-License-Identifier: GPL-3.0-or-later
// attnviz-cli bench forward: the time of a forward pass with capture, per variant and length.
#include <algorithm>
#include <chrono>
#include <ostream>

#include "command.h"
#include "core/error.h"
#include "core/input_limits.h"
#include "core/model.h"
#include "core/rng.h"
#include "core/safetensors.h"

namespace attnviz::cli {
namespace {

using nlohmann::json;

class BenchForwardCommand : public Command {
public:
    CLI::App* add(CLI::App& parent) override;
    void run(const Context& ctx) override;

private:
    std::string m_config, m_variant = "all";
    std::vector<int> m_lengths{16, 64, 256};
    int m_repeat = 20;
    uint64_t m_seed = 1;
    bool m_noCapture = false;
};

// Variants benchmarked by "--variant all" (every registered one with its example
// options), as config blocks.
std::vector<std::pair<std::string, json>> benchVariants(const std::string& which) {
    std::vector<std::pair<std::string, json>> all;
    for (const auto& v : allVariants()) {
        json block = v.example;
        block["variant"] = v.name;
        if (which == "all" || which == v.name) all.emplace_back(v.name, block);
    }
    if (all.empty()) variantInfo(which);  // Error listing the variants
    return all;
}

CLI::App* BenchForwardCommand::add(CLI::App& parent) {
    auto* c = parent.add_subcommand("forward", "Time a forward pass (with capture unless told)");
    input(c->add_option("--config", m_config,
                        "Base configuration (default: d_model 64, 4 heads, 2+2 layers)"))
        ->check(CLI::ExistingFile);
    oneOf(c->add_option("--variant", m_variant, "Variant for every block, or 'all'"), [] {
        auto names = variantNames();
        names.insert(names.begin(), "all");
        return names;
    })->capture_default_str();
    c->add_option("--len", m_lengths, "Sequence lengths (positions)")
        ->capture_default_str()
        ->check(integerIn(1, 8191));
    c->add_option("--repeat", m_repeat, "Timed runs per case")
        ->capture_default_str()
        ->check(integerIn(1, 100000));
    c->add_option("--seed", m_seed, "Random seed")->capture_default_str()->check(nonNegative());
    c->add_flag("--no-capture", m_noCapture,
                "Without capturing the weights (Gaussian blocks then run banded where the window "
                "holds at most 1 in 10 keys)");
    return c;
}

void BenchForwardCommand::run(const Context& ctx) {
    json base = m_config.empty()
                    ? json{{"arch", "seq2seq"}, {"d_model", 64},   {"heads", 4},
                           {"d_ff", 256},       {"enc_layers", 2}, {"dec_layers", 2}}
                    : parseJson(readTextFile(m_config, kMaxConfigBytes, "configuration"),
                                "'" + m_config + "'");
    const int longest = *std::max_element(m_lengths.begin(), m_lengths.end());
    json results = json::array();
    for (const auto& [label, block] : benchVariants(m_variant)) {
        json cj = base;
        cj["max_len"] = std::max(cj.value("max_len", 64), longest);
        cj["encoder_self"] = block;
        cj["decoder_self"] = block;
        cj["cross"] = block;
        const ModelConfig cfg = ModelConfig::fromJson(cj);
        Vocab vocab = Vocab::fromWords(builtinEnglishWords());
        Model m = Model::initialize(cfg, vocab, vocab, Tokenizer(true), m_seed);
        for (int n : m_lengths) {
            if (n < 2) throw Error("--len must be at least 2");
            Rng rng(m_seed + static_cast<uint64_t>(n));
            std::vector<int> s(size_t(n - 1)), t(size_t(n - 1));
            for (auto& x : s) x = 4 + static_cast<int>(rng.below(uint64_t(vocab.size() - 4)));
            for (auto& x : t) x = 4 + static_cast<int>(rng.below(uint64_t(vocab.size() - 4)));
            const Batch b = cfg.hasEncoder() ? Batch::make({s}, {t}) : Batch::make({}, {t});
            const bool capture = !m_noCapture;
            m.setBanded(m_noCapture);
            m.forward(b, capture);  // warm-up
            std::vector<double> ms;
            for (int r = 0; r < m_repeat; ++r) {
                const auto t0 = std::chrono::steady_clock::now();
                const ForwardResult res = m.forward(b, capture);
                const auto t1 = std::chrono::steady_clock::now();
                if (capture && res.blocks.empty()) throw Error("no attention captured");
                ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
            }
            std::sort(ms.begin(), ms.end());
            results.push_back({{"variant", label},
                               {"tokens", n},
                               {"ms_median", ms[ms.size() / 2]},
                               {"ms_min", ms.front()},
                               {"attention_kib", double(m.attentionBytes()) / 1024.0},
                               {"runs", m_repeat}});
        }
    }
    json j{{"benchmark", "forward"},
           {"what", std::string("one forward pass ") +
                        (m_noCapture ? "without capture (Gaussian blocks banded where the window "
                                       "holds at most 1 in 10 keys)"
                                     : "with capture of every block's weights") +
                        ", batch 1, source and target both of the given number of positions; "
                        "attention_kib: weights and logits the blocks hold afterwards"},
           {"capture", !m_noCapture},
           {"base_config", base},
           {"results", results}};
    ctx.out << jsonText(j, 2) << '\n';
}

}  // namespace

std::unique_ptr<Command> makeBenchForwardCommand() {
    return std::make_unique<BenchForwardCommand>();
}

}  // namespace attnviz::cli
