// SPDX-License-Identifier: GPL-3.0-or-later
#include "workspace_model.h"

#include <QJsonDocument>
#include <algorithm>

#include "language.h"
#include "render/words.h"

namespace attnviz::ui {

WorkspaceModel::WorkspaceModel(QObject* parent)
    : QObject(parent),
      m_runner(new AnalysisRunner(this)),
      m_progress(new QTimer(this)),
      m_markTimer(new QTimer(this)) {
    connect(m_runner, &AnalysisRunner::finished, this, &WorkspaceModel::setResults);
    connect(m_runner, &AnalysisRunner::columnReady, this, &WorkspaceModel::setColumnResult);
    m_progress->setSingleShot(true);
    m_progress->setInterval(0);
    connect(m_progress, &QTimer::timeout, this, &WorkspaceModel::showArrived);
    m_clock.start();
    m_markTimer->setSingleShot(true);
    m_markTimer->setTimerType(Qt::PreciseTimer);
    connect(m_markTimer, &QTimer::timeout, this, &WorkspaceModel::markDue);
}

namespace {

std::vector<const Model*> modelsOf(const std::vector<ModelColumn>& columns) {
    std::vector<const Model*> out;
    for (const auto& c : columns) out.push_back(c.model.get());
    return out;
}

int indexOf(const std::vector<const Model*>& models, const Model* m) {
    const auto it = std::find(models.begin(), models.end(), m);
    return m && it != models.end() ? int(it - models.begin()) : -1;
}

}  // namespace

void WorkspaceModel::replaceColumns(std::vector<ModelColumn> columns) {
    const std::vector<const Model*> before = modelsOf(m_columns), after = modelsOf(columns);
    auto follow = [&](int c) {
        if (c < 0 || c >= int(before.size())) return -1;
        if (const int same = indexOf(after, before[size_t(c)]); same >= 0) return same;
        // Reloaded from its file (a watched folder's replaced checkpoint): still that model.
        const std::string& path = m_columns[size_t(c)].path;
        for (size_t k = 0; k < columns.size(); ++k)
            if (!path.empty() && columns[k].path == path) return int(k);
        return -1;
    };
    m_current = follow(m_current);
    const int focus = follow(m_view.allLayersOf);
    const bool viewMoved = focus != m_view.allLayersOf;
    m_view.allLayersOf = focus;
    m_columns = std::move(columns);
    // The results follow their models before anyone draws the new columns or Focus: a view
    // never shows a model's maps under another model's place, not even until analyze().
    m_resultsMoved = followModels() || m_resultsMoved;
    emit columnsChanged();
    if (viewMoved) {
        m_selection.reset();
        emit viewChanged();
    }
}

void WorkspaceModel::setCurrentColumn(int c) {
    m_current = c >= 0 && c < int(m_columns.size()) ? c : -1;
}

void WorkspaceModel::setColumns(std::vector<ModelColumn> columns) {
    replaceColumns(std::move(columns));
    analyze();
}

void WorkspaceModel::addColumn(ModelColumn column) {
    std::vector<ModelColumn> columns = m_columns;
    columns.push_back(std::move(column));
    replaceColumns(std::move(columns));
    analyze();
}

bool WorkspaceModel::moveColumn(int c, int delta) {
    const int to = c + delta;
    if (c < 0 || to < 0 || c >= int(m_columns.size()) || to >= int(m_columns.size())) return false;
    std::vector<ModelColumn> columns = m_columns;
    ModelColumn moved = std::move(columns[size_t(c)]);
    columns.erase(columns.begin() + c);
    columns.insert(columns.begin() + to, std::move(moved));
    replaceColumns(std::move(columns));
    analyze();
    return true;
}

bool WorkspaceModel::setSavedPath(const std::shared_ptr<Model>& model, const std::string& path) {
    for (auto& c : m_columns) {
        if (c.model == model) {
            c.path = path;
            std::lock_guard<std::mutex> g(*c.lock);  // the file holds the settings as they are
            c.fileConfig = c.model->config().toJson().dump();
            return true;
        }
    }
    return false;
}

bool WorkspaceModel::removeColumn(int c) {
    if (c < 0 || c >= int(m_columns.size())) return false;
    std::vector<ModelColumn> columns = m_columns;
    columns.erase(columns.begin() + c);
    replaceColumns(std::move(columns));
    analyze();
    return true;
}

void WorkspaceModel::setView(const ViewState& view) {
    m_view = view;
    m_selection.reset();
    emit viewChanged();
}

void WorkspaceModel::setSentence(const QString& source, const QString& target) {
    if (source == m_source && target == m_target) return;
    m_source = source;
    m_target = target;
    emit sentenceChanged();
    markStale();  // at once, also while the typing pause holds the analysis back
    emit analysisRequested();
    m_runner->requestAfterTyping(m_columns, m_source.toStdString(), m_target.toStdString(),
                                 m_visible);
}

void WorkspaceModel::setSentences(const QStringList& lines, int current) {
    current = lines.isEmpty() ? -1 : std::clamp(current, -1, int(lines.size()) - 1);
    if (lines == m_sentences && current == m_sentenceIndex) return;
    m_sentences = lines;
    m_sentenceIndex = current;
    emit sentencesChanged();
}

void WorkspaceModel::setModelSet(const QString& id) {
    if (id == m_modelSet) return;
    m_modelSet = id;
    emit modelSetChanged();
}

Session WorkspaceModel::session() const {
    Session s;
    s.source = m_source;
    s.target = m_target;
    s.sentences = m_sentences;
    s.sentenceIndex = m_sentenceIndex;
    for (const auto& c : m_columns) {  // models trained in the app need saving first
        if (c.path.empty()) continue;
        s.columns << QString::fromStdString(c.path);
        bool modified = false;
        std::string config;
        {
            std::lock_guard<std::mutex> g(*c.lock);
            modified = isModified(c);
            if (modified) config = c.model->config().toJson().dump();
        }
        s.columnConfigs.append(
            modified
                ? QJsonValue(QJsonDocument::fromJson(QByteArray::fromStdString(config)).object())
                : QJsonValue());
    }
    s.view = m_view;
    s.modelSet = m_modelSet;
    return s;
}

void WorkspaceModel::apply(const Session& s, std::vector<ModelColumn> columns) {
    m_columns = std::move(columns);
    m_current = -1;  // the file's view names its Focus column by place
    m_view = s.view;
    m_selection.reset();
    m_source = s.source;
    m_target = s.target;
    m_sentences = s.sentences;
    m_sentenceIndex =
        s.sentences.isEmpty() ? -1 : std::clamp(s.sentenceIndex, -1, int(s.sentences.size()) - 1);
    m_modelSet = s.modelSet;
    emit viewChanged();
    emit sentenceChanged();
    emit sentencesChanged();
    emit modelSetChanged();
    emit columnsChanged();
    analyze();
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
    for (size_t i = 0; i < m_results->size(); ++i)  // not the errors of an earlier sentence
        if (const auto& r = (*m_results)[i];
            !r.error.empty() && columnState(int(i)) != ColumnState::Stale)
            out << QString::fromStdString(r.name + ": " + r.error);
    return out;
}

Profile WorkspaceModel::profile(int column, const QString& language) const {
    return selectProfile(*m_results, m_view.kind, m_view.layer, m_view.query, column,
                         render::wording(language.isEmpty() ? currentLanguage() : language));
}

void WorkspaceModel::analyze() {
    // Through the runner even with no columns: a running analysis becomes stale and its
    // results (of columns since removed) are dropped.
    markStale();
    emit analysisRequested();
    m_runner->request(m_columns, m_source.toStdString(), m_target.toStdString(), m_visible);
}

void WorkspaceModel::analyzeNow() {
    m_runner->cancel();  // nothing older arrives after these
    setResults(std::make_shared<const Results>(
        analyzeCatching(m_columns, m_source.toStdString(), m_target.toStdString())));
}

WorkspaceModel::ColumnState WorkspaceModel::columnState(int result) const {
    return result >= 0 && result < int(m_states.size()) ? m_states[size_t(result)]
                                                        : ColumnState::Stale;
}

bool WorkspaceModel::staleMarked(int result) const {
    return columnState(result) == ColumnState::Stale && result < int(m_marked.size()) &&
           m_marked[size_t(result)];
}

bool WorkspaceModel::allCurrent() const {
    return std::all_of(m_states.begin(), m_states.end(),
                       [](ColumnState s) { return s == ColumnState::Current; });
}

void WorkspaceModel::markStale() {
    m_progress->stop();  // results of a request now stale
    m_arrived.clear();
    m_requested.start();
    m_shownOnce = false;
    const bool moved = followModels() || m_resultsMoved;
    m_resultsMoved = false;
    const std::vector<ColumnState> before = m_states;
    m_states.assign(m_columns.size(), ColumnState::Stale);
    restartMarks(before);
    if (moved)
        emit progressed();
    else
        emit columnStatesChanged();
}

bool WorkspaceModel::followModels() {
    std::vector<const Model*> models;
    for (const auto& c : m_columns) models.push_back(c.model.get());
    if (models == m_resultModels) return false;
    // Each model's last result (and its state and marks) goes where its column is now.
    auto results = std::make_shared<Results>();
    std::vector<ColumnState> states;
    std::vector<qint64> since;
    std::vector<bool> marked;
    for (const auto& c : m_columns) {
        const auto at = std::find(m_resultModels.begin(), m_resultModels.end(), c.model.get());
        const size_t k = size_t(at - m_resultModels.begin());
        ColumnResult none;
        none.name = c.name;
        const bool had = at != m_resultModels.end();
        results->push_back(had ? (*m_results)[k] : none);
        // A new column starts its time now, as one that was current.
        states.push_back(had && k < m_states.size() ? m_states[k] : ColumnState::Current);
        since.push_back(had && k < m_staleSince.size() ? m_staleSince[k] : 0);
        marked.push_back(had && k < m_marked.size() && m_marked[k]);
    }
    m_resultModels = std::move(models);
    m_states = std::move(states);
    m_staleSince = std::move(since);
    m_marked = std::move(marked);
    replaceResults(std::move(results));
    return true;
}

void WorkspaceModel::restartMarks(const std::vector<ColumnState>& before) {
    const qint64 now = m_clock.elapsed();
    const size_t n = m_states.size();
    m_staleSince.resize(n, now);
    m_marked.resize(n, false);
    for (size_t c = 0; c < n; ++c) {
        if (m_states[c] != ColumnState::Stale) {
            m_marked[c] = false;
        } else if (c >= before.size() || before[c] != ColumnState::Stale) {
            m_staleSince[c] = now;  // outdated from this edit on
            m_marked[c] = false;
        }
    }
    if (allCurrent()) {
        m_pendingSince = -1;
        m_overdue = false;
    } else if (m_pendingSince < 0) {
        m_pendingSince = now;
    }
    // The next mark due: the first column or the analysis to reach kStaleMarkMs.
    qint64 due = -1;
    auto sooner = [&due](qint64 t) { due = due < 0 ? t : std::min(due, t); };
    for (size_t c = 0; c < n; ++c)
        if (m_states[c] == ColumnState::Stale && !m_marked[c])
            sooner(m_staleSince[c] + kStaleMarkMs);
    if (m_pendingSince >= 0 && !m_overdue) sooner(m_pendingSince + kStaleMarkMs);
    if (due < 0)
        m_markTimer->stop();
    else
        m_markTimer->start(int(std::max<qint64>(0, due - now)));
}

void WorkspaceModel::markDue() {
    const qint64 now = m_clock.elapsed();
    bool changed = false;
    for (size_t c = 0; c < m_states.size() && c < m_marked.size(); ++c) {
        if (m_states[c] == ColumnState::Stale && !m_marked[c] &&
            now - m_staleSince[c] >= kStaleMarkMs) {
            m_marked[c] = true;
            changed = true;
        }
    }
    if (m_pendingSince >= 0 && !m_overdue && now - m_pendingSince >= kStaleMarkMs) {
        m_overdue = true;
        changed = true;
    }
    restartMarks(m_states);  // the next one due, if any
    if (changed) emit columnStatesChanged();
}

void WorkspaceModel::replaceResults(std::shared_ptr<const Results> results) {
    m_results = std::move(results);
    // The blocks whose maps did not change keep their statistics (ResultStats' earlier).
    m_stats = std::make_shared<const ResultStats>(m_results, m_stats.get());
    m_selection.reset();
}

void WorkspaceModel::setColumnResult(int column, const ColumnResult& result) {
    if (column < 0 || column >= int(m_states.size())) return;
    m_arrived.emplace_back(column, result);
    const qint64 since = m_requested.isValid() ? m_requested.elapsed() : kFirstShowMs;
    const int first = int(since < kFirstShowMs ? kFirstShowMs - since : 0);
    if (completesFirstMaps()) {  // every column's maps at last: not held back by the turn
        m_progress->start(first);
        return;
    }
    if (m_progress->isActive()) return;  // shown with the others at its time
    m_progress->start(std::max(first, m_shownOnce ? kShowEveryMs : 0));
}

bool WorkspaceModel::completesFirstMaps() const {
    std::vector<bool> has(m_states.size(), false);
    bool waiting = false;  // a column not shown for this request yet
    for (size_t c = 0; c < m_states.size(); ++c)
        has[c] = m_states[c] != ColumnState::Stale, waiting = waiting || !has[c];
    for (const auto& arrived : m_arrived)
        if (arrived.first >= 0 && size_t(arrived.first) < has.size())
            has[size_t(arrived.first)] = true;
    return waiting && std::all_of(has.begin(), has.end(), [](bool h) { return h; });
}

void WorkspaceModel::showArrived() {
    if (m_arrived.empty()) return;
    auto results = std::make_shared<Results>(*m_results);  // widgets may hold the old ones
    const std::vector<ColumnState> before = m_states;
    for (auto& [column, result] : m_arrived) {
        if (column >= int(results->size())) continue;
        m_states[size_t(column)] = result.partial ? ColumnState::Partial : ColumnState::Current;
        (*results)[size_t(column)] = std::move(result);
    }
    m_arrived.clear();
    m_shownOnce = true;
    restartMarks(before);
    replaceResults(std::move(results));
    emit progressed();
}

void WorkspaceModel::setResults(std::shared_ptr<const Results> results) {
    m_progress->stop();  // the whole analysis says it all
    m_arrived.clear();
    m_resultModels.clear();
    for (const auto& c : m_columns) m_resultModels.push_back(c.model.get());
    const std::vector<ColumnState> before = m_states;
    m_states.assign(results->size(), ColumnState::Current);
    restartMarks(before);
    replaceResults(std::move(results));
    emit statsChanged();
    emit resultsChanged();
}

}  // namespace attnviz::ui
