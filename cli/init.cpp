// SPDX-License-Identifier: GPL-3.0-or-later
// attnviz-cli init: a randomly initialised checkpoint for a configuration.
#include <ostream>
#include <sstream>

#include "command.h"
#include "core/error.h"
#include "core/file_io.h"
#include "core/image_set.h"
#include "core/model.h"
#include "core/presets.h"

namespace attnviz::cli {
namespace {

class InitCommand : public Command {
public:
    CLI::App* add(CLI::App& parent) override;
    void run(const Context& ctx) override;

private:
    std::string m_config, m_preset, m_out, m_vocab, m_tgtVocab;
    uint64_t m_seed = 1;
    bool m_caseSensitive = false;
};

// The non-empty lines of a text file, without a trailing \r.
std::vector<std::string> readLines(const std::string& path) {
    std::istringstream in(readTextFile(path, kMaxDataBytes, "vocabulary"));
    std::vector<std::string> lines;
    std::string line;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (!line.empty()) lines.push_back(line);
    }
    return lines;
}

CLI::App* InitCommand::add(CLI::App& parent) {
    auto* c = parent.add_subcommand("init",
                                    "Write a randomly initialised checkpoint for a configuration");
    auto* config = input(c->add_option("--config", m_config,
                                       "Model configuration (JSON, see docs/model-spec.md)"))
                       ->check(CLI::ExistingFile);
    oneOf(c->add_option("--preset", m_preset, "A preset configuration instead (see 'presets')"),
          [] { return presetIds(loadPresets(presetDirectory())); })
        ->excludes(config);
    c->add_option("--seed", m_seed, "Random seed")->capture_default_str()->check(nonNegative());
    output(c->add_option("--out", m_out, "Output checkpoint (.safetensors)"))->required();
    input(c->add_option("--vocab", m_vocab,
                        "Vocabulary file, one token per line (default: built-in English words)"))
        ->check(CLI::ExistingFile);
    input(c->add_option("--tgt-vocab", m_tgtVocab,
                        "Target vocabulary file (default: the source vocabulary)"))
        ->check(CLI::ExistingFile);
    c->add_flag("--case-sensitive", m_caseSensitive, "Do not lowercase text");
    return c;
}

void InitCommand::run(const Context& ctx) {
    if (m_config.empty() && m_preset.empty()) throw Error("init needs --config or --preset");
    checkOutputPath(m_out);
    const ModelConfig cfg = m_config.empty()
                                ? ModelConfig::fromJson(presetConfig(
                                      findPreset(loadPresets(presetDirectory()), m_preset),
                                      nlohmann::json::object(), false))
                                : ModelConfig::fromFile(m_config);
    if (cfg.isVision()) {
        if (!m_vocab.empty() || !m_tgtVocab.empty())
            throw Error("an image model (arch \"vit\") has no vocabulary: remove --vocab");
        // The names of the bundled image set of this size, channels and class count
        // (Fashion-MNIST's, the clothing photos'); "0", "1", … for any other.
        std::vector<std::string> classes;
        for (const ImageTask& t : imageTasks())
            if (t.imageSize == cfg.imageSize && t.channels == cfg.channels &&
                int(t.classes->size()) == cfg.classes)
                classes = *t.classes;
        if (classes.empty()) {
            classes.clear();
            for (int k = 0; k < cfg.classes; ++k) classes.push_back(std::to_string(k));
        }
        Model m = Model::initializeImages(cfg, classes, m_seed);
        m.setTraining({{"kind", "random-init"}, {"seed", m_seed}});
        m.save(m_out);
        ctx.out << "wrote " << m_out << " (" << countParameters(m.parameterInfo()).total
                << " parameters, seed " << m_seed << ")\n";
        return;
    }
    const Tokenizer tok(!m_caseSensitive);
    auto vocabFrom = [&](const std::string& path) {
        if (path.empty()) return Vocab::fromWords(builtinEnglishWords());
        try {
            return Vocab::fromWords(readLines(path));
        } catch (const Error& e) {
            throw Error(path + ": " + e.what());
        }
    };
    Vocab src = vocabFrom(m_vocab);
    Vocab tgt = m_tgtVocab.empty() ? src : vocabFrom(m_tgtVocab);
    Model m = Model::initialize(cfg, src, tgt, tok, m_seed);
    m.setTraining({{"kind", "random-init"}, {"seed", m_seed}});
    m.save(m_out);
    const ParamCount c = countParameters(m.parameterInfo());
    ctx.out << "wrote " << m_out << " (" << c.total << " parameters, seed " << m_seed << ")\n";
}

}  // namespace

std::unique_ptr<Command> makeInitCommand() {
    return std::make_unique<InitCommand>();
}

}  // namespace attnviz::cli
