// SPDX-License-Identifier: GPL-3.0-or-later
// Generic handling of a block's options from the variants' option tables: parsing with
// defaults, validation, the resolved JSON. No variant is named here.
#include <cmath>
#include <set>

#include "error.h"
#include "variants.h"

namespace attnviz {

using nlohmann::json;

std::vector<OptionSpec> blockOptions(const std::string& variant, const json& options) {
    const VariantInfo& info = variantInfo(variant);
    std::vector<OptionSpec> all = info.options;
    std::set<std::string> seen;
    for (const auto& o : all) seen.insert(o.name);
    for (const auto& o : info.options) {
        if (o.type != OptionType::Variants || !options.contains(o.name)) continue;
        const json& parts = options[o.name];
        if (!parts.is_array()) continue;  // reported by the option's own check
        for (const auto& p : parts) {
            if (!p.is_string()) continue;
            for (const auto& po : variantInfo(p.get<std::string>()).options)
                if (seen.insert(po.name).second) all.push_back(po);
        }
    }
    return all;
}

namespace {

// Integral values of a number list are written as integers ([-1, 1], not [-1.0, 1.0]),
// as configuration files write them.
json numbersJson(const json& v) {
    json out = json::array();
    for (const auto& x : v) {
        const double d = x.get<double>();
        if (std::floor(d) == d && std::abs(d) < 1e9) {
            out.push_back(static_cast<int64_t>(d));
        } else {
            out.push_back(d);
        }
    }
    return out;
}

// The canonical JSON of a valid value: Number options are floating point, Integer ones
// integers, so that a resolved configuration always serialises the same way.
json canonical(const OptionSpec& o, const json& v) {
    switch (o.type) {
        case OptionType::Number:
            return v.get<double>();
        case OptionType::Integer:
            return v.get<int64_t>();
        case OptionType::Numbers:
            return numbersJson(v);
        default:
            return v;
    }
}

void checkAll(const std::vector<OptionSpec>& specs, const BlockConfig& b) {
    for (const auto& o : specs) {
        if (!b.options.contains(o.name))
            throw Error("option '" + o.name + "' of variant '" + b.variant + "' is unresolved");
        const std::string problem = o.check(b.options[o.name]);
        if (!problem.empty()) throw Error(problem);
    }
}

}  // namespace

namespace {

// parseBlockConfig, with the patch grid of a vit block (grid 0: text).
BlockConfig parseBlock(const json& j, BlockKind kind, int dModel, int modelHeads, int maxLen,
                       int grid, bool classToken) {
    const std::string where = std::string(blockKindName(kind)) + ": ";
    try {
        if (!j.is_object()) throw Error("must be a JSON object");
        BlockConfig b;
        if (j.contains("variant")) {
            if (!j["variant"].is_string()) throw Error("'variant' must be a string");
            b.variant = j["variant"].get<std::string>();
        }
        variantInfo(b.variant);  // Error listing the known variants
        // Variants-typed options are checked first: they decide which other options apply.
        for (const auto& o : variantInfo(b.variant).options) {
            if (o.type == OptionType::Variants && j.contains(o.name)) {
                const std::string problem = o.check(j[o.name]);
                if (!problem.empty()) throw Error(problem);
                for (const auto& name : j[o.name]) variantInfo(name.get<std::string>());
            }
        }
        const std::vector<OptionSpec> specs = blockOptions(b.variant, j);
        std::set<std::string> allowed{"variant", "heads"};
        if (kind == BlockKind::Cross) allowed.insert("layers");
        for (const auto& o : specs) allowed.insert(o.name);
        for (auto it = j.begin(); it != j.end(); ++it) {
            if (!allowed.count(it.key())) {
                const std::string key =
                    it.key().size() > 40 ? it.key().substr(0, 40) + "…" : it.key();
                throw Error("option '" + key + "' does not apply to variant '" + b.variant + "'");
            }
        }
        b.heads = modelHeads;
        if (j.contains("heads")) {
            const json& h = j["heads"];
            if (!h.is_number_integer() || h.get<int64_t>() < 1 || h.get<int64_t>() > 4096)
                throw Error("'heads' must be an integer between 1 and 4096");
            b.heads = h.get<int>();
        }
        if (dModel % b.heads != 0) {
            throw Error("heads (" + std::to_string(b.heads) + ") must divide d_model (" +
                        std::to_string(dModel) + ")");
        }
        if (j.contains("layers")) {
            const json& l = j["layers"];
            if (!l.is_string() || (l != "all" && l != "top"))
                throw Error("'layers' must be \"all\" or \"top\"");
            b.topOnly = l == "top";
        }
        for (const auto& o : specs) {
            if (j.contains(o.name)) {
                const std::string problem = o.check(j[o.name]);
                if (!problem.empty()) throw Error(problem);
                b.options[o.name] = canonical(o, j[o.name]);
            } else if (!o.defaultValue.is_null()) {
                b.options[o.name] = canonical(o, o.defaultValue);
            }
        }
        const BlockGeometry geo{dModel, b.heads, maxLen, kind, true, grid, classToken};
        if (const auto& resolve = variantInfo(b.variant).resolve) resolve(b, geo);
        for (const auto& o : specs)
            if (b.options.contains(o.name)) b.options[o.name] = canonical(o, b.options[o.name]);
        checkAll(specs, b);
        return b;
    } catch (const Error& e) {
        throw Error(where + e.what());
    }
}

}  // namespace

BlockConfig parseBlockConfig(const json& j, BlockKind kind, int dModel, int modelHeads,
                             int maxLen) {
    return parseBlock(j, kind, dModel, modelHeads, maxLen, 0, false);
}

BlockConfig parseGridBlockConfig(const json& j, int dModel, int modelHeads, int maxLen, int grid,
                                 bool classToken) {
    return parseBlock(j, BlockKind::EncoderSelf, dModel, modelHeads, maxLen, grid, classToken);
}

json blockConfigJson(const BlockConfig& b, BlockKind kind) {
    json j = b.options;
    j["variant"] = b.variant;
    j["heads"] = b.heads;
    if (kind == BlockKind::Cross) j["layers"] = b.topOnly ? "top" : "all";
    return j;
}

}  // namespace attnviz
