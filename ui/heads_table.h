// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The Heads dock's table and the computations its workers run (ui/heads_dock.h): the rows
// with their statistics, over the current sentence, over the sentence list, and pruning.
#include <QAbstractTableModel>
#include <QStringList>
#include <atomic>
#include <limits>
#include <vector>

#include "core/head_importance.h"
#include "core/head_stats.h"
#include "core/image_set.h"
#include "core/result_stats.h"
#include "core/workspace.h"
#include "heads_columns.h"
#include "render/charts.h"

namespace attnviz::ui {

// The rows of the Heads table, one per head, in the results' order (column, then block as
// captured, then head).
class HeadsTableModel : public QAbstractTableModel {
public:
    struct Row {
        int column = 0;  // index into the results
        QString model;
        BlockKind kind = BlockKind::EncoderSelf;
        int layer = 0;
        int head = 0;
        QString variant;
        HeadStats stats;
        bool fitAtBound = false;  // |μ| at its bound N: a sink at the row's start or end
        // Over the sentence list only (NaN: not computed).
        double inputDependence = std::numeric_limits<double>::quiet_NaN();
        int compared = 0;  // rows that input dependence compared
        double importance = std::numeric_limits<double>::quiet_NaN();     // normalised per block
        double rawImportance = std::numeric_limits<double>::quiet_NaN();  // E|∂L/∂ξ_h|
    };

    using QAbstractTableModel::QAbstractTableModel;

    // The rows, over the current sentence or (overSet) over the sentence list.
    void setRows(std::vector<Row> rows, bool overSet) {
        beginResetModel();
        m_rows = std::move(rows);
        m_overSet = overSet;
        endResetModel();
        emit headerDataChanged(Qt::Horizontal, 0, HeadsColumns::ColumnCount - 1);
    }
    const Row& row(int r) const { return m_rows[size_t(r)]; }

    int rowCount(const QModelIndex& parent = {}) const override {
        return parent.isValid() ? 0 : int(m_rows.size());
    }
    int columnCount(const QModelIndex& parent = {}) const override {
        return parent.isValid() ? 0 : HeadsColumns::ColumnCount;
    }
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    QString inputDependenceTip(const Row& r) const;
    std::vector<Row> m_rows;
    bool m_overSet = false;
};

// What the table shows: its rows and the status line that goes with them.
struct HeadsContent {
    std::vector<HeadsTableModel::Row> rows;
    int models = 0;     // columns with rows
    QString summary;    // "48 heads of 2 models · current sentence"
    QStringList notes;  // a line each: failed columns, skipped sentences
};

// A running computation (over the set, or pruning), shared with its worker (which may
// outlive the dock).
struct SetJob {
    std::atomic<bool> cancelled{false};
    // Over the set, per model: a step per sentence, and one when it is finished. Pruning: the
    // evaluations done.
    std::atomic<int> done{0};
    std::atomic<int> sentences{0};  // over the set: sentences analysed, of every model
};

// What pruning a model needs from the set computation that gave its importance.
struct PruneInput {
    ModelColumn column;
    std::vector<Example> examples;           // the sentences the importance was computed over
    std::vector<HeadImportance> importance;  // every head, in capture order
};

// What a set computation hands back: the table's content, and the models it can prune.
struct SetResult {
    HeadsContent content;
    std::vector<PruneInput> prunable;
};

// What "Over test images" hands back: the table's content (each head's mean attention
// distance over the images; entropy, confidence and the fit not computed, NaN) and each
// model's distances for the chart, on the first model's grid (uniform: its uniform distance).
struct ImageSetOutcome {
    HeadsContent content;
    std::vector<render::ModelDistances> chart;
    double uniform = 0;
    int images = 0;
};

// Every image model of `columns` over `images`, each on a clone taken under its lock
// (core/head_table.h analyzeImageSet): advances job.sentences per image and job.done per
// image and per finished model; stops once the job is cancelled (nothing reads the result).
ImageSetOutcome computeImageSet(const std::vector<ModelColumn>& columns, const ImageSet& images,
                                SetJob& job);

// What a worker hands back for request `request`.
struct HeadsComputation {
    int request = 0;
    std::vector<HeadsTableModel::Row> rows;
    int models = 0;        // columns with an analysis
    QStringList failures;  // "name: reason" of the columns without one
    QString error;         // the computation itself failed
};

// The listed heads with their statistics over this one sentence, from `stats` (each computed
// there at most once, shared with the other views), as `attnviz-cli analyze` computes them
// (cli/analyze.cpp); the failed columns named. Returns early, incomplete, once `latest` has
// moved past `request` (no one will read the result).
HeadsComputation computeHeads(const ResultStats& stats, const std::vector<HeadKey>& heads,
                              int request, const std::atomic<int>& latest);

// Every head of every column over the set's sentences, as `attnviz-cli analyze --data
// --importance` computes them (core/head_table.h): per column, on a clone taken under its
// lock, each sentence analysed (seq2seq without a target: decoded greedily), each head's
// statistics over all of them, and its importance when the model has examples. Stops between
// sentences, models and heads once the job is cancelled (nothing reads the result then).
// Advances job.done by sentences + 1 per column. The models with importance are prunable.
SetResult computeSet(const std::vector<ModelColumn>& columns, const std::vector<std::string>& lines,
                     SetJob& job);

// The pruning curves of one model (core/head_importance.h) on a clone taken under its lock;
// job.done counts the evaluations. Returns early once the job is cancelled (nothing reads the
// result then).
struct PruneOutcome {
    PruneCurves curves;
    QString error;
};
PruneOutcome computePrune(const PruneInput& in, SetJob& job);

// "name: reason" failures with one reason said once: "dense, random: the source has …".
QString grouped(const QStringList& failures);
// The time a run has left at the rate so far: `done` of `total` steps in `elapsedMs`.
// "about 40 s left" (rounded to 5 s), "about 3 min left", "about 1 h 20 min left", "a few
// seconds left" under 10 s; empty before the first step or the first second (no rate yet).
QString timeLeft(qint64 elapsedMs, int done, int total);
// The Heads dock's line beside the progress bar of a set computation: "Sentence 12 of 40 ·
// model 1 of 2 · about 30 s left" (`sentencesDone` of `sentences` per model × `models`; the
// time from the steps' rate, timeLeft). `images`: over test images, "Image 12 of 1000 · …".
QString setProgressText(int sentencesDone, int sentences, int models, qint64 elapsedMs, int done,
                        int total, bool images = false);
// The same for pruning: "Evaluation 5 of 26 · about 1 min left".
QString pruneProgressText(qint64 elapsedMs, int done, int total);
// "3 heads", "1 model".
QString plural(qsizetype n, const QString& word);
// The set computation's footnote when `heads` heads have no input dependence ("—"): the rule
// of core/head_stats.h inputDependence (at least 2 sentences of the same token counts).
QString inputDependenceNote(qsizetype heads);

}  // namespace attnviz::ui
