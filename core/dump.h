// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The attention dump of docs/model-spec.md ("Attention dump (JSON)"):
// {"model", "config", "source": {text, tokens, ids}, "target": {text, tokens, ids, decoded},
//  "loss", "blocks": [{"name", "kind", "layer", "variant", "weights": [heads][Nq][Nk]}]}.
// For a decoder-only model there is no "source"; "target" holds the text as decoder input.
#include <nlohmann/json.hpp>
#include <string>

#include "model.h"

namespace attnviz {

// JSON whose floating-point numbers are float32, so weights print with 9 significant
// digits instead of 17.
using FloatJson = nlohmann::basic_json<std::map, std::vector, std::string, bool, std::int64_t,
                                       std::uint64_t, float>;

FloatJson attentionDump(const std::string& modelName, const ModelConfig& config, const Analysis& a);

// The dump of an image model (docs/model-spec.md 8.1): {"model", "config", "image": {"size",
// "pixels", "label" (when known), "source" (where it came from)}, "classes", "logits",
// "probabilities", "prediction": {"index", "class"}, "loss" (with a label), "blocks"}.
FloatJson imageAttentionDump(const std::string& modelName, const Model& model,
                             const ImageAnalysis& a, const std::string& source);

}  // namespace attnviz
