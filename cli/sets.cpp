// SPDX-License-Identifier: GPL-3.0-or-later
// attnviz-cli sets: the bundled model sets as the app's Models box offers them (core/workspace.h:
// every folder of the bundled models that holds checkpoints or a set.json), with their folder,
// kind and model count, so that a script (scripts/train-bundled-models) and the tests read the
// same list the app shows.
#include <ostream>

#include "command.h"
#include "core/input_limits.h"
#include "core/workspace.h"

namespace attnviz::cli {
namespace {

class SetsCommand : public Command {
public:
    CLI::App* add(CLI::App& parent) override;
    void run(const Context& ctx) override;

private:
    bool m_json = false;
};

CLI::App* SetsCommand::add(CLI::App& parent) {
    auto* c = parent.add_subcommand(
        "sets", "List the bundled model sets (id, models, kind, folder, name), the default first");
    c->add_flag("--json", m_json, "JSON instead of text");
    return c;
}

void SetsCommand::run(const Context& ctx) {
    nlohmann::json all = nlohmann::json::array();
    for (const ModelSet& s : modelSets()) {
        const int n = modelSetSize(s);
        const char* kind = s.images ? "images" : "text";
        if (m_json) {
            nlohmann::json j{{"id", s.id},
                             {"name", s.label},
                             {"dir", s.dir},
                             {"models", n},
                             {"kind", kind},
                             {"order", s.order},
                             {"path", modelSetDirectory(s)}};
            if (!s.problem.empty()) j["problem"] = s.problem;
            all.push_back(std::move(j));
        } else {
            ctx.out << s.id << "\t" << n << "\t" << kind << "\t" << s.dir << "\t" << s.label
                    << "\n";
        }
        if (!s.problem.empty())
            ctx.err << "attnviz-cli: set '" << s.id << "': " << s.problem << "\n";
    }
    if (m_json) ctx.out << jsonText(all, 2) << "\n";
}

}  // namespace

std::unique_ptr<Command> makeSetsCommand() {
    return std::make_unique<SetsCommand>();
}

}  // namespace attnviz::cli
