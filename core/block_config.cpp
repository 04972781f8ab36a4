// SPDX-License-Identifier: GPL-3.0-or-later
#include "block_config.h"

#include <cmath>
#include <sstream>

#include "error.h"

namespace attnviz {

using nlohmann::json;

const char* blockKindName(BlockKind kind) {
    switch (kind) {
        case BlockKind::EncoderSelf:
            return "encoder_self";
        case BlockKind::DecoderSelf:
            return "decoder_self";
        case BlockKind::Cross:
            return "cross";
    }
    return "?";
}

namespace {
constexpr BlockKind kBlockKinds[] = {BlockKind::EncoderSelf, BlockKind::DecoderSelf,
                                     BlockKind::Cross};
}  // namespace

bool blockKindFromName(const std::string& name, BlockKind* kind) {
    for (BlockKind k : kBlockKinds) {
        if (name == blockKindName(k)) {
            *kind = k;
            return true;
        }
    }
    return false;
}

std::vector<std::string> blockKindNames() {
    std::vector<std::string> names;
    for (BlockKind k : kBlockKinds) names.push_back(blockKindName(k));
    return names;
}

namespace {

std::string num(double x) {
    if (std::floor(x) == x && std::abs(x) < 1e15) return std::to_string(static_cast<int64_t>(x));
    std::ostringstream s;
    s << x;
    return s.str();
}

bool inRange(const OptionSpec& o, double x) {
    const bool low = o.minExclusive ? x > o.min : x >= o.min;
    return std::isfinite(x) && low && x <= o.max;
}

// "", " > 0", " between 1 and 8": the range part of a rule.
std::string rangeText(const OptionSpec& o) {
    const bool lo = std::isfinite(o.min), hi = std::isfinite(o.max);
    if (lo && hi && !o.minExclusive) return " between " + num(o.min) + " and " + num(o.max);
    std::string s;
    if (lo) s += (o.minExclusive ? " > " : " >= ") + num(o.min);
    if (hi) s += std::string(lo ? " and" : "") + " <= " + num(o.max);
    return s;
}

}  // namespace

namespace {

OptionSpec makeOption(std::string name, OptionType type, json def) {
    OptionSpec o;
    o.name = std::move(name);
    o.type = type;
    o.defaultValue = std::move(def);
    return o;
}

}  // namespace

OptionSpec OptionSpec::flag(std::string name, bool def) {
    return makeOption(std::move(name), OptionType::Flag, def);
}
OptionSpec OptionSpec::integer(std::string name, json def) {
    return makeOption(std::move(name), OptionType::Integer, std::move(def));
}
OptionSpec OptionSpec::number(std::string name, json def) {
    return makeOption(std::move(name), OptionType::Number, std::move(def));
}
OptionSpec OptionSpec::numbers(std::string name, json def) {
    return makeOption(std::move(name), OptionType::Numbers, std::move(def));
}
OptionSpec OptionSpec::variants(std::string name) {
    return makeOption(std::move(name), OptionType::Variants, nullptr);
}
OptionSpec& OptionSpec::atLeast(double x) {
    min = x;
    minExclusive = false;
    return *this;
}
OptionSpec& OptionSpec::above(double x) {
    min = x;
    minExclusive = true;
    return *this;
}
OptionSpec& OptionSpec::atMost(double x) {
    max = x;
    return *this;
}
OptionSpec& OptionSpec::editable() {
    live = true;
    return *this;
}
OptionSpec& OptionSpec::about(std::string text) {
    help = std::move(text);
    return *this;
}

std::string OptionSpec::rule() const {
    switch (type) {
        case OptionType::Flag:
            return "must be true or false";
        case OptionType::Integer:
            return "must be an integer" + rangeText(*this);
        case OptionType::Number:
            return "must be a finite number" + rangeText(*this);
        case OptionType::Numbers:
            return "must be a non-empty array of finite numbers" +
                   (rangeText(*this).empty() ? "" : ", each" + rangeText(*this));
        case OptionType::Variants:
            return "must be a non-empty array of variant names";
    }
    return "?";
}

std::string OptionSpec::check(const json& v) const {
    bool ok = false;
    switch (type) {
        case OptionType::Flag:
            ok = v.is_boolean();
            break;
        case OptionType::Integer:
            ok = v.is_number_integer() && inRange(*this, v.get<double>());
            break;
        case OptionType::Number:
            ok = v.is_number() && inRange(*this, v.get<double>());
            break;
        case OptionType::Numbers:
            ok = v.is_array() && !v.empty();
            for (size_t i = 0; ok && i < v.size(); ++i)
                ok = v[i].is_number() && inRange(*this, v[i].get<double>());
            break;
        case OptionType::Variants:
            ok = v.is_array() && !v.empty();
            for (size_t i = 0; ok && i < v.size(); ++i) ok = v[i].is_string();
            break;
    }
    return ok ? std::string() : "'" + name + "' " + rule();
}

namespace {

const json& option(const BlockConfig& b, const std::string& name) {
    auto it = b.options.find(name);
    if (it == b.options.end())
        throw Error("variant '" + b.variant + "' has no resolved option '" + name + "'");
    return *it;
}

}  // namespace

bool BlockConfig::flag(const std::string& name) const {
    return option(*this, name).get<bool>();
}

int BlockConfig::integer(const std::string& name) const {
    return option(*this, name).get<int>();
}

double BlockConfig::number(const std::string& name) const {
    return option(*this, name).get<double>();
}

std::vector<double> BlockConfig::numbers(const std::string& name) const {
    return option(*this, name).get<std::vector<double>>();
}

std::vector<std::string> BlockConfig::names(const std::string& name) const {
    return option(*this, name).get<std::vector<std::string>>();
}

bool BlockConfig::operator==(const BlockConfig& o) const {
    return variant == o.variant && heads == o.heads && topOnly == o.topOnly && options == o.options;
}

}  // namespace attnviz
