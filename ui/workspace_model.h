// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <memory>
#include <optional>
#include <vector>

#include "analysis_runner.h"
#include "core/result_stats.h"
#include "core/selection.h"
#include "view_state.h"

namespace attnviz::ui {

// The workspace's data, apart from any widget: the model columns, the latest analysis
// results and the view. The grid, the profile plot and the exports read it; widgets only
// draw. Analyses run on the runner's worker thread; results arrive by resultsChanged.
class WorkspaceModel : public QObject {
    Q_OBJECT
public:
    explicit WorkspaceModel(QObject* parent = nullptr);

    const std::vector<ModelColumn>& columns() const { return m_columns; }
    void setColumns(std::vector<ModelColumn> columns);
    void addColumn(ModelColumn column);
    // Moves column c by delta places; false (no change) when either place is outside.
    bool moveColumn(int c, int delta);
    bool removeColumn(int c);
    // Records that the column holding `model` is now saved at `path` (it was trained here);
    // false when no column holds it.
    bool setSavedPath(const std::shared_ptr<Model>& model, const std::string& path);

    const ViewState& view() const { return m_view; }
    void setView(const ViewState& view);

    // The latest results (never null; empty before the first analysis).
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

    // Analyses the sentence with every column: on the worker thread, or here and now.
    void analyze(const std::string& source, const std::string& target);
    void analyzeNow(const std::string& source, const std::string& target);
    AnalysisRunner* runner() const { return m_runner; }

signals:
    void columnsChanged();
    void viewChanged();
    void resultsChanged();

private:
    void setResults(std::shared_ptr<const Results> results);

    std::vector<ModelColumn> m_columns;
    ViewState m_view;
    std::shared_ptr<const Results> m_results = std::make_shared<const Results>();
    std::shared_ptr<const ResultStats> m_stats = std::make_shared<const ResultStats>(m_results);
    // The view's selection, and the language it was made in; empty after a change.
    mutable std::optional<Selection> m_selection;
    mutable QString m_selectionLanguage;
    AnalysisRunner* m_runner;
};

}  // namespace attnviz::ui
