// SPDX-License-Identifier: GPL-3.0-or-later
// attnviz-cli presets: the preset configurations (resources/models/configs, core/presets.h)
// that `init --preset` and `train --preset` accept.
#include "core/presets.h"

#include <ostream>

#include "command.h"
#include "core/input_limits.h"

namespace attnviz::cli {
namespace {

class PresetsCommand : public Command {
public:
    CLI::App* add(CLI::App& parent) override;
    void run(const Context& ctx) override;

private:
    bool m_json = false;
};

CLI::App* PresetsCommand::add(CLI::App& parent) {
    auto* c = parent.add_subcommand("presets", "List the preset configurations");
    c->add_flag("--json", m_json, "JSON instead of text");
    return c;
}

void PresetsCommand::run(const Context& ctx) {
    const auto presets = loadPresets(presetDirectory());
    nlohmann::json all = nlohmann::json::array();
    for (const auto& p : presets) {
        if (m_json) {
            all.push_back(
                {{"id", p.id}, {"label", p.label}, {"path", p.path}, {"config", p.config}});
        } else {
            ctx.out << p.id << "\t" << p.label << "\n";
        }
    }
    if (m_json) ctx.out << jsonText(all, 2) << "\n";
}

}  // namespace

std::unique_ptr<Command> makePresetsCommand() {
    return std::make_unique<PresetsCommand>();
}

}  // namespace attnviz::cli
