// SPDX-License-Identifier: GPL-3.0-or-later
#include "config.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

#include "attention/attention.h"
#include "error.h"

namespace attnviz {
namespace {

using nlohmann::json;

int getInt(const json& j, const std::string& where, const std::string& key, int def, int minimum,
           int maximum) {
    if (!j.contains(key)) return def;
    const json& v = j[key];
    if (!v.is_number_integer())
        throw Error(where + "'" + key + "' must be an integer, got " + v.dump());
    const auto x = v.get<int64_t>();
    if (x < minimum || x > maximum) {
        throw Error(where + "'" + key + "' must be between " + std::to_string(minimum) + " and " +
                    std::to_string(maximum) + ", got " + std::to_string(x));
    }
    return static_cast<int>(x);
}

bool getBool(const json& j, const std::string& where, const std::string& key, bool def) {
    if (!j.contains(key)) return def;
    if (!j[key].is_boolean())
        throw Error(where + "'" + key + "' must be true or false, got " + j[key].dump());
    return j[key].get<bool>();
}

double getNumber(const json& j, const std::string& where, const std::string& key, double def) {
    if (!j.contains(key)) return def;
    if (!j[key].is_number())
        throw Error(where + "'" + key + "' must be a number, got " + j[key].dump());
    const double x = j[key].get<double>();
    if (!std::isfinite(x)) throw Error(where + "'" + key + "' must be finite");
    return x;
}

std::string getString(const json& j, const std::string& where, const std::string& key,
                      const std::string& def) {
    if (!j.contains(key)) return def;
    if (!j[key].is_string())
        throw Error(where + "'" + key + "' must be a string, got " + j[key].dump());
    return j[key].get<std::string>();
}

json numberJson(double x) {
    if (std::floor(x) == x && std::abs(x) < 1e9) return static_cast<int64_t>(x);
    return x;
}

BlockConfig parseBlock(const json& j, BlockKind kind, const ModelConfig& model) {
    const std::string name = blockKindName(kind);
    const std::string where = name + ": ";
    if (!j.is_object()) throw Error(where + "must be a JSON object, got " + j.dump());
    BlockConfig b;
    b.variant = getString(j, where, "variant", "dot");
    const VariantInfo& info = variantInfo(b.variant);  // Error when unknown

    std::set<std::string> allowed{"variant", "heads"};
    if (kind == BlockKind::Cross) allowed.insert("layers");
    for (const auto& o : info.options) allowed.insert(o);
    if (b.variant == "mixture" && j.contains("components") && j["components"].is_array()) {
        for (const auto& c : j["components"]) {
            if (c.is_string()) {
                if (const VariantInfo* ci = findVariant(c.get<std::string>()))
                    for (const auto& o : ci->options) allowed.insert(o);
            }
        }
    }
    for (auto it = j.begin(); it != j.end(); ++it) {
        if (!allowed.count(it.key())) {
            throw Error(where + "option '" + it.key() + "' does not apply to variant '" +
                        b.variant + "'");
        }
    }

    b.heads = getInt(j, where, "heads", model.heads, 1, 4096);
    if (model.dModel % b.heads != 0) {
        throw Error(where + "heads (" + std::to_string(b.heads) + ") must divide d_model (" +
                    std::to_string(model.dModel) + ")");
    }
    if (j.contains("offsets")) {
        if (!j["offsets"].is_array() || j["offsets"].empty())
            throw Error(where + "'offsets' must be a non-empty array of numbers");
        for (const auto& o : j["offsets"]) {
            if (!o.is_number() || !std::isfinite(o.get<double>()))
                throw Error(where + "'offsets' must contain only numbers, got " + o.dump());
            b.offsets.push_back(o.get<double>());
        }
    }
    b.sigma = getNumber(j, where, "sigma", 1.0);
    if (!(b.sigma > 0)) throw Error(where + "'sigma' must be positive");
    b.normalize = getBool(j, where, "normalize", false);
    b.ratio = getNumber(j, where, "ratio", 1.0);
    b.trainable = getBool(j, where, "trainable", true);
    b.k = getInt(j, where, "k", 8, 1, 1 << 16);
    b.a = getInt(j, where, "a", 0, 1, 1 << 20);
    b.b = getInt(j, where, "b", 0, 1, 1 << 20);
    if (j.contains("components")) {
        if (!j["components"].is_array())
            throw Error(where + "'components' must be an array of variant names");
        for (const auto& c : j["components"]) {
            if (!c.is_string()) throw Error(where + "'components' must contain variant names");
            b.components.push_back(c.get<std::string>());
        }
    }
    const std::string layers = getString(j, where, "layers", "all");
    if (layers != "all" && layers != "top")
        throw Error(where + "'layers' must be \"all\" or \"top\", got \"" + layers + "\"");
    b.topOnly = layers == "top";

    BlockGeometry geo{model.dModel, b.heads, model.maxLen, kind};
    try {
        info.resolve(b, geo);
    } catch (const Error& e) {
        throw Error(where + e.what());
    }
    return b;
}

json blockJson(const BlockConfig& b, BlockKind kind) {
    json j{{"variant", b.variant}, {"heads", b.heads}};
    const VariantInfo& info = variantInfo(b.variant);
    std::set<std::string> opts(info.options.begin(), info.options.end());
    for (const auto& c : b.components)
        for (const auto& o : variantInfo(c).options) opts.insert(o);
    if (opts.count("offsets")) {
        json arr = json::array();
        for (double o : b.offsets) arr.push_back(numberJson(o));
        j["offsets"] = arr;
    }
    if (opts.count("sigma")) j["sigma"] = b.sigma;
    if (opts.count("normalize")) j["normalize"] = b.normalize;
    if (opts.count("ratio")) j["ratio"] = b.ratio;
    if (opts.count("trainable")) j["trainable"] = b.trainable;
    if (opts.count("k")) j["k"] = b.k;
    if (opts.count("a")) j["a"] = b.a;
    if (opts.count("b")) j["b"] = b.b;
    if (opts.count("components")) j["components"] = b.components;
    if (kind == BlockKind::Cross) j["layers"] = b.topOnly ? "top" : "all";
    return j;
}

}  // namespace

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

bool blockKindFromName(const std::string& name, BlockKind* kind) {
    for (BlockKind k : {BlockKind::EncoderSelf, BlockKind::DecoderSelf, BlockKind::Cross}) {
        if (name == blockKindName(k)) {
            *kind = k;
            return true;
        }
    }
    return false;
}

bool BlockConfig::operator==(const BlockConfig& o) const {
    return variant == o.variant && heads == o.heads && offsets == o.offsets && sigma == o.sigma &&
           normalize == o.normalize && ratio == o.ratio && trainable == o.trainable && k == o.k &&
           a == o.a && b == o.b && components == o.components && topOnly == o.topOnly;
}

bool ModelConfig::operator==(const ModelConfig& o) const {
    return toJson() == o.toJson();
}

ModelConfig ModelConfig::fromJson(const json& j) {
    if (!j.is_object()) throw Error("model configuration must be a JSON object");
    static const std::set<std::string> known{
        "arch",       "d_model",      "heads",        "d_ff", "enc_layers",
        "dec_layers", "max_len",      "norm",         "bias", "share_embeddings",
        "tie_output", "encoder_self", "decoder_self", "cross"};
    for (auto it = j.begin(); it != j.end(); ++it)
        if (!known.count(it.key())) throw Error("unknown configuration key '" + it.key() + "'");
    ModelConfig c;
    const std::string where;
    const std::string arch = getString(j, where, "arch", "seq2seq");
    if (arch == "seq2seq") {
        c.arch = Arch::Seq2Seq;
    } else if (arch == "decoder") {
        c.arch = Arch::Decoder;
    } else {
        throw Error("'arch' must be \"seq2seq\" or \"decoder\", got \"" + arch + "\"");
    }
    c.dModel = getInt(j, where, "d_model", 64, 1, 1 << 16);
    c.heads = getInt(j, where, "heads", 4, 1, 4096);
    if (c.dModel % c.heads != 0) {
        throw Error("heads (" + std::to_string(c.heads) + ") must divide d_model (" +
                    std::to_string(c.dModel) + ")");
    }
    c.dFf = getInt(j, where, "d_ff", 4 * c.dModel, 1, 1 << 20);
    c.encLayers = getInt(j, where, "enc_layers", c.arch == Arch::Seq2Seq ? 2 : 0, 0, 256);
    c.decLayers = getInt(j, where, "dec_layers", 2, 1, 256);
    if (c.arch == Arch::Decoder && c.encLayers != 0)
        throw Error("arch \"decoder\" has no encoder: 'enc_layers' must be 0 or absent");
    if (c.arch == Arch::Seq2Seq && c.encLayers < 1)
        throw Error("arch \"seq2seq\" needs 'enc_layers' of at least 1");
    c.maxLen = getInt(j, where, "max_len", 64, 2, 8192);
    const std::string norm = getString(j, where, "norm", "pre");
    if (norm == "pre") {
        c.norm = Norm::Pre;
    } else if (norm == "post") {
        c.norm = Norm::Post;
    } else {
        throw Error("'norm' must be \"pre\" or \"post\", got \"" + norm + "\"");
    }
    c.bias = getBool(j, where, "bias", true);
    c.shareEmbeddings = getBool(j, where, "share_embeddings", false);
    c.tieOutput = getBool(j, where, "tie_output", true);
    const json dotBlock{{"variant", "dot"}};
    c.decoderSelf = parseBlock(j.value("decoder_self", dotBlock), BlockKind::DecoderSelf, c);
    if (c.arch == Arch::Seq2Seq) {
        c.encoderSelf = parseBlock(j.value("encoder_self", dotBlock), BlockKind::EncoderSelf, c);
        c.cross = parseBlock(j.value("cross", dotBlock), BlockKind::Cross, c);
    } else {
        if (j.contains("encoder_self") || j.contains("cross"))
            throw Error("arch \"decoder\" has no encoder: remove 'encoder_self' and 'cross'");
        c.encoderSelf = BlockConfig{};
        c.cross = BlockConfig{};
    }
    return c;
}

ModelConfig ModelConfig::fromJsonText(const std::string& text) {
    json j;
    try {
        j = json::parse(text);
    } catch (const json::exception& e) {
        throw Error(std::string("configuration is not valid JSON: ") + e.what());
    }
    return fromJson(j);
}

ModelConfig ModelConfig::fromFile(const std::string& path) {
    try {
        return fromJsonText(readTextFile(path));
    } catch (const Error& e) {
        throw Error(path + ": " + e.what());
    }
}

json ModelConfig::toJson() const {
    json j{{"arch", arch == Arch::Seq2Seq ? "seq2seq" : "decoder"},
           {"d_model", dModel},
           {"heads", heads},
           {"d_ff", dFf},
           {"enc_layers", encLayers},
           {"dec_layers", decLayers},
           {"max_len", maxLen},
           {"norm", norm == Norm::Pre ? "pre" : "post"},
           {"bias", bias},
           {"share_embeddings", shareEmbeddings},
           {"tie_output", tieOutput}};
    if (arch == Arch::Seq2Seq) j["encoder_self"] = blockJson(encoderSelf, BlockKind::EncoderSelf);
    j["decoder_self"] = blockJson(decoderSelf, BlockKind::DecoderSelf);
    if (arch == Arch::Seq2Seq) j["cross"] = blockJson(cross, BlockKind::Cross);
    return j;
}

const BlockConfig& ModelConfig::block(BlockKind kind) const {
    switch (kind) {
        case BlockKind::EncoderSelf:
            return encoderSelf;
        case BlockKind::DecoderSelf:
            return decoderSelf;
        case BlockKind::Cross:
            return cross;
    }
    return encoderSelf;
}

BlockConfig& ModelConfig::block(BlockKind kind) {
    return const_cast<BlockConfig&>(static_cast<const ModelConfig*>(this)->block(kind));
}

bool ModelConfig::hasCross(int layer) const {
    if (arch != Arch::Seq2Seq) return false;
    return !cross.topOnly || layer == decLayers - 1;
}

std::string readTextFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error("cannot open '" + path + "' for reading");
    std::ostringstream ss;
    ss << in.rdbuf();
    if (in.bad()) throw Error("error while reading '" + path + "'");
    return ss.str();
}

}  // namespace attnviz
