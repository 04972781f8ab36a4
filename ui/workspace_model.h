// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "analysis_runner.h"
#include "core/result_stats.h"
#include "core/selection.h"
#include "session.h"
#include "view_state.h"

namespace attnviz::ui {

// The workspace's data, apart from any widget: the model columns, the sentence and the
// sentence list, the bundled set the columns came from, the view and the latest analysis
// results; a saved workspace (Session) is made from it and applied to it. The grid, the
// fields, the docks and the exports read it and draw; they change it through its setters.
// Every change of the sentence or the columns is analysed by the runner on worker threads,
// in stages (ui/analysis_runner.h): each column's first maps (the encoder's) arrive by
// progressed, all of them at the end by resultsChanged. Until a column's results are of the
// current sentence and columns they are stale (columnState); the views mark them so only
// when they stay stale for kStaleMarkMs (staleMarked, analysisOverdue), so that an analysis
// that is quick replaces the maps without a grey frame while the user types.
class WorkspaceModel : public QObject {
    Q_OBJECT
public:
    explicit WorkspaceModel(QObject* parent = nullptr);

    // Every change of the columns below keeps the per-model selections on their models: the
    // current column and the view's Focus model (allLayersOf) move with them (a model reloaded
    // from the same file counts as the same), and become -1 when their model is gone; the
    // results in hand are reordered to match when every column
    // still has one, so the grid and the query profile never show a model under another's
    // place while the new analysis runs.
    const std::vector<ModelColumn>& columns() const { return m_columns; }
    void setColumns(std::vector<ModelColumn> columns);
    void addColumn(ModelColumn column);
    // Moves column c by delta places; false (no change) when either place is outside.
    bool moveColumn(int c, int delta);
    bool removeColumn(int c);
    // Records that the column holding `model` is now saved at `path` (it was trained here),
    // with its settings as they are now (what Reset goes back to); false when no column
    // holds it.
    bool setSavedPath(const std::shared_ptr<Model>& model, const std::string& path);

    // The current column: the one last clicked, whose settings the Variant dock edits and whose
    // heads the query profile can show; -1: none.
    int currentColumn() const { return m_current; }
    void setCurrentColumn(int c);

    const ViewState& view() const { return m_view; }
    void setView(const ViewState& view);

    // The sentence analysed: source, and target ("" = each model decodes greedily). Setting
    // a different one analyses it and emits sentenceChanged.
    const QString& source() const { return m_source; }
    const QString& target() const { return m_target; }
    void setSentence(const QString& source, const QString& target);
    // The sentence list ("source" or "source\ttarget" lines) and its current entry (-1: none).
    const QStringList& sentences() const { return m_sentences; }
    int sentenceIndex() const { return m_sentenceIndex; }
    void setSentences(const QStringList& lines, int current);
    // The bundled set the columns came from (core/workspace.h ModelSet id), "" if none.
    const QString& modelSet() const { return m_modelSet; }
    void setModelSet(const QString& id);

    // The workspace as a file would hold it (columns trained here and never saved have no
    // path and are left out; a column edited in the app keeps its configuration).
    Session session() const;
    // Everything of `s` at once, with its columns already opened: one analysis, and every
    // signal once.
    void apply(const Session& s, std::vector<ModelColumn> columns);

    // How current a column's result (an index of results()) is.
    enum class ColumnState {
        Stale,    // of an earlier sentence or set of columns (or none yet): being updated
        Partial,  // of the current sentence, the first stage only (encoder maps): decoding
        Current,  // of the current sentence, whole (or its error)
    };
    ColumnState columnState(int result) const;
    // Whether every column is current (the last analysis has wholly arrived).
    bool allCurrent() const;
    // Whether the views mark result `result` as outdated (greyed, "updating…"): it has been
    // Stale for kStaleMarkMs since the edit that made it so. A result arriving sooner replaces
    // the old one unmarked, so typing does not flicker.
    bool staleMarked(int result) const;
    // Whether views that show the whole analysis (the docks, the query profile: they change
    // at resultsChanged) mark theirs as outdated: some column has not been Current for
    // kStaleMarkMs, counted from the edit after which the analysis was last wholly current.
    bool analysisOverdue() const { return m_overdue; }
    static constexpr int kStaleMarkMs = 150;
    // Columns (indices of columns()) on screen, analysed before the others (the grid's).
    void setVisibleColumns(std::vector<int> columns) { m_visible = std::move(columns); }

    // The latest results, each column as far as it has come (never null; empty before the
    // first analysis).
    const std::shared_ptr<const Results>& results() const { return m_results; }
    // Their head statistics, each computed once when some view first asks (never null).
    const std::shared_ptr<const ResultStats>& stats() const { return m_stats; }
    // The tables in view; with heads ("all", "mean", "0,2") instead of the view's heads.
    // In the interface's language, or in `language` (an export's). The view's own selection
    // is made once per change of results, view or language, however many widgets ask.
    Selection selection(const std::string& heads = {}, const QString& language = {}) const;
    // "N models", or how many could not run and the first one's error.
    QString summary() const;
    // Every model that could not run on the sentence: "name: reason", in column order.
    QStringList failures() const;
    // The query profile of the view's query: a line per model, or per head of `column`.
    Profile profile(int column, const QString& language = {}) const;

    // Analyses the sentence with every column again (a model was edited): on the worker
    // thread, or here and now.
    void analyze();
    void analyzeNow();
    AnalysisRunner* runner() const { return m_runner; }

    // The columns' results arrived so far are shown (progressed) not before kFirstShowMs after
    // the request (an analysis done by then is shown once, whole), then at most every
    // kShowEveryMs. Each
    // showing redraws the grid; drawing it for every model's arrival took the cores from the
    // decoding (47 tokens, 12 models: every map 55 → 95 ms). The arrival that gives the last
    // column its first maps is shown without waiting for the turn (completesFirstMaps): the
    // first maps are what a person waits for (110 tokens: up to kShowEveryMs sooner).
    static constexpr int kFirstShowMs = 50, kShowEveryMs = 100;

signals:
    void columnsChanged();
    void viewChanged();
    void sentenceChanged();
    void sentencesChanged();
    void modelSetChanged();
    void analysisRequested();  // an analysis of the current sentence and columns was asked for
    // A whole analysis arrived, and with it stats(): emitted just before resultsChanged, so
    // that the statistics docks start their fits on the pool before the grid is redrawn on
    // this thread (the two overlap instead of following each other).
    void statsChanged();
    void resultsChanged();     // a whole analysis arrived: every column current
    // Some columns' results arrived (first stages, or a model's whole analysis) while others
    // are still being analysed; results() has them.
    void progressed();
    // Columns became stale (the sentence or the columns changed), or their marks changed
    // (staleMarked, analysisOverdue: kStaleMarkMs later); results() is unchanged.
    void columnStatesChanged();

private:
    void setResults(std::shared_ptr<const Results> results);
    // Replaces m_columns, the current column and Focus following their models (see
    // columns()) and the results following them at once (followModels); emits
    // columnsChanged, then viewChanged when Focus moved.
    void replaceColumns(std::vector<ModelColumn> columns);
    void setColumnResult(int column, const ColumnResult& result);
    // Whether the arrivals not shown yet give the last columns still stale their first maps.
    bool completesFirstMaps() const;
    void showArrived();  // the results arrived since the last progressed, shown
    // Every column stale, keeping each model's last result in its (new) place.
    void markStale();
    // Moves each model's last result, state and marks to its column's place now (a new
    // column gets an empty result); false when every model is where its result is.
    bool followModels();
    void replaceResults(std::shared_ptr<const Results> results);
    // After the states changed: columns newly Stale (and an analysis newly not current) start
    // their kStaleMarkMs; marks of what is no longer stale go. `since`/`marked` are per result
    // and already in the new order.
    void restartMarks(const std::vector<ColumnState>& before);
    void markDue();  // the mark timer: marks what has been stale for kStaleMarkMs

    std::vector<ModelColumn> m_columns;
    int m_current = -1;
    ViewState m_view;
    QString m_source, m_target;
    QStringList m_sentences;
    int m_sentenceIndex = -1;
    QString m_modelSet;
    std::shared_ptr<const Results> m_results = std::make_shared<const Results>();
    std::shared_ptr<const ResultStats> m_stats = std::make_shared<const ResultStats>(m_results);
    // The view's selection, and the language it was made in; empty after a change.
    mutable std::optional<Selection> m_selection;
    mutable QString m_selectionLanguage;
    AnalysisRunner* m_runner;
    std::vector<ColumnState> m_states;         // per result
    std::vector<const Model*> m_resultModels;  // the model of each result
    bool m_resultsMoved = false;               // followModels moved them since the last markStale
    std::vector<int> m_visible;
    QTimer* m_progress;
    QElapsedTimer m_requested;                            // since the newest request
    bool m_shownOnce = false;                             // progressed since it
    std::vector<std::pair<int, ColumnResult>> m_arrived;  // not shown yet
    // Stale marks (staleMarked, analysisOverdue), on one clock: per result, when it became
    // Stale and whether it is marked; when the analysis stopped being wholly current.
    QElapsedTimer m_clock;
    std::vector<qint64> m_staleSince;
    std::vector<bool> m_marked;
    qint64 m_pendingSince = -1;  // -1: every column current
    bool m_overdue = false;
    QTimer* m_markTimer;
};

}  // namespace attnviz::ui
