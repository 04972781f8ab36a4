// SPDX-License-Identifier: GPL-3.0-or-later
// attnviz-cli attention: every block's attention weights for a sentence or an image, as JSON.
#include <ostream>

#include "command.h"
#include "core/dump.h"
#include "core/error.h"
#include "core/file_io.h"
#include "core/input_limits.h"
#include "core/model.h"
#include "image_input.h"

namespace attnviz::cli {
namespace {

class AttentionCommand : public Command {
public:
    CLI::App* add(CLI::App& parent) override;
    void run(const Context& ctx) override;

private:
    std::string m_model, m_text, m_target, m_out;
    int m_indent = -1;
    ImageInput m_image;
    CLI::Option* m_targetOpt = nullptr;
    CLI::Option* m_textOpt = nullptr;
    void runImage(const Context& ctx, Model& m);
};

// Writes text to `out` for an empty path or "-", else atomically to the file; either way
// with a final newline.
void writeOutput(const std::string& path, const std::string& text, std::ostream& out) {
    if (path.empty() || path == "-") {
        out << text;
        if (!text.empty() && text.back() != '\n') out << '\n';
    } else {
        writeFileAtomically(path, text.back() == '\n' ? text : text + "\n");
    }
}

CLI::App* AttentionCommand::add(CLI::App& parent) {
    auto* c = parent.add_subcommand(
        "attention", "Dump every block's attention weights for a sentence or an image (JSON)");
    input(c->add_option("--model", m_model, "Checkpoint (.safetensors)"))->required();
    m_textOpt = c->add_option("--text", m_text, "Source sentence (decoder-only models: the text)");
    m_image.addOptions(c);
    imageFiles(c);
    m_targetOpt = c->add_option("--target", m_target,
                                "Target sentence; without it a seq2seq model decodes greedily");
    output(c->add_option("--out", m_out, "Output file (default: standard output)"), true);
    c->add_option("--indent", m_indent, "Indent the JSON by this many spaces (default: compact)")
        ->check(integerIn(0, kMaxJsonIndent));
    return c;
}

void AttentionCommand::run(const Context& ctx) {
    if (!m_out.empty() && m_out != "-") checkOutputPath(m_out);
    m_image.check({});
    Model m = Model::load(m_model);
    if (m.config().isVision()) return runImage(ctx, m);
    if (m_image.given())
        throw Error("--image and --fashion-mnist need an image model; this one reads text");
    if (!m_textOpt->count()) throw Error("attention needs --text");
    Analysis a;
    try {
        a = m_targetOpt->count() > 0 ? m.analyze(m_text, std::string_view(m_target))
                                     : m.analyze(m_text);
    } catch (const Error& e) {
        throw Error(m_model + ": " + e.what());  // which model gave non-finite attention, …
    }
    writeOutput(m_out, jsonText(attentionDump(m_model, m.config(), a), m_indent), ctx.out);
}

void AttentionCommand::runImage(const Context& ctx, Model& m) {
    if (m_textOpt->count() || m_targetOpt->count()) throw Error("an image model takes no --text");
    const ImageInput::Loaded in = m_image.load(m, m_model);
    const ImageAnalysis a = m.analyzeImage(in.pixels, in.label);
    FloatJson dump = imageAttentionDump(m_model, m, a, in.source);
    if (in.inverted) dump["image"]["inverted"] = *in.inverted;
    writeOutput(m_out, jsonText(dump, m_indent), ctx.out);
}

}  // namespace

std::unique_ptr<Command> makeAttentionCommand() {
    return std::make_unique<AttentionCommand>();
}

}  // namespace attnviz::cli
