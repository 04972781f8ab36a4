// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The papers' configurations ("presets") are the files of resources/models/configs/: one
// model configuration per file, named NN-id.json, with an optional "label" for people.
// The app's Training tab, the CLI, the tests and scripts/train-bundled-models all iterate
// these files, so a new preset is a new file and nothing else.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace attnviz {

struct Preset {
    std::string id;         // "hc-sa": the file name without its number and ".json"
    std::string label;      // "HC-SA: Gaussian self-attention, …" (the id when absent)
    std::string path;       // the file
    nlohmann::json config;  // the configuration as written in the file, validated
};

// The presets' directory: configs/ of the bundled models (core/workspace.h).
std::string presetDirectory();

// Every *.json of `dir` (not its subdirectories), sorted by file name; each must be a
// valid model configuration. Error naming the file otherwise, or when `dir` has none.
std::vector<Preset> loadPresets(const std::string& dir);

// The presets' ids, in their order: what findPreset accepts.
std::vector<std::string> presetIds(const std::vector<Preset>& presets);

// The preset whose id is `id`; Error listing the ids otherwise.
const Preset& findPreset(const std::vector<Preset>& presets, const std::string& id);

// A preset's attention on another model: the keys of `size` (d_model, heads, d_ff,
// enc_layers, dec_layers, max_len, share_embeddings, tie_output) replace the preset's (Error
// for any other key); `decoderOnly` makes it a language
// model (arch "decoder") that keeps only the decoder self-attention block.
nlohmann::json presetConfig(const Preset& preset, const nlohmann::json& size, bool decoderOnly);

}  // namespace attnviz
