// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The models a workspace shows and their analyses of one sentence, without Qt: loading
// checkpoints, finding the bundled models, and analysing every model synchronously. The
// app runs analyzeAll on a worker thread (ui/analysis_runner.h); `attnviz-cli render`
// calls it directly.
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "bundled_models.h"  // bundledModelDirectory
#include "model.h"

namespace attnviz {

// A model shown as a column. The core Model keeps scratch buffers, so each one is used by
// one thread at a time: analyses take its lock.
struct ModelColumn {
    std::string name;
    std::string path;  // empty for a model trained in the app and not saved yet
    std::shared_ptr<Model> model;
    std::shared_ptr<std::mutex> lock = std::make_shared<std::mutex>();
    // The configuration as read from `path`, or as trained for a model trained in the app
    // (JSON text): what "Reset to trained values" goes back to. Empty when neither.
    std::string fileConfig;
};

// Whether the column's model was reconfigured since it was read (e.g. Gaussian sigma edited
// in the app): its configuration differs from the file's. Call with the column's lock held
// or when no one can reconfigure it.
bool isModified(const ModelColumn& c);

// Reads a checkpoint; its name is the "training" metadata's name, else the file name
// without extension and numeric prefix ("01-dot.safetensors" -> "dot"). Throws Error.
ModelColumn loadModelColumn(const std::string& path);
// Every *.safetensors in `dir`, sorted by file name; files that fail to load are reported
// in `errors` (one message each) and skipped.
std::vector<ModelColumn> loadModelDirectory(const std::string& dir,
                                            std::vector<std::string>* errors);

// The bundled model sets, found, not listed: every folder under bundledModelDirectory()
// (the top one included, four levels deep at most) that holds checkpoints (*.safetensors) or
// a set.json is a set. set.json, beside the models, names it for people and places it:
//     {"id": "en-es", "name": "English → Spanish (real text, subwords)", "order": 10}
// ("id" is what workspaces save; "name" is translated by the app, scripts/update-translations
// reads it). Without a set.json (or with one that cannot be read: `problem` says why) the
// set is called by its folder and comes after the others. Sets are in ascending "order",
// then by id; the first is the default. Whether a set holds text or image models is read from
// its first checkpoint's configuration (arch "vit": images), never from its id.
struct ModelSet {
    std::string id;       // "en-es", "toy", "en-lm", "toy-lm", "vision" (saved in workspaces)
    std::string label;    // for people
    std::string dir;      // relative to bundledModelDirectory() ("." for the top folder)
    int order = 1000;     // set.json "order"
    bool images = false;  // its models classify images (their config's arch is "vit")
    std::string problem;  // why its set.json was not used ("" when it was, or there is none)
};
// The sets of the current bundledModelDirectory(), read once per directory (the returned
// reference and pointers into it stay valid for the program's life).
const std::vector<ModelSet>& modelSets();
// The set with this id, or nullptr.
const ModelSet* findModelSet(const std::string& id);
// The set's folder: bundledModelDirectory() / dir.
std::string modelSetDirectory(const ModelSet& set);
// How many checkpoints (*.safetensors) the set's folder holds now (0: none, or no folder);
// the app's Models box shows it and offers only sets that have models.
int modelSetSize(const ModelSet& set);

// A comparison a lecture needs, by the bundled files' names: which models, in which order.
struct ComparisonPreset {
    std::string id;     // "dot-hc-sa", "hc-sa-paper", "synthesizer", "all"
    std::string label;  // for people
    // Each entry a model's key (presetKey), alternatives separated by '|' ("hc-sa|gaussian":
    // the toy language models call their hard-coded one "gaussian"); empty: every model.
    std::vector<std::string> models;
};
const std::vector<ComparisonPreset>& comparisonPresets();
const ComparisonPreset* findComparisonPreset(const std::string& id);
// A checkpoint's key for the presets: its file name without extension, numeric prefix and
// "lm-" ("en-es/09-hc-sa.safetensors" -> "hc-sa", "lm/lm-dot.safetensors" -> "dot"); "" for
// a column without a file.
std::string presetKey(const ModelColumn& c);
// The preset's models among `columns`, in the preset's order (each entry's first match);
// entries no column matches are left out.
std::vector<ModelColumn> presetColumns(const std::vector<ModelColumn>& columns,
                                       const ComparisonPreset& preset);

// Untrained models for the benchmarks (attnviz-ui-bench, `attnviz-cli bench analyze`): the
// presets `ids` (resources/models/configs) with max_len `maxLen`, a vocabulary of `words`,
// seed 1, named "<id> (untrained, max_len N)". Throws Error for an unknown preset.
std::vector<ModelColumn> untrainedPresetColumns(const std::vector<std::string>& ids, int maxLen,
                                                const std::vector<std::string>& words);

struct ImageModelResult;  // core/image_selection.h

// One model's result for the current sentence or image: the analysis, or the reason it failed.
struct ColumnResult {
    std::string name;
    std::string error;       // empty when ok
    bool untrained = false;  // a randomly initialised checkpoint
    bool modified = false;   // reconfigured since read from its file (name ends "(modified)")
    // The first stage only (AnalysisStage::Source of a seq2seq model): the encoder's maps;
    // the decoder's and cross-attention's follow with the whole analysis.
    bool partial = false;
    Analysis analysis;  // of a sentence
    // Of an image (core/image_selection.h analyzeImageColumn): set when the analysis is.
    std::shared_ptr<const ImageModelResult> image;
};
using Results = std::vector<ColumnResult>;

// The two stages of a model's analysis: Source needs no decoding (Model::analyzeSource: the
// encoder's self-attention, shown first), Whole is Model::analyze.
enum class AnalysisStage { Source, Whole };

// A column's result before its analysis: its name (with " (modified)" when its settings were
// edited since read), untrained and modified; the caller holds the column's lock.
ColumnResult namedResult(const ModelColumn& c);
// One model's analysis of the sentence under its lock; a failure is the result's error.
// Stage Whole gives exactly what analyzeAll gives for this column; stage Source the same
// tokens and encoder blocks, `partial` for a seq2seq model. `cancel` (may be null): once
// true, a greedy decoding stops and Cancelled is thrown (the only exception).
ColumnResult analyzeColumn(const ModelColumn& c, const std::string& source,
                           const std::string& target, AnalysisStage stage = AnalysisStage::Whole,
                           const std::atomic<bool>* cancel = nullptr);
// What analyzeColumn would fail with for a text that is empty or longer than the model
// accepts (Model::checkInput: tokenizing only, no model run); "" when the lengths are fine.
std::string inputError(const ModelColumn& c, const std::string& source, const std::string& target);

// Analyses `source` (and `target`, empty: greedy decoding) with every model, the models in
// parallel (each under its own lock). A model that fails has its error in its result.
Results analyzeAll(const std::vector<ModelColumn>& columns, const std::string& source,
                   const std::string& target);

}  // namespace attnviz
