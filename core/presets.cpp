// SPDX-License-Identifier: GPL-3.0-or-later
#include "presets.h"

#include <algorithm>
#include <filesystem>

#include "bundled_models.h"
#include "config.h"
#include "error.h"
#include "input_limits.h"

namespace attnviz {

namespace fs = std::filesystem;
using nlohmann::json;

std::string presetDirectory() {
    return bundledModelDirectory() + "/configs";
}

std::vector<Preset> loadPresets(const std::string& dir) {
    std::vector<fs::path> files;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
        if (it->is_regular_file() && it->path().extension() == ".json") files.push_back(it->path());
    if (ec) throw Error("cannot list the presets in '" + dir + "': " + ec.message());
    if (files.empty()) throw Error("no preset configurations (*.json) in '" + dir + "'");
    std::sort(files.begin(), files.end());
    std::vector<Preset> presets;
    for (const auto& f : files) {
        Preset p;
        p.path = f.string();
        const std::string stem = f.stem().string();
        const auto dash = stem.find('-');
        const bool numbered = dash != std::string::npos &&
                              std::all_of(stem.begin(), stem.begin() + long(dash), ::isdigit);
        p.id = numbered ? stem.substr(dash + 1) : stem;
        try {
            p.config = parseJson(readTextFile(p.path, kMaxConfigBytes, "configuration"), "preset");
            ModelConfig::fromJson(p.config);  // validates
        } catch (const std::exception& e) {
            throw Error(p.path + ": " + e.what());
        }
        p.label = p.config.value("label", p.id);
        presets.push_back(std::move(p));
    }
    return presets;
}

std::vector<std::string> presetIds(const std::vector<Preset>& presets) {
    std::vector<std::string> ids;
    for (const auto& p : presets) ids.push_back(p.id);
    return ids;
}

const Preset& findPreset(const std::vector<Preset>& presets, const std::string& id) {
    for (const auto& p : presets)
        if (p.id == id) return p;
    std::string known;
    for (const auto& i : presetIds(presets)) known += (known.empty() ? "" : ", ") + i;
    throw Error("unknown preset '" + id + "' (known: " + known + ")");
}

namespace {

constexpr const char* kSizeKeys[] = {"d_model",          "heads",      "d_ff",
                                     "enc_layers",       "dec_layers", "max_len",
                                     "share_embeddings", "tie_output"};

std::string sizeKeyList() {
    std::string s;
    for (const char* k : kSizeKeys) s += (s.empty() ? "" : ", ") + std::string(k);
    return s;
}

}  // namespace

json presetConfig(const Preset& preset, const json& size, bool decoderOnly) {
    json c = preset.config;
    c.erase("label");
    if (!size.is_object()) throw Error("a model size must be a JSON object, got " + excerpt(size));
    for (const auto& [key, value] : size.items()) {
        if (std::find(std::begin(kSizeKeys), std::end(kSizeKeys), key) == std::end(kSizeKeys))
            throw Error("a model size may set " + sizeKeyList() + ", not '" + excerpt(key) + "'");
        c[key] = value;
    }
    if (decoderOnly) {
        c["arch"] = "decoder";
        c["enc_layers"] = 0;
        c.erase("encoder_self");
        c.erase("cross");
    }
    return c;
}

}  // namespace attnviz
