// SPDX-License-Identifier: GPL-3.0-or-later
#include "workspace_model.h"

#include "language.h"
#include "render/words.h"

namespace attnviz::ui {

WorkspaceModel::WorkspaceModel(QObject* parent)
    : QObject(parent), m_runner(new AnalysisRunner(this)) {
    connect(m_runner, &AnalysisRunner::finished, this, &WorkspaceModel::setResults);
}

void WorkspaceModel::setColumns(std::vector<ModelColumn> columns) {
    m_columns = std::move(columns);
    emit columnsChanged();
}

void WorkspaceModel::addColumn(ModelColumn column) {
    m_columns.push_back(std::move(column));
    emit columnsChanged();
}

bool WorkspaceModel::moveColumn(int c, int delta) {
    const int to = c + delta;
    if (c < 0 || to < 0 || c >= int(m_columns.size()) || to >= int(m_columns.size())) return false;
    ModelColumn moved = std::move(m_columns[size_t(c)]);
    m_columns.erase(m_columns.begin() + c);
    m_columns.insert(m_columns.begin() + to, std::move(moved));
    emit columnsChanged();
    return true;
}

bool WorkspaceModel::setSavedPath(const std::shared_ptr<Model>& model, const std::string& path) {
    for (auto& c : m_columns) {
        if (c.model == model) {
            c.path = path;
            return true;
        }
    }
    return false;
}

bool WorkspaceModel::removeColumn(int c) {
    if (c < 0 || c >= int(m_columns.size())) return false;
    m_columns.erase(m_columns.begin() + c);
    emit columnsChanged();
    return true;
}

void WorkspaceModel::setView(const ViewState& view) {
    m_view = view;
    m_selection.reset();
    emit viewChanged();
}

Selection WorkspaceModel::selection(const std::string& heads, const QString& language) const {
    const QString lang = language.isEmpty() ? currentLanguage() : language;
    const bool own = heads.empty() && lang == currentLanguage();
    if (own && m_selection && m_selectionLanguage == lang) return *m_selection;
    SelectionRequest r = m_view.request();
    if (!heads.empty()) r.heads = heads;
    r.wording = render::wording(lang);
    Selection s = selectTables(m_results, r, m_stats.get());
    if (own) m_selection = s, m_selectionLanguage = lang;
    return s;
}

QString WorkspaceModel::summary() const {
    int failed = 0;
    QString firstError;
    for (const auto& r : *m_results)
        if (!r.error.empty() && !failed++)
            firstError = QString::fromStdString(r.name + ": " + r.error);
    const int n = int(m_results->size());
    return failed ? tr("%1 of %2 models could not run: %3").arg(failed).arg(n).arg(firstError)
                  //: Status: how many models the sentence ran on
                  : tr("%1 models").arg(n);
}

QStringList WorkspaceModel::failures() const {
    QStringList out;
    for (const auto& r : *m_results)
        if (!r.error.empty()) out << QString::fromStdString(r.name + ": " + r.error);
    return out;
}

Profile WorkspaceModel::profile(int column, const QString& language) const {
    return selectProfile(*m_results, m_view.kind, m_view.layer, m_view.query, column,
                         render::wording(language.isEmpty() ? currentLanguage() : language));
}

void WorkspaceModel::analyze(const std::string& source, const std::string& target) {
    // Through the runner even with no columns: a running analysis becomes stale and its
    // results (of columns since removed) are dropped.
    m_runner->request(m_columns, source, target);
}

void WorkspaceModel::analyzeNow(const std::string& source, const std::string& target) {
    setResults(std::make_shared<const Results>(analyzeCatching(m_columns, source, target)));
}

void WorkspaceModel::setResults(std::shared_ptr<const Results> results) {
    m_results = std::move(results);
    m_stats = std::make_shared<const ResultStats>(m_results);
    m_selection.reset();
    emit resultsChanged();
}

}  // namespace attnviz::ui
