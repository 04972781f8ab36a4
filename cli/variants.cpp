// SPDX-License-Identifier: GPL-3.0-or-later
// attnviz-cli variants: every registered attention variant with its formula and the
// options its table declares (type, default, range, editable on a trained model).
#include <ostream>

#include "command.h"
#include "core/attention/attention.h"
#include "core/input_limits.h"

namespace attnviz::cli {
namespace {

using nlohmann::json;

class VariantsCommand : public Command {
public:
    CLI::App* add(CLI::App& parent) override;
    void run(const Context& ctx) override;

private:
    bool m_json = false;
};

const char* typeName(OptionType t) {
    switch (t) {
        case OptionType::Flag:
            return "flag";
        case OptionType::Integer:
            return "integer";
        case OptionType::Number:
            return "number";
        case OptionType::Numbers:
            return "numbers";
        case OptionType::Variants:
            return "variants";
    }
    return "?";
}

json variantJson(const VariantInfo& v) {
    json options = json::array();
    for (const auto& o : v.options) {
        options.push_back({{"name", o.name},
                           {"type", typeName(o.type)},
                           {"default", o.defaultValue},
                           {"rule", o.rule()},
                           {"editable", o.live},
                           {"help", o.help}});
    }
    return {{"name", v.name},         {"summary", v.summary}, {"formula", v.formula},
            {"logits", v.logitBased}, {"mixable", v.mixable}, {"options", options}};
}

CLI::App* VariantsCommand::add(CLI::App& parent) {
    auto* c = parent.add_subcommand("variants", "List the attention variants and their options");
    c->add_flag("--json", m_json, "JSON instead of text");
    return c;
}

void VariantsCommand::run(const Context& ctx) {
    json all = json::array();
    for (const auto& v : allVariants()) all.push_back(variantJson(v));
    if (m_json) {
        ctx.out << jsonText(all, 2) << "\n";
        return;
    }
    for (const auto& v : all) {
        ctx.out << v["name"].get<std::string>() << "\n  " << v["summary"].get<std::string>()
                << "\n  " << v["formula"].get<std::string>() << "\n";
        for (const auto& o : v["options"]) {
            const std::string def = !o["default"].is_null()   ? "default " + jsonText(o["default"])
                                    : o["type"] == "variants" ? "required"
                                                              : "default set by the block";
            ctx.out << "  " << o["name"].get<std::string>() << " (" << o["type"].get<std::string>()
                    << ", " << def << (o["editable"].get<bool>() ? ", editable" : "")
                    << "): " << o["help"].get<std::string>() << "; " << o["rule"].get<std::string>()
                    << "\n";
        }
    }
}

}  // namespace

std::unique_ptr<Command> makeVariantsCommand() {
    return std::make_unique<VariantsCommand>();
}

}  // namespace attnviz::cli
