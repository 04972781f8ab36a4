// SPDX-License-Identifier: GPL-3.0-or-later
// attnviz-cli info: a checkpoint's configuration, vocabularies and parameter counts.
#include <iomanip>
#include <ostream>

#include "command.h"
#include "core/input_limits.h"
#include "core/model.h"

namespace attnviz::cli {
namespace {

using nlohmann::json;

class InfoCommand : public Command {
public:
    CLI::App* add(CLI::App& parent) override;
    void run(const Context& ctx) override;

private:
    std::string m_model;
    bool m_json = false;
};

CLI::App* InfoCommand::add(CLI::App& parent) {
    auto* c = parent.add_subcommand(
        "info", "Print a checkpoint's configuration, vocabularies and parameter counts");
    input(c->add_option("--model", m_model, "Checkpoint (.safetensors)"))->required();
    c->add_flag("--json", m_json, "Print JSON");
    return c;
}

// Architecture, blocks and vocabularies of a text model.
void printTextModel(const Model& m, const std::string& path, std::ostream& out) {
    const ModelConfig& cfg = m.config();
    out << "model      " << path << "\n"
        << "arch       " << (cfg.hasEncoder() ? "seq2seq" : "decoder") << ", d_model " << cfg.dModel
        << ", heads " << cfg.heads << ", d_ff " << cfg.dFf << ", layers " << cfg.encLayers << "+"
        << cfg.decLayers << ", max_len " << cfg.maxLen << ", "
        << (cfg.norm == Norm::Pre ? "pre" : "post") << "-norm\n";
    for (BlockKind k : cfg.blockKinds()) {
        out << std::left << std::setw(14) << blockKindName(k)
            << jsonText(cfg.toJson()[blockKindName(k)]) << "\n";
    }
    out << "vocab      source " << m.srcVocab().size() << ", target " << m.tgtVocab().size()
        << " tokens; tokenizer "
        // A SentencePiece model is hundreds of KB of base64: named and counted (--json has it).
        << (m.tokenizer().kind() == Tokenizer::Kind::SentencePiece
                ? "sentencepiece (" + std::to_string(m.tokenizer().pieces().size()) +
                      " pieces; the model in --json)"
                : jsonText(m.tokenizer().toJson()))
        << "\n";
}

// The first kInfoClasses class names as JSON, then how many there are: a checkpoint may
// name 65,536 classes of 256 bytes (--json prints them all).
constexpr size_t kInfoClasses = 20;
std::string classesExcerpt(const std::vector<std::string>& names) {
    if (names.size() <= kInfoClasses) return jsonText(json(names));
    const std::string first =
        jsonText(json(std::vector<std::string>(names.begin(), names.begin() + kInfoClasses)));
    return first.substr(0, first.size() - 1) + ", … ] (" + std::to_string(names.size()) +
           " classes; all of them with --json)";
}

// Architecture, block and classes of an image model (docs/model-spec.md 3.10).
void printImageModel(const Model& m, const std::string& path, std::ostream& out) {
    const ModelConfig& cfg = m.config();
    out << "model      " << path << "\n"
        << "arch       vit, d_model " << cfg.dModel << ", heads " << cfg.heads << ", d_ff "
        << cfg.dFf << ", layers " << cfg.encLayers << ", "
        << (cfg.norm == Norm::Pre ? "pre" : "post") << "-norm\n"
        << "image      " << cfg.imageSize << "×" << cfg.imageSize << " "
        << (cfg.channels == 3   ? "colour (RGB)"
            : cfg.channels == 1 ? "grayscale"
                                : std::to_string(cfg.channels) + " channels")
        << ", patch " << cfg.patch << " (" << cfg.gridSize() << "×" << cfg.gridSize()
        << " patches), pool " << (cfg.pool == Pool::Cls ? "cls" : "mean") << ", " << cfg.positions()
        << " positions\n";
    if (!cfg.stem.empty()) {  // "stem       3×3 stride-2 convolutions to 24, 48, 64 channels"
        out << "stem       3×3 stride-2 convolutions to ";
        for (size_t i = 0; i < cfg.stem.size(); ++i) out << (i ? ", " : "") << cfg.stem[i];
        out << " channels\n";
    }
    out << std::left << std::setw(14) << "encoder_self" << jsonText(cfg.toJson()["encoder_self"])
        << "\n"
        << "classes    " << classesExcerpt(m.classNames()) << "\n";
}

// The text form of info: architecture, blocks, vocabularies, parameters, training.
void printInfo(const Model& m, const std::string& path, const ParamCount& c, std::ostream& out) {
    const ModelConfig& cfg = m.config();
    if (cfg.isVision()) {
        printImageModel(m, path, out);
    } else {
        printTextModel(m, path, out);
    }
    out << "parameters " << c.total << " (" << c.trainable << " trainable)\n";
    for (const auto& [role, n] : c.byRole)
        out << "  " << std::left << std::setw(26) << role << n << "\n";
    out << "by module\n";
    for (const auto& [mod, n] : c.byModule)
        out << "  " << std::left << std::setw(34) << mod << n << "\n";
    // Bounded: the reader limits its nesting, this its length (--json prints it whole).
    if (m.training().present()) {
        std::string t = jsonText(m.training().raw());
        if (t.size() > 400) {
            size_t cut = 400;
            while (cut > 0 && (static_cast<unsigned char>(t[cut]) & 0xC0) == 0x80) --cut;
            t = t.substr(0, cut) + "… (" + std::to_string(t.size()) + " bytes; see --json)";
        }
        out << "training   " << t << "\n";
    }
}

void InfoCommand::run(const Context& ctx) {
    const Model m = Model::load(m_model);
    const ParamCount c = countParameters(m.parameterInfo());
    if (!m_json) {
        printInfo(m, m_model, c, ctx.out);
        return;
    }
    json j{{"model", m_model},
           {"config", m.config().toJson()},
           {"src_vocab_size", m.srcVocab().size()},
           {"tgt_vocab_size", m.tgtVocab().size()},
           {"tokenizer", m.tokenizer().toJson()},
           {"parameters",
            {{"total", c.total},
             {"trainable", c.trainable},
             {"by_role", c.byRole},
             {"by_module", c.byModule}}},
           {"training", m.training().raw()}};
    if (m.config().isVision()) j["classes"] = m.classNames();
    ctx.out << jsonText(j, 2) << '\n';
}

}  // namespace

std::unique_ptr<Command> makeInfoCommand() {
    return std::make_unique<InfoCommand>();
}

}  // namespace attnviz::cli
