// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Attention over training (issue 15): a probe sentence's attention, recorded every K steps
// of a training run, so that one can watch heads form. The snapshots are kept in a side
// file next to the checkpoint, M.safetensors → M.probe.json (probePathFor), rewritten
// atomically after each snapshot, so it can be read while training runs:
//   {"format": "attnviz-probe", "version": 1, "model": NAME, "every": K,
//    "probe": {"source": TEXT, "target": TEXT or null},
//    "snapshots": [{"step": S, "dump": <attention dump, docs/model-spec.md>,
//                   "source_labels": [...], "target_labels": [...]}, ...]}
// Step 0 is the model before training. Without a probe target a seq2seq model decodes
// greedily at each snapshot, so the target side (and its shape) may change from one
// snapshot to the next.
#include <optional>
#include <string>
#include <vector>

#include "model.h"
#include "selection.h"
#include "workspace.h"

namespace attnviz {

struct ProbeSnapshot {
    int step = 0;
    Analysis analysis;
};

struct ProbeRecord {
    std::string model;  // the run's name (the checkpoint's file name)
    std::string source;
    std::optional<std::string> target;
    int every = 0;
    std::vector<ProbeSnapshot> snapshots;  // in step order
};

// "runs/m.safetensors" → "runs/m.probe.json" (any other extension: appended).
std::string probePathFor(const std::string& checkpoint);

// Records snapshots of one model during a run.
class ProbeRecorder {
public:
    // Checks that the probe can be analysed by `model` (Error naming the problem otherwise:
    // too long, empty, a decoder-only model given a target).
    ProbeRecorder(const Model& model, std::string name, std::string source,
                  std::optional<std::string> target, int every);

    // Whether step s is one to record: 0, every K-th, and `last` (the run's final step).
    bool due(int step, int last) const;
    // Analyses the probe with the model as it is now and appends the snapshot.
    const ProbeSnapshot& record(Model& model, int step);
    const ProbeRecord& record() const { return m_record; }

private:
    ProbeRecord m_record;
};

// The file's JSON, and back (Error naming what is wrong with a file). Reading applies the
// limits of core/input_limits.h: a regular file of at most kMaxProbeBytes, JSON nested at most
// kMaxJsonDepth deep, no repeated key, integers where the format has them.
std::string probeJson(const ProbeRecord& r, const ModelConfig& config);
// Without the model's configuration (the app's live record): the dumps carry no "config".
std::string probeJson(const ProbeRecord& r);
ProbeRecord readProbeFile(const std::string& path);
ProbeRecord parseProbeJson(const std::string& text, const std::string& what);

// Snapshots as workspace results, a column per snapshot named "step S", for the one road
// from results to pixels (the app's scrubber, the filmstrip figure). `steps` empty: every
// snapshot; otherwise the snapshots at those steps (Error for a step not recorded).
Results probeResults(const ProbeRecord& r, const std::vector<int>& steps = {},
                     const Wording& wording = {});

}  // namespace attnviz
