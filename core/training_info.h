// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A checkpoint's "training" metadata (docs/model-spec.md 7.2), parsed and validated once when
// the checkpoint is read: how the file was made. Readers use the typed fields; the whole
// object, unknown keys included, is kept in raw() so that a re-saved checkpoint keeps it.
//   init:     {"kind": "random-init", "seed": S}
//   training: {"kind": "trained", "steps": N, "stopped_early": B, "options": {...},
//              "held_out": {...}, "task": T or "data": F, ["init", "init_training"], ["name"]}
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace attnviz {

// The held-out metrics of a run (core/evaluate.h Evaluation::toJson, plus "source").
struct HeldOutInfo {
    std::optional<int64_t> sentences, tokens;
    std::optional<double> loss, tokenAccuracy, exactMatch;
    std::optional<double> bleu;     // 0..100
    std::optional<double> bestAer;  // "best_aer": {"aer": …}, the best head's or layer's AER
    std::string source;             // which examples were held out; "" when absent
};

struct TrainingInfo {
    std::string kind;  // "trained", "random-init", …; "" when absent
    std::string name;  // the model's name given in the app; "" when absent
    std::optional<int64_t> steps;
    std::optional<bool> stoppedEarly;
    std::optional<uint64_t> seed;  // of a random initialisation
    std::string task, data, init;  // "" when absent
    std::optional<HeldOutInfo> heldOut;

    // Whether the checkpoint has training metadata at all.
    bool present() const { return !m_raw.is_null(); }
    bool untrained() const { return kind == "random-init"; }
    // The object as read or given (null when absent): what the checkpoint stores.
    const nlohmann::json& raw() const { return m_raw; }

    // Validates `j` (null: no metadata): an object whose known keys have their types (kind,
    // name, task, data, init: strings; steps: an integer ≥ 0; stopped_early: a boolean; seed:
    // an integer ≥ 0; held_out: an object of numbers and a "source" string). Error naming
    // `what` and the key otherwise, e.g. "checkpoint training metadata: 'steps' must be an
    // integer of at least 0, got \"ten\"". Unknown keys are kept, unchecked.
    static TrainingInfo fromJson(nlohmann::json j, const std::string& what);

private:
    nlohmann::json m_raw;
};

}  // namespace attnviz
