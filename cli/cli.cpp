// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "core/dump.h"
#include "core/error.h"
#include "core/model.h"
#include "core/rng.h"
#include "core/safetensors.h"
#include "train.h"
#ifdef ATTNVIZ_RENDER
#include "render.h"
#endif
#include <unistd.h>

namespace attnviz::cli {
namespace {

using nlohmann::json;

void writeOutput(const std::string& path, const std::string& text, std::ostream& out) {
    if (path.empty() || path == "-") {
        out << text;
        if (!text.empty() && text.back() != '\n') out << '\n';
    } else {
        writeFileAtomically(path, text.back() == '\n' ? text : text + "\n");
    }
}

std::vector<std::string> readLines(const std::string& path) {
    std::istringstream in(readTextFile(path));
    std::vector<std::string> lines;
    std::string line;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (!line.empty()) lines.push_back(line);
    }
    return lines;
}

// ---- init -------------------------------------------------------------------------------
struct InitOptions {
    std::string config, out, vocab, tgtVocab;
    uint64_t seed = 1;
    bool caseSensitive = false;
};

void runInit(const InitOptions& o, std::ostream& out) {
    const ModelConfig cfg = ModelConfig::fromFile(o.config);
    const Tokenizer tok(!o.caseSensitive);
    auto vocabFrom = [&](const std::string& path) {
        return path.empty() ? Vocab::fromWords(builtinEnglishWords())
                            : Vocab::fromWords(readLines(path));
    };
    Vocab src = vocabFrom(o.vocab);
    Vocab tgt = o.tgtVocab.empty() ? src : vocabFrom(o.tgtVocab);
    Model m = Model::initialize(cfg, src, tgt, tok, o.seed);
    m.setTraining({{"kind", "random-init"}, {"seed", o.seed}});
    m.save(o.out);
    const ParamCount c = countParameters(m.parameterInfo());
    out << "wrote " << o.out << " (" << c.total << " parameters, seed " << o.seed << ")\n";
}

// ---- attention --------------------------------------------------------------------------
struct AttentionOptions {
    std::string model, text, target, out;
    bool hasTarget = false;
    int indent = -1;
};

void runAttention(const AttentionOptions& o, std::ostream& out) {
    Model m = Model::load(o.model);
    const Analysis a =
        o.hasTarget ? m.analyze(o.text, std::string_view(o.target)) : m.analyze(o.text);
    writeOutput(o.out, attentionDump(o.model, m.config(), a).dump(o.indent), out);
}

// ---- info -------------------------------------------------------------------------------
void runInfo(const std::string& path, bool asJson, std::ostream& out) {
    const Model m = Model::load(path);
    const auto params = m.parameterInfo();
    const ParamCount c = countParameters(params);
    json j{{"model", path},
           {"config", m.config().toJson()},
           {"src_vocab_size", m.srcVocab().size()},
           {"tgt_vocab_size", m.tgtVocab().size()},
           {"tokenizer", m.tokenizer().toJson()},
           {"parameters",
            {{"total", c.total},
             {"trainable", c.trainable},
             {"by_role", c.byRole},
             {"by_module", c.byModule}}},
           {"training", m.training()}};
    if (asJson) {
        out << j.dump(2) << '\n';
        return;
    }
    const ModelConfig& cfg = m.config();
    out << "model      " << path << "\n"
        << "arch       " << (cfg.hasEncoder() ? "seq2seq" : "decoder") << ", d_model " << cfg.dModel
        << ", heads " << cfg.heads << ", d_ff " << cfg.dFf << ", layers " << cfg.encLayers << "+"
        << cfg.decLayers << ", max_len " << cfg.maxLen << ", "
        << (cfg.norm == Norm::Pre ? "pre" : "post") << "-norm\n";
    for (BlockKind k : {BlockKind::EncoderSelf, BlockKind::DecoderSelf, BlockKind::Cross}) {
        if (!cfg.hasEncoder() && k != BlockKind::DecoderSelf) continue;
        out << std::left << std::setw(14) << blockKindName(k)
            << cfg.toJson()[blockKindName(k)].dump() << "\n";
    }
    out << "vocab      source " << m.srcVocab().size() << ", target " << m.tgtVocab().size()
        << " tokens; tokenizer " << m.tokenizer().toJson().dump() << "\n"
        << "parameters " << c.total << " (" << c.trainable << " trainable)\n";
    for (const auto& [role, n] : c.byRole)
        out << "  " << std::left << std::setw(26) << role << n << "\n";
    out << "by module\n";
    for (const auto& [mod, n] : c.byModule)
        out << "  " << std::left << std::setw(34) << mod << n << "\n";
    if (!m.training().is_null()) out << "training   " << m.training().dump() << "\n";
}

// ---- bench forward ----------------------------------------------------------------------
struct BenchOptions {
    std::string config, variant = "all";
    std::vector<int> lengths{16, 64, 256};
    int repeat = 20;
    uint64_t seed = 1;
};

// Variants benchmarked by "--variant all" (every registered one, with its example
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

void runBenchForward(const BenchOptions& o, std::ostream& out) {
    json base = o.config.empty() ? json{{"arch", "seq2seq"}, {"d_model", 64},   {"heads", 4},
                                        {"d_ff", 256},       {"enc_layers", 2}, {"dec_layers", 2}}
                                 : json::parse(readTextFile(o.config));
    const int longest = *std::max_element(o.lengths.begin(), o.lengths.end());
    json results = json::array();
    for (const auto& [label, block] : benchVariants(o.variant)) {
        json cj = base;
        cj["max_len"] = std::max(cj.value("max_len", 64), longest);
        cj["encoder_self"] = block;
        cj["decoder_self"] = block;
        cj["cross"] = block;

        const ModelConfig cfg = ModelConfig::fromJson(cj);
        Vocab vocab = Vocab::fromWords(builtinEnglishWords());
        Model m = Model::initialize(cfg, vocab, vocab, Tokenizer(true), o.seed);
        for (int n : o.lengths) {
            if (n < 2) throw Error("--len must be at least 2");
            Rng rng(o.seed + static_cast<uint64_t>(n));
            std::vector<int> s(size_t(n - 1)), t(size_t(n - 1));
            for (auto& x : s) x = 4 + static_cast<int>(rng.below(uint64_t(vocab.size() - 4)));
            for (auto& x : t) x = 4 + static_cast<int>(rng.below(uint64_t(vocab.size() - 4)));
            const Batch b = cfg.hasEncoder() ? Batch::make({s}, {t}) : Batch::make({}, {t});
            m.forward(b, true);  // warm-up
            std::vector<double> ms;
            for (int r = 0; r < o.repeat; ++r) {
                const auto t0 = std::chrono::steady_clock::now();
                const ForwardResult res = m.forward(b, true);
                const auto t1 = std::chrono::steady_clock::now();
                if (res.blocks.empty()) throw Error("no attention captured");
                ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
            }
            std::sort(ms.begin(), ms.end());
            results.push_back({{"variant", label},
                               {"tokens", n},
                               {"ms_median", ms[ms.size() / 2]},
                               {"ms_min", ms.front()},
                               {"runs", o.repeat}});
        }
    }
    json j{{"benchmark", "forward"},
           {"what",
            "one forward pass with capture of every block's weights, batch 1, source and "
            "target both of the given number of positions"},
           {"base_config", base},
           {"results", results}};
    out << j.dump(2) << '\n';
}

}  // namespace

int run(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
    CLI::App app{
        "attnviz-cli: run, inspect and benchmark Transformers with different attention variants"};
    app.require_subcommand(1);
    app.set_version_flag("--version", "attnviz-cli 0.1.0");

    InitOptions init;
    auto* cInit =
        app.add_subcommand("init", "Write a randomly initialised checkpoint for a configuration");
    cInit->add_option("--config", init.config, "Model configuration (JSON, see docs/spec)")
        ->required()
        ->check(CLI::ExistingFile);
    cInit->add_option("--seed", init.seed, "Random seed")->capture_default_str();
    cInit->add_option("--out", init.out, "Output checkpoint (.safetensors)")->required();
    cInit
        ->add_option("--vocab", init.vocab,
                     "Vocabulary file, one token per line (default: built-in English words)")
        ->check(CLI::ExistingFile);
    cInit
        ->add_option("--tgt-vocab", init.tgtVocab,
                     "Target vocabulary file (default: the source vocabulary)")
        ->check(CLI::ExistingFile);
    cInit->add_flag("--case-sensitive", init.caseSensitive, "Do not lowercase text");

    AttentionOptions att;
    auto* cAtt = app.add_subcommand("attention",
                                    "Dump every block's attention weights for a sentence (JSON)");
    cAtt->add_option("--model", att.model, "Checkpoint (.safetensors)")->required();
    cAtt->add_option("--text", att.text, "Source sentence (decoder-only models: the text)")
        ->required();
    auto* tOpt = cAtt->add_option("--target", att.target,
                                  "Target sentence; without it a seq2seq model decodes greedily");
    cAtt->add_option("--out", att.out, "Output file (default: standard output)");
    cAtt->add_option("--indent", att.indent,
                     "Indent the JSON by this many spaces (default: compact)");

    std::string infoModel;
    bool infoJson = false;
    auto* cInfo = app.add_subcommand(
        "info", "Print a checkpoint's configuration, vocabularies and parameter counts");
    cInfo->add_option("--model", infoModel, "Checkpoint (.safetensors)")->required();
    cInfo->add_flag("--json", infoJson, "Print JSON");

    BenchOptions bench;
    auto* cBench = app.add_subcommand("bench", "Benchmarks (JSON on standard output)");
    cBench->require_subcommand(1);
    auto* cBenchFwd = cBench->add_subcommand("forward", "Time a forward pass with capture");
    cBenchFwd
        ->add_option("--config", bench.config,
                     "Base configuration (default: d_model 64, 4 heads, 2+2 layers)")
        ->check(CLI::ExistingFile);
    cBenchFwd->add_option("--variant", bench.variant, "Variant for every block, or 'all'")
        ->capture_default_str();
    cBenchFwd->add_option("--len", bench.lengths, "Sequence lengths (positions)")
        ->capture_default_str();
    cBenchFwd->add_option("--repeat", bench.repeat, "Timed runs per case")
        ->capture_default_str()
        ->check(CLI::Range(1, 100000));
    cBenchFwd->add_option("--seed", bench.seed, "Random seed")->capture_default_str();

    TrainCommands training;
    training.add(app, *cBench);
#ifdef ATTNVIZ_RENDER
    RenderCommand render;
    render.add(app);
#endif

    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e, out, err);
        return code == 0 ? 0 : 2;
    }
    att.hasTarget = tOpt->count() > 0;
    try {
        if (*cInit) runInit(init, out);
        if (*cAtt) runAttention(att, out);
        if (*cInfo) runInfo(infoModel, infoJson, out);
        if (*cBenchFwd) runBenchForward(bench, out);
        training.run(out, err, &err == &std::cerr && isatty(STDERR_FILENO));
#ifdef ATTNVIZ_RENDER
        render.run(out);
#endif
    } catch (const Error& e) {
        err << "attnviz-cli: error: " << e.what() << '\n';
        return 1;
    } catch (const json::exception& e) {
        err << "attnviz-cli: error: " << e.what() << '\n';
        return 1;
    } catch (const std::bad_alloc&) {
        err << "attnviz-cli: error: out of memory\n";
        return 1;
    }
    return 0;
}

}  // namespace attnviz::cli
