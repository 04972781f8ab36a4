// SPDX-License-Identifier: GPL-3.0-or-later
#include "config.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>

#include "attention/attention.h"
#include "attention/variants.h"
#include "error.h"
#include "input_limits.h"

namespace attnviz {
namespace {

using nlohmann::json;

int getInt(const json& j, const std::string& where, const std::string& key, int def, int minimum,
           int maximum) {
    if (!j.contains(key)) return def;
    const json& v = j[key];
    if (!v.is_number_integer())
        throw Error(where + "'" + key + "' must be an integer, got " + excerpt(v));
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
        throw Error(where + "'" + key + "' must be true or false, got " + excerpt(j[key]));
    return j[key].get<bool>();
}

std::string getString(const json& j, const std::string& where, const std::string& key,
                      const std::string& def) {
    if (!j.contains(key)) return def;
    if (!j[key].is_string())
        throw Error(where + "'" + key + "' must be a string, got " + excerpt(j[key]));
    return j[key].get<std::string>();
}

// The widths every architecture has: d_model, heads (dividing it) and d_ff.
void readWidths(const json& j, const std::string& where, ModelConfig& c) {
    c.dModel = getInt(j, where, "d_model", 64, 1, 1 << 16);
    c.heads = getInt(j, where, "heads", 4, 1, 4096);
    if (c.dModel % c.heads != 0) {
        throw Error("heads (" + std::to_string(c.heads) + ") must divide d_model (" +
                    std::to_string(c.dModel) + ")");
    }
    c.dFf = getInt(j, where, "d_ff", 4 * c.dModel, 1, 1 << 20);
}

// The key "norm": "pre" (the default) or "post".
Norm normOf(const json& j, const std::string& where) {
    const std::string norm = getString(j, where, "norm", "pre");
    if (norm == "pre") return Norm::Pre;
    if (norm == "post") return Norm::Post;
    throw Error("'norm' must be \"pre\" or \"post\", got \"" + excerpt(norm) + "\"");
}

}  // namespace

bool ModelConfig::operator==(const ModelConfig& o) const {
    return toJson() == o.toJson();
}

ModelConfig ModelConfig::fromJson(const json& j) {
    if (!j.is_object()) throw Error("model configuration must be a JSON object");
    static const std::set<std::string> known{
        "arch",       "d_model",      "heads",        "d_ff",    "enc_layers",
        "dec_layers", "max_len",      "norm",         "bias",    "share_embeddings",
        "tie_output", "encoder_self", "decoder_self", "cross",   "label",
        "image_size", "patch",        "pool",         "classes", "channels",
        "stem"};
    for (auto it = j.begin(); it != j.end(); ++it)
        if (!known.count(it.key()))
            throw Error("unknown configuration key '" + excerpt(it.key()) + "'");
    ModelConfig c;
    const std::string where;
    // "label" names a preset for people (core/presets.h); it is not part of the model.
    if (j.contains("label") && !j["label"].is_string()) throw Error("'label' must be a string");
    const std::string arch = getString(j, where, "arch", "seq2seq");
    if (arch == "seq2seq") {
        c.arch = Arch::Seq2Seq;
    } else if (arch == "decoder") {
        c.arch = Arch::Decoder;
    } else if (arch == "vit") {
        return fromVitJson(j);
    } else {
        throw Error("'arch' must be \"seq2seq\", \"decoder\" or \"vit\", got \"" + excerpt(arch) +
                    "\"");
    }
    for (const char* key : {"image_size", "channels", "patch", "pool", "classes", "stem"})
        if (j.contains(key))
            throw Error(std::string("'") + key + "' belongs to arch \"vit\" (images), not \"" +
                        arch + "\"");
    readWidths(j, where, c);
    c.encLayers = getInt(j, where, "enc_layers", c.arch == Arch::Seq2Seq ? 2 : 0, 0, kMaxLayers);
    c.decLayers = getInt(j, where, "dec_layers", 2, 1, kMaxLayers);
    if (c.arch == Arch::Decoder && c.encLayers != 0)
        throw Error("arch \"decoder\" has no encoder: 'enc_layers' must be 0 or absent");
    if (c.arch == Arch::Seq2Seq && c.encLayers < 1)
        throw Error("arch \"seq2seq\" needs 'enc_layers' of at least 1");
    c.maxLen = getInt(j, where, "max_len", 64, 2, 8192);
    c.norm = normOf(j, where);
    c.bias = getBool(j, where, "bias", true);
    c.shareEmbeddings = getBool(j, where, "share_embeddings", false);
    c.tieOutput = getBool(j, where, "tie_output", true);
    const json dotBlock = json::object();
    auto block = [&](const char* key, BlockKind kind) {
        return parseBlockConfig(j.contains(key) ? j[key] : dotBlock, kind, c.dModel, c.heads,
                                c.maxLen);
    };
    c.decoderSelf = block("decoder_self", BlockKind::DecoderSelf);
    if (c.arch == Arch::Seq2Seq) {
        c.encoderSelf = block("encoder_self", BlockKind::EncoderSelf);
        c.cross = block("cross", BlockKind::Cross);
    } else {
        if (j.contains("encoder_self") || j.contains("cross"))
            throw Error("arch \"decoder\" has no encoder: remove 'encoder_self' and 'cross'");
        c.encoderSelf = BlockConfig{};
        c.cross = BlockConfig{};
    }
    c.checkWeightLimit();
    return c;
}

void ModelConfig::checkWeightLimit() const {
    const ModelConfig& c = *this;
    if (c.weightCount() > kMaxModelWeights) {
        throw Error("this configuration has " + std::to_string(c.weightCount() / 1000000) +
                    " million weights besides the embeddings (needs " +
                    gigabytes(4.0 * double(c.weightCount())) +
                    " to hold, about 4 times that to "
                    "train); the limit is " +
                    std::to_string(kMaxModelWeights / 1000000) + " million (docs/limits.md)");
    }
}

ModelConfig ModelConfig::fromVitJson(const json& j) {
    // Keys of the text models that an image classifier does not have.
    for (const char* key :
         {"dec_layers", "share_embeddings", "tie_output", "decoder_self", "cross"})
        if (j.contains(key))
            throw Error(std::string("arch \"vit\" has no decoder and no vocabulary: remove '") +
                        key + "'");
    ModelConfig c;
    const std::string where;
    c.arch = Arch::Vit;
    readWidths(j, where, c);
    c.encLayers = getInt(j, where, "enc_layers", 4, 1, kMaxLayers);
    c.decLayers = 0;
    c.imageSize = getInt(j, where, "image_size", 28, 1, 1024);
    c.channels = getInt(j, where, "channels", 1, std::numeric_limits<int>::min(),
                        std::numeric_limits<int>::max());
    if (c.channels != 1 && c.channels != 3)
        throw Error("'channels' must be 1 (grayscale) or 3 (colour: R, G, B), got " +
                    std::to_string(c.channels));
    c.patch = getInt(j, where, "patch", 4, 1, c.imageSize);
    if (c.imageSize % c.patch != 0)
        throw Error("'patch' (" + std::to_string(c.patch) + ") must divide 'image_size' (" +
                    std::to_string(c.imageSize) + ")");
    if (j.contains("stem")) {
        const json& s = j["stem"];
        if (!s.is_array() || s.empty() || s.size() > 5)
            throw Error(
                "'stem' must be a list of 1 to 5 channel counts (3 × 3 convolutions of "
                "stride 2), got " +
                excerpt(s));
        for (const json& v : s) {
            if (!v.is_number_integer() || v.get<int64_t>() < 1 || v.get<int64_t>() > 1024)
                throw Error("'stem' channel counts must be integers from 1 to 1024, got " +
                            excerpt(v));
            c.stem.push_back(v.get<int>());
        }
        if (const size_t n = c.stem.size(); c.patch != 1 << n)
            throw Error("a 'stem' of " + std::to_string(n) + " convolution" + (n == 1 ? "" : "s") +
                        " of stride 2 makes patches of " + std::to_string(1 << n) +
                        " pixels: 'patch' must be " + std::to_string(1 << n) + ", got " +
                        std::to_string(c.patch) + (j.contains("patch") ? "" : " (its default)"));
    }
    const std::string pool = getString(j, where, "pool", "cls");
    if (pool == "cls") {
        c.pool = Pool::Cls;
    } else if (pool == "mean") {
        c.pool = Pool::Mean;
    } else {
        throw Error("'pool' must be \"cls\" or \"mean\", got \"" + excerpt(pool) + "\"");
    }
    c.classes = getInt(j, where, "classes", 10, 2, 65536);
    if (c.positions() > 1024)
        throw Error("image_size " + std::to_string(c.imageSize) + " with patch " +
                    std::to_string(c.patch) + " gives " + std::to_string(c.positions()) +
                    " positions; the engine takes at most 1024 (a larger 'patch')");
    // The positions are fixed by the image: max_len is their number, not a choice.
    c.maxLen = getInt(j, where, "max_len", c.positions(), 1, 8192);
    if (c.maxLen != c.positions())
        throw Error("'max_len' of a vit model is its number of positions (" +
                    std::to_string(c.positions()) + " for this image_size, patch and pool), got " +
                    std::to_string(c.maxLen) + ": leave it out");
    c.norm = normOf(j, where);
    c.bias = getBool(j, where, "bias", true);
    c.shareEmbeddings = false;
    c.tieOutput = false;
    // Every variant has its reading on the patch grid (docs/model-spec.md 4.4): the block is
    // parsed with the grid, whose defaults and rules the variants own.
    const json block = j.contains("encoder_self") ? j["encoder_self"] : json::object();
    c.encoderSelf =
        parseGridBlockConfig(block, c.dModel, c.heads, c.maxLen, c.gridSize(), c.pool == Pool::Cls);
    c.checkWeightLimit();
    return c;
}

ModelConfig ModelConfig::fromJsonText(const std::string& text) {
    return fromJson(parseJson(text, "configuration"));
}

ModelConfig ModelConfig::fromFile(const std::string& path) {
    const std::string text = readTextFile(path, kMaxConfigBytes, "configuration");  // names path
    try {
        return fromJson(parseJson(text, "configuration"));
    } catch (const Error& e) {
        throw Error(path + ": " + e.what());
    }
}

json ModelConfig::toJson() const {
    if (arch == Arch::Vit) {
        json v{{"arch", "vit"},
               {"d_model", dModel},
               {"heads", heads},
               {"d_ff", dFf},
               {"enc_layers", encLayers},
               {"image_size", imageSize},
               {"channels", channels},
               {"patch", patch},
               {"pool", pool == Pool::Cls ? "cls" : "mean"},
               {"classes", classes},
               {"max_len", maxLen},
               {"norm", norm == Norm::Pre ? "pre" : "post"},
               {"bias", bias},
               {"encoder_self", blockConfigJson(encoderSelf, BlockKind::EncoderSelf)}};
        if (!stem.empty()) v["stem"] = stem;  // absent in every model made before the stem
        return v;
    }
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
    if (arch == Arch::Seq2Seq)
        j["encoder_self"] = blockConfigJson(encoderSelf, BlockKind::EncoderSelf);
    j["decoder_self"] = blockConfigJson(decoderSelf, BlockKind::DecoderSelf);
    if (arch == Arch::Seq2Seq) j["cross"] = blockConfigJson(cross, BlockKind::Cross);
    return j;
}

uint64_t ModelConfig::weightCount() const {
    const uint64_t d = uint64_t(dModel), attn = 4 * d * d + 4 * d;
    const uint64_t ffn = 2 * d * uint64_t(dFf) + d + uint64_t(dFf), norms = 6 * d;
    uint64_t crossLayers = 0;
    for (int l = 0; l < decLayers; ++l) crossLayers += hasCross(l) ? 1 : 0;
    // vit: patch embedding, class token and classifier too (counted generously).
    uint64_t vit =
        arch == Arch::Vit ? uint64_t(patchValues()) * d + 2 * d + uint64_t(classes) * d : 0;
    for (size_t i = 0; i < stem.size(); ++i)  // 3 × 3 × inputs × outputs, and a bias each
        vit += (9 * uint64_t(stemInputs(i)) + 1) * uint64_t(stem[i]);
    return uint64_t(encLayers) * (attn + ffn + norms) + uint64_t(decLayers) * (attn + ffn + norms) +
           crossLayers * attn + uint64_t(maxLen) * d * 2 + vit;
}

double ModelConfig::trainingBytes(int batch, int threads) const {
    const double weights = double(weightCount()) * 4 * (3 + std::max(1, threads));
    const double layers = encLayers + 2.0 * decLayers;
    const double perToken = 16.0 * dModel + 2.0 * dFf + 3.0 * heads * maxLen;
    // A stem keeps each convolution's columns (9 × inputs) and output (twice) per output pixel.
    double stemValues = 0;
    for (size_t i = 0; i < stem.size(); ++i) {
        const double side = double(imageSize) / double(2 << i);
        stemValues += side * side * (9.0 * stemInputs(i) + 2.0 * stem[i]);
    }
    return weights + double(batch) * maxLen * layers * perToken * 4 +
           double(batch) * stemValues * 4;
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

std::vector<BlockKind> ModelConfig::blockKinds() const {
    switch (arch) {
        case Arch::Seq2Seq:
            return {BlockKind::EncoderSelf, BlockKind::DecoderSelf, BlockKind::Cross};
        case Arch::Decoder:
            return {BlockKind::DecoderSelf};
        case Arch::Vit:
            return {BlockKind::EncoderSelf};
    }
    return {};
}

bool ModelConfig::hasBlock(BlockKind kind) const {
    const std::vector<BlockKind> kinds = blockKinds();
    return std::find(kinds.begin(), kinds.end(), kind) != kinds.end();
}

bool ModelConfig::hasCross(int layer) const {
    if (arch != Arch::Seq2Seq) return false;
    return !cross.topOnly || layer == decLayers - 1;
}

}  // namespace attnviz
