// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// One attention block's settings and the typed option tables that variants declare
// (docs/model-spec.md, "Configuration"). This header knows no variant: each variant lists
// its options in its own file (core/attention/), and the generic code of
// core/attention/options.cpp parses, validates, writes and compares any block from them.
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace attnviz {

enum class BlockKind { EncoderSelf, DecoderSelf, Cross };

// "encoder_self", "decoder_self", "cross": the names used in configs and dumps.
const char* blockKindName(BlockKind kind);
// The kind named `name` ("encoder_self", …); false when there is none.
bool blockKindFromName(const std::string& name, BlockKind* kind);
// Every kind's name, in the order above.
std::vector<std::string> blockKindNames();

// The JSON type of an option's value.
enum class OptionType {
    Flag,      // true / false
    Integer,   // whole number within [min, max]
    Number,    // finite number within the range
    Numbers,   // non-empty list of finite numbers, each within the range
    Variants,  // non-empty list of variant names (a mixture's components); their options apply
};

// One entry of a variant's option table.
struct OptionSpec {
    std::string name;
    OptionType type = OptionType::Number;
    // Used when the configuration leaves the option out. null: the variant's resolve()
    // fills it in from the block (e.g. Gaussian offsets depend on the block kind).
    nlohmann::json defaultValue;
    double min = -std::numeric_limits<double>::infinity();
    double max = std::numeric_limits<double>::infinity();
    bool minExclusive = false;  // the value must be > min rather than >= min
    // Changes no tensor (no parameter shape or value depends on it), so it may be edited on
    // a trained model: the app's Variant tab offers it (Model::reconfigure).
    bool live = false;
    std::string help;  // one line for people: what it does, in the paper's terms

    // Builders, so that a table reads as a sentence:
    //   OptionSpec::number("sigma", 1.0).above(0).editable().about("…")
    static OptionSpec flag(std::string name, bool def);
    static OptionSpec integer(std::string name, nlohmann::json def);
    static OptionSpec number(std::string name, nlohmann::json def);
    static OptionSpec numbers(std::string name, nlohmann::json def);
    static OptionSpec variants(std::string name);
    OptionSpec& atLeast(double x);
    OptionSpec& above(double x);
    OptionSpec& atMost(double x);
    OptionSpec& editable();
    OptionSpec& about(std::string text);

    // "must be a number > 0", "must be an integer between 1 and 65536", …
    std::string rule() const;
    // Empty when `v` is a valid value of this option, else what is wrong (no value quoted).
    std::string check(const nlohmann::json& v) const;
};

// One attention block's settings. After parsing, every option that applies to the variant
// is present in `options` with its resolved value, so variant code never guesses.
struct BlockConfig {
    std::string variant = "dot";
    int heads = 0;         // 0 while unresolved; then the model's heads unless set
    bool topOnly = false;  // cross only: "layers": "top" (only the last decoder layer)
    nlohmann::json options = nlohmann::json::object();

    // Typed access to a resolved option; Error naming it when absent or of another type.
    bool flag(const std::string& name) const;
    int integer(const std::string& name) const;
    double number(const std::string& name) const;
    std::vector<double> numbers(const std::string& name) const;
    std::vector<std::string> names(const std::string& name) const;
    bool has(const std::string& name) const { return options.contains(name); }

    bool operator==(const BlockConfig& o) const;
    bool operator!=(const BlockConfig& o) const { return !(*this == o); }
};

}  // namespace attnviz
