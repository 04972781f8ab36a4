// SPDX-License-Identifier: GPL-3.0-or-later
// attnviz-cli bleu: corpus BLEU of hypotheses against references, as JSON.
#include <ostream>
#include <sstream>

#include "command.h"
#include "core/config.h"
#include "core/error.h"
#include "core/input_limits.h"
#include "core/metrics.h"

namespace attnviz::cli {
namespace {

using nlohmann::json;

class BleuCommand : public Command {
public:
    CLI::App* add(CLI::App& parent) override;
    void run(const Context& ctx) override;

private:
    std::string m_hyp, m_ref;
};

// The lines of a file split on spaces: the files are already tokenized (as the outputs of
// decoding). Empty lines are kept, as empty sentences.
std::vector<Tokens> readTokenizedLines(const std::string& path) {
    std::vector<Tokens> lines;
    std::istringstream in(readTextFile(path, kMaxDataBytes, "bleu input"));
    std::string line;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        std::istringstream words(line);
        Tokens t;
        for (std::string w; words >> w;) t.push_back(w);
        lines.push_back(std::move(t));
    }
    return lines;
}

CLI::App* BleuCommand::add(CLI::App& parent) {
    auto* c = parent.add_subcommand("bleu", "Corpus BLEU of hypotheses against references (JSON)");
    input(c->add_option("--hyp", m_hyp, "Hypotheses, one per line (tokens separated by spaces)"))
        ->required()
        ->check(CLI::ExistingFile);
    input(c->add_option("--ref", m_ref, "References, one per line, same order"))
        ->required()
        ->check(CLI::ExistingFile);
    return c;
}

void BleuCommand::run(const Context& ctx) {
    const auto h = readTokenizedLines(m_hyp), r = readTokenizedLines(m_ref);
    if (h.size() != r.size()) {
        throw Error(std::to_string(h.size()) + " hypotheses but " + std::to_string(r.size()) +
                    " references");
    }
    const Bleu b = corpusBleu(h, r);
    ctx.out << jsonText(json{{"bleu", b.score},
                             {"precisions",
                              {b.precisions[0], b.precisions[1], b.precisions[2], b.precisions[3]}},
                             {"brevity_penalty", b.brevityPenalty},
                             {"hyp_length", b.hypLength},
                             {"ref_length", b.refLength}},
                        2)
            << "\n";
}

}  // namespace

std::unique_ptr<Command> makeBleuCommand() {
    return std::make_unique<BleuCommand>();
}

}  // namespace attnviz::cli
