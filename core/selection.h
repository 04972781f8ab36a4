// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The one road from analysis results to pixels: which matrices to draw, with their token
// labels, titles and places in the grid. The on-screen grid, the query profile, every
// exported figure, the data export and `attnviz-cli render` all draw a Selection, so they
// show the same tables under the same names. Tables share the results' matrices (no copy,
// the results are kept alive); only a mean of heads is computed.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "workspace.h"

namespace attnviz {

std::string blockLabel(BlockKind kind);  // "enc self", "dec self", "cross"

// The words a selection puts into its titles and labels, English by default. Another
// language's come from render/words.h (the core knows no translations). "%1" and "%2" stand
// for numbers or names (fill()).
struct Wording {
    std::string encSelf = "enc self", decSelf = "dec self", cross = "cross";
    // Heads and layers in titles are numbered from 1, for people (counted()); the data's
    // indices (SelectedTable::head and ::layer, CSV/NPY, the CLI's --layer and --heads) from 0.
    std::string layer = "%1 · layer %2";  // a column title when showing every layer: model, layer
    std::string head = "head %1";
    std::string meanOfHeads = "mean of %1 heads";
    std::string rollout = "rollout through L1–L%1";
    std::string words = "words";                       // subword pieces merged into words
    std::string wordsCjk = "words, CJK by character";  // … with CJK text one word per character
    std::string gaussian = "Gaussian";                 // the fit in a residual's label
    std::string noBlock = "no %1 block\nin layer %2";  // a panel's error: block, layer
    std::string query = "Query %1";  // a profile's title: the query's place, counted from 1
    // Ordinals of a token that occurs more than once ("to (2nd)"): 1st, 2nd, 3rd, the rest
    // (English picks by the number's ending; other languages may give one pattern to all).
    std::string nth1 = "%1st", nth2 = "%1nd", nth3 = "%1rd", nth = "%1th";
    std::string occurrence = "(%1)";           // after the token: its ordinal
    std::string everyHead = "%1, every head";  // model
    std::string everyModel = "every model, mean of heads";
    std::string step = "step %1";  // a training snapshot's column
    std::string block(BlockKind kind) const;
};
// A head's or layer's number as people read it: `index` (from 0) counted from 1.
inline std::string counted(int index) {
    return std::to_string(int64_t(index) + 1);
}
// `pattern` with %1 (and %2) replaced.
std::string fill(const std::string& pattern, const std::string& a, const std::string& b = {});

// What the tables hold (docs/analysis.md defines each).
enum class TableKind {
    Weights,      // the captured weights
    Rollout,      // attention rollout through the self-attention layers up to the layer
    Difference,   // each column minus the column `differenceBase` (same block, layer, head)
    FitResidual,  // each head's row-normalised weights minus its best-fitting Gaussian
};
std::string tableKindName(TableKind k);  // "weights", "rollout", "difference", "fit-residual"
// The kind of a name; false when it names none.
bool tableKindFromName(const std::string& name, TableKind* kind);

// What to draw: the block kind and layer of every model, or every layer of one model.
struct SelectionRequest {
    BlockKind kind = BlockKind::EncoderSelf;
    int layer = 0;
    std::string heads = "all";  // "all", "mean" (mean of heads) or a list such as "0,2"
    int allLayersOf = -1;       // >= 0: every layer (of this kind) of this result's model
    bool sharedScale = true;    // one colour scale (the largest weight of all tables)
    // Subword pieces merged into words (core/word_merge.h): sum over key pieces, mean over
    // query pieces; labels are the words.
    bool mergeWords = false;
    TableKind show = TableKind::Weights;
    int differenceBase = 0;  // Difference: the result whose tables are subtracted
    Wording wording;
};

// One matrix to draw: weights [queries, keys] (row = query, column = key).
struct SelectedTable {
    std::string model;
    BlockKind kind = BlockKind::EncoderSelf;
    int layer = 0;
    std::string head;  // the data's index: "0", "1", … or "mean"
    std::string
        where;  // for people, from 1: "enc self L1 · head 1", "enc self L1 · mean of 4 heads"
    std::shared_ptr<const Mat> weights;
    std::shared_ptr<const std::vector<std::string>> queries, keys;
    double scaleMax = 0;  // the top of its colour scale (shared or its own maximum)
    // Signed values (differences, residuals) on a diverging scale from -scaleMax to
    // scaleMax, where scaleMax is the largest |value|.
    bool diverging = false;
};

// One grid column: a model at a layer, and its tables top to bottom (heads).
struct SelectedColumn {
    int result = 0;  // index into the results (the model's column)
    int layer = 0;
    std::string title;    // the model's name, "· layer N" when showing every layer
    std::string variant;  // of the block, empty when the model has none
    std::string error;    // the model failed, or has no such block: no tables
    std::vector<SelectedTable> tables;
};

struct Selection {
    std::vector<SelectedColumn> columns;
    int rows = 0;            // the most tables of any column
    double maxWeight = 0;    // over every table (of |value| when diverging)
    bool diverging = false;  // signed tables (TableKind Difference, FitResidual)
    std::string error;       // the first problem (a failed model, a missing block or head)
    std::shared_ptr<const Results> results;

    // The same selection reduced to one table (column c, row r); error when absent.
    Selection single(int column, int row) const;
};

// With `stats` (for the same results), each head's Gaussian fit of the FitResidual tables is
// taken from it, computed there once for every view that needs it.
class ResultStats;
Selection selectTables(std::shared_ptr<const Results> results, const SelectionRequest& request,
                       const ResultStats* stats = nullptr);
// Every selected table, column by column (the data export's order).
std::vector<const SelectedTable*> tablesOf(const Selection& s);

// `n` as an ordinal ("2nd", "11th"), in the wording's language.
std::string ordinal(int n, const Wording& wording = {});
// Which of the same tokens `tokens[index]` is, for people ("(2nd)"); "" when it occurs once
// (or index is out of range). Tokens are compared as labelled.
std::string occurrenceNote(const std::vector<std::string>& tokens, int index,
                           const Wording& wording = {});

// One query's weights over the keys: a line per model (its heads' mean), or with column >= 0
// a line per head of that model. Queries are numbered from 1 for people (the 0-based index is
// the data's: `query` here, the CLI's --query-token #index).
struct Profile {
    std::string title;  // Query 4 "go" · enc self L1 · every model, mean of heads; a token
                        // that occurs more than once says which: Query 5 "to" (2nd) · …
    std::string query;  // the query token
    std::vector<std::string> keys;
    std::vector<bool> keyWordStart;  // [keys]: where the keys' words start (empty: unknown)
    std::vector<std::pair<std::string, std::vector<double>>> lines;
    std::string error;  // no line: why
};
Profile selectProfile(const Results& results, BlockKind kind, int layer, int query, int column,
                      const Wording& wording = {});

// The matrices in view as a data file by extension: "csv" or "npy" (the selected tables),
// "json" (each model's dump; an array for several). columns are the models of `results`,
// in order. Throws Error for anything else or when a table is missing.
std::string exportDataBytes(const std::shared_ptr<const Results>& results,
                            const std::vector<ModelColumn>& columns,
                            const SelectionRequest& request, const std::string& ext);

}  // namespace attnviz
