// SPDX-License-Identifier: GPL-3.0-or-later
// attnviz-cli tokenize: how a checkpoint's tokenizer splits text, as tokens, display labels
// or vocabulary ids (one line of output per line of input).
#include <fstream>
#include <ostream>
#include <sstream>

#include "command.h"
#include "core/config.h"
#include "core/error.h"
#include "core/model.h"

namespace attnviz::cli {
namespace {

class TokenizeCommand : public Command {
public:
    CLI::App* add(CLI::App& parent) override;
    void run(const Context& ctx) override;

private:
    std::string m_model, m_text, m_file, m_side = "source", m_as = "tokens";
};

CLI::App* TokenizeCommand::add(CLI::App& parent) {
    auto* c = parent.add_subcommand("tokenize", "Split text with a checkpoint's tokenizer");
    input(c->add_option("--model", m_model, "Checkpoint (.safetensors)"))->required();
    auto* text = c->add_option("--text", m_text, "One sentence");
    input(c->add_option("--file", m_file, "A text file, one sentence per line"))->excludes(text);
    c->add_option("--side", m_side, "Vocabulary for ids: source or target")
        ->check(CLI::IsMember({"source", "target"}))
        ->capture_default_str();
    c->add_option("--as", m_as, "tokens (tab-separated), labels (as displayed) or ids")
        ->check(CLI::IsMember({"tokens", "labels", "ids"}))
        ->capture_default_str();
    return c;
}

void TokenizeCommand::run(const Context& ctx) {
    if (m_text.empty() == m_file.empty()) throw Error("tokenize needs --text or --file");
    const Model m = Model::load(m_model);
    if (m.config().isVision())
        throw Error("'" + m_model +
                    "' is an image model (arch \"vit\"): it has no tokenizer; tokenize is for "
                    "text models");
    const Vocab& vocab = m_side == "source" ? m.srcVocab() : m.tgtVocab();
    std::istringstream in(m_file.empty() ? m_text
                                         : readTextFile(m_file, kMaxDataBytes, "text file"));
    std::string line;
    int number = 0;
    while (std::getline(in, line)) {
        ++number;
        std::vector<std::string> tokens;
        try {
            tokens = m.tokenizer().tokenize(line);
        } catch (const Error& e) {
            throw Error((m_file.empty() ? "text" : m_file + ":" + std::to_string(number)) + ": " +
                        e.what());
        }
        const auto labels = m_as == "labels" ? m.tokenizer().display(tokens) : tokens;
        for (size_t i = 0; i < tokens.size(); ++i) {
            if (i) ctx.out << (m_as == "ids" ? " " : "\t");
            if (m_as == "ids") {
                ctx.out << vocab.id(tokens[i]);
            } else {
                ctx.out << labels[i];
            }
        }
        ctx.out << "\n";
    }
}

}  // namespace

std::unique_ptr<Command> makeTokenizeCommand() {
    return std::make_unique<TokenizeCommand>();
}

}  // namespace attnviz::cli
