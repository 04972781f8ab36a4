// SPDX-License-Identifier: GPL-3.0-or-later
#include "heads_dock.h"

#include <QAbstractTableModel>
#include <QComboBox>
#include <QEvent>
#include <QFileDialog>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMap>
#include <QProgressBar>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <cmath>
#include <limits>

#include "background.h"
#include "chart_view.h"
#include "core/head_importance.h"
#include "core/head_stats.h"
#include "core/head_table.h"
#include "heads_table.h"
#include "image_model.h"
#include "language.h"
#include "render/charts.h"
#include "render/figure_file.h"
#include "render/words.h"
#include "view_state.h"

namespace attnviz::ui {

using Row = HeadsTableModel::Row;

HeadsDock::HeadsDock(QWidget* parent)
    : QWidget(parent),
      m_model(new HeadsTableModel(this)),
      m_proxy(new QSortFilterProxyModel(this)),
      m_view(new QTableView),
      m_status(new QLabel),
      m_notesToggle(new QToolButton),
      m_notes(new QLabel),
      m_filter(new QLineEdit),
      m_overSet(new QPushButton),
      m_progress(new QProgressBar),
      m_eta(new QLabel),
      m_cancel(new QPushButton),
      m_prune(new QPushButton),
      m_pruneModels(new QComboBox),
      m_poll(new QTimer(this)),
      m_current(std::make_unique<HeadsContent>()),
      m_set(std::make_unique<HeadsContent>()) {
    setUpTable();
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_notes->setWordWrap(true);
    m_notes->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_notes->hide();
    m_notesToggle->setCheckable(true);
    m_notesToggle->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_notesToggle->setArrowType(Qt::RightArrow);
    m_notesToggle->setAutoRaise(true);
    m_notesToggle->hide();
    m_filter->setClearButtonEnabled(true);
    m_filter->setMaximumWidth(200);
    m_progress->setMaximumWidth(160);
    m_progress->hide();
    m_eta->hide();
    m_cancel->hide();
    m_pruneModels->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_pruneModels->hide();  // until a model has importance (setPrunable)
    m_poll->setInterval(50);
    m_overImages = new QPushButton;
    m_overImages->hide();  // image mode only
    m_chartToggle = new QToolButton;
    m_chartToggle->setCheckable(true);
    m_chartToggle->setChecked(true);
    m_chartToggle->hide();  // image mode only
    m_distanceChart = new ChartView;
    m_distanceChart->hide();
    layOutControls();
    connectControls();
    m_current->summary = tr("No models");
    setPrunable({});
    retranslateUi();
}

void HeadsDock::setUpTable() {
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(ValueRole);
    m_proxy->setFilterKeyColumn(Model);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_view->setModel(m_proxy);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setAlternatingRowColors(true);
    m_view->verticalHeader()->hide();
    // Compact rows: a laptop screen shows a dozen heads, not five.
    m_view->verticalHeader()->setMinimumSectionSize(m_view->fontMetrics().height() + 4);
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 6);
    // Table order until a header is clicked; clicking on past descending returns to it.
    m_view->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    m_view->horizontalHeader()->setSortIndicatorClearable(true);
    m_view->setSortingEnabled(true);
    m_view->installEventFilter(this);
}

void HeadsDock::layOutControls() {
    auto* top = new QHBoxLayout;
    top->addWidget(m_status, 1);
    top->addWidget(m_notesToggle);
    top->addWidget(m_overSet);
    top->addWidget(m_overImages);
    top->addWidget(m_progress);
    top->addWidget(m_eta);
    top->addWidget(m_cancel);
    top->addWidget(m_prune);
    top->addWidget(m_pruneModels);
    top->addWidget(m_filter);
    top->addWidget(m_chartToggle);
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(2, 2, 2, 2);
    v->addLayout(top);
    v->addWidget(m_notes);
    auto* body = new QHBoxLayout;
    body->addWidget(m_view, 3);
    body->addWidget(m_distanceChart, 2);  // image mode: the distance by layer
    v->addLayout(body, 1);
}

void HeadsDock::connectControls() {
    connect(m_view, &QTableView::clicked, this, &HeadsDock::activate);
    connect(m_notesToggle, &QToolButton::toggled, this, [this](bool open) {
        m_notesToggle->setArrowType(open ? Qt::DownArrow : Qt::RightArrow);
        m_notes->setVisible(open && m_notesToggle->isVisible());
    });
    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_proxy->setFilterFixedString(text);
        updateStatus();
        if (m_imageMode) {  // the chart shows the models the table keeps
            m_chartStale = true;
            refreshImage();
        }
    });
    connect(m_overSet, &QPushButton::clicked, this, [this] { computeOverSet(); });
    connect(m_overImages, &QPushButton::clicked, this, [this] { computeOverTestImages(); });
    connect(m_chartToggle, &QToolButton::toggled, this, [this](bool on) {
        m_distanceChart->setVisible(on && m_imageMode);
        refreshImage();  // computed now that it is seen
    });
    connect(m_cancel, &QPushButton::clicked, this, &HeadsDock::cancel);
    connect(m_prune, &QPushButton::clicked, this, [this] { computePruning(); });
    connect(m_poll, &QTimer::timeout, this, &HeadsDock::showProgress);
}

void HeadsDock::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) retranslateUi();
    QWidget::changeEvent(event);
}

void HeadsDock::setTestImages(const attnviz::ImageSet* images, const std::string& task) {
    m_testImages = images;
    if (task == m_testTask) return;
    m_testTask = task;
    retranslateUi();
}

void HeadsDock::retranslateUi() {
    m_overSet->setText(tr("Over the sentence list"));
    m_cancel->setText(tr("Cancel"));
    m_prune->setText(tr("Pruning curves"));
    //: Accessible name of the table of attention heads
    m_view->setAccessibleName(tr("Heads"));
    m_filter->setPlaceholderText(tr("Filter by model"));
    m_overSet->setToolTip(
        tr("Statistics over every sentence of the Sentences dock: entropy, confidence, distance "
           "and Gaussian fit averaged over the set; input dependence; importance (Michel et al. "
           "2019) when the lines have targets (\"source TAB target\"), or for language models. "
           "Shown until another sentence is chosen."));
    m_progress->setToolTip(tr("Sentences analysed and models finished"));
    m_cancel->setToolTip(
        tr("Stop the computation over the sentence list or the pruning (the table and the curves "
           "stay as they are)"));
    m_pruneModels->setToolTip(
        tr("The model to prune: those with importance over the sentence list"));
    // No count in the button: a set may have fewer test images than kTestImages (the clothing
    // photos have 406); the chart's title gives the number used.
    m_overImages->setText(tr("Over test images"));
    m_overImages->setToolTip(
        //: %2 the image set: "Fashion-MNIST", "clothing-photo"
        tr("Each head's mean attention distance over the first %1 %2 test images (all of "
           "them where there are fewer), as docs/results.md gives it (Dosovitskiy et al. 2021, "
           "Fig. 7), in the table and the "
           "chart. Shown until another image is chosen.")
            .arg(QLocale().toString(kTestImages), taskLabel(m_testTask)));
    m_chartToggle->setText(tr("Distance by layer"));
    m_chartToggle->setToolTip(
        tr("The chart of mean attention distance by layer (Dosovitskiy et al. 2021, Fig. 7): "
           "a dot per head, a colour per model, on the image shown; the dashed line is "
           "uniform attention's distance"));
    if (m_imageMode) m_chartStale = true, refreshImage();  // the chart's words
    // The table's headers and cells are the model's, asked again.
    if (m_model->columnCount() > 0)
        emit m_model->headerDataChanged(Qt::Horizontal, 0, m_model->columnCount() - 1);
    if (m_model->rowCount() > 0)
        emit m_model->dataChanged(m_model->index(0, 0), m_model->index(m_model->rowCount() - 1,
                                                                       m_model->columnCount() - 1));
    retranslateData();
}

// The texts made from data: the status line, the Pruning button's tooltip, the curves' window.
void HeadsDock::retranslateData() {
    m_prune->setToolTip(
        tr("Pruning curves (Michel et al. 2019) of the model beside: its heads removed one by "
           "one, least important first and in a random order (seed %1), loss and BLEU over the "
           "same sentences after each removal, in a window of their own. Needs the importance "
           "of a computation over the sentence list (\"source TAB target\" lines, or a "
           "language model)")
            .arg(kPruneSeed));
    if (m_current->models > 0 && !m_current->rows.empty())
        m_current->summary = tr("%1 of %2 · current sentence")
                                 .arg(plural(int(m_current->rows.size()), "head"),
                                      plural(m_current->models, "model"));
    else if (m_current->rows.empty() && m_current->models == 0 && m_current->notes.isEmpty())
        m_current->summary = tr("No models");
    if (m_curves && m_pruneWindow && m_pruneWindow->isVisible()) showCurves();
    if (m_imageMode) {  // the distance chart's title, legend and notes
        m_chartStale = true;
        refreshImage();
    }
    updateStatus();
}

HeadsDock::~HeadsDock() {
    ++*m_latest;  // running workers stop early; their watchers go with the dock
    if (m_setJob) m_setJob->cancelled = true;
    if (m_pruneJob) m_pruneJob->cancelled = true;
}

bool HeadsDock::busy() const {
    return m_shown != m_latest->load();
}

int HeadsDock::headCount() const {
    return m_model->rowCount();
}

void HeadsDock::setResults(std::shared_ptr<const attnviz::Results> results) {
    setStats(results ? std::make_shared<const ResultStats>(std::move(results)) : nullptr);
}

void HeadsDock::setStats(std::shared_ptr<const attnviz::ResultStats> stats) {
    // A new current sentence: its statistics replace the set's (the rule the status says).
    const bool wasSet = m_showSet;
    m_showSet = false;
    m_setNote.clear();
    m_pruneNote.clear();
    m_stats = std::move(stats);
    if (!m_stats) {
        m_shown = ++*m_latest;
        m_stale = false;
        *m_current = HeadsContent{{}, 0, tr("No models"), {}};
        showContent(*m_current, false);
        emit computed();
        return;
    }
    if (wasSet) showContent(*m_current, false);  // until the new sentence's statistics come
    refresh();
}

void HeadsDock::setBlock(attnviz::BlockKind kind, int layer) {
    if (kind == m_kind && layer == m_layer) return;
    m_kind = kind;
    m_layer = layer;
    if (m_stats) refresh();
}

bool HeadsDock::seen() const {
    // A dock outside any shown window (a test's) counts as seen: nothing else would ask.
    return m_seen && (isVisible() || !window()->isVisible());
}

void HeadsDock::setSeen(bool seen) {
    m_seen = seen;
    if (seen && m_stale && m_stats) refresh();
    if (seen) refreshImage();
}

void HeadsDock::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    if (m_stale && m_stats) refresh();
    refreshImage();
}

void HeadsDock::refresh() {
    const int request = ++*m_latest;  // a running computation stops and is dropped
    m_stale = !seen();
    if (m_stale) {  // a hidden tab computes nothing: refreshed when shown
        m_shown = request;
        return;
    }
    auto* watcher = new QFutureWatcher<HeadsComputation>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher] {
        watcher->deleteLater();
        showComputation(watcher->result());
    });
    const auto heads = m_layer < 0 ? m_stats->allHeads() : m_stats->heads(m_kind, m_layer);
    watcher->setFuture(
        QtConcurrent::run(backgroundPool(), [stats = m_stats, heads, request, latest = m_latest] {
            return computeHeads(*stats, heads, request, *latest);
        }));
    updateStatus();
}

void HeadsDock::showComputation(HeadsComputation c) {
    if (c.request != m_latest->load()) return;  // superseded: a newer request runs
    m_shown = c.request;
    const int rows = int(c.rows.size());
    m_current->rows = std::move(c.rows);
    m_current->models = c.models;
    m_current->summary =
        !c.error.isEmpty() ? c.error
        : c.models == 0
            ? (c.failures.isEmpty() ? tr("No models")
                                    : tr("No statistics: no model could analyse the sentence"))
            : tr("%1 of %2 · current sentence")
                  .arg(plural(rows, "head"), plural(c.models, "model"));
    m_current->notes.clear();
    if (!c.failures.isEmpty()) {
        m_current->notes
            << tr("%1 failed: %2").arg(plural(c.failures.size(), "column"), grouped(c.failures));
    }
    if (m_showSet) {  // a set result arrived meanwhile: it stays until the next sentence
        updateStatus();
        return;
    }
    showContent(*m_current, false);
    emit computed();
}

void HeadsDock::setSentenceSet(std::vector<attnviz::ModelColumn> columns, QStringList lines) {
    const bool sameModels =
        std::equal(columns.begin(), columns.end(), m_columns.begin(), m_columns.end(),
                   [](const ModelColumn& a, const ModelColumn& b) { return a.model == b.model; });
    const bool changed = !sameModels || lines != m_lines;
    m_columns = std::move(columns);
    m_lines = std::move(lines);
    if (changed && (setBusy() || pruneBusy())) {
        const bool set = setBusy();
        cancel();
        if (set)
            m_setNote =
                tr("Over the sentence list: cancelled, the models or the sentences changed");
    }
    if (changed && !m_prunable.empty()) {  // its importance was over other models or lines
        m_pruneNote =
            tr("Pruning curves: the models or the sentences changed; compute over the sentence "
               "list again");
        setPrunable({});
    }
    if (changed) updateStatus();
}

bool HeadsDock::computeOverSet(QString* why) {
    cancel();
    std::vector<std::string> lines;
    for (const QString& l : m_lines) lines.push_back(l.toStdString());
    const int sentences = int(sentenceSet(lines, false).size());
    QString reason;
    if (m_columns.empty()) {
        reason = tr("no models");
    } else if (sentences < 2) {
        reason = tr("the sentence list has %1; statistics over a set need 2 or more (File › "
                    "Open sentence list…)")
                     .arg(plural(sentences, "sentence"));
    }
    if (!reason.isEmpty()) {
        if (why) *why = reason;
        m_setNote = tr("Over the sentence list: %1").arg(reason);
        updateStatus();
        return false;
    }
    auto job = std::make_shared<SetJob>();
    m_setJob = job;
    m_setNote.clear();
    m_runSentences = sentences;
    m_runModels = int(m_columns.size());
    startRun(int(m_columns.size()) * (sentences + 1), tr("Sentences analysed and models finished"));
    auto* watcher = new QFutureWatcher<SetResult>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, job] {
        watcher->deleteLater();
        if (job != m_setJob || job->cancelled) return;  // cancelled: nobody waits for it
        setFinished(*job, watcher->result());
    });
    watcher->setFuture(
        QtConcurrent::run(backgroundPool(), [columns = m_columns, lines = std::move(lines), job] {
            return computeSet(columns, lines, *job);
        }));
    updateStatus();
    return true;
}

void HeadsDock::cancel() {
    if (!m_setJob && !m_pruneJob) return;
    if (m_setJob) {
        m_setJob->cancelled = true;
        m_setNote = m_runImages ? tr("Over test images: cancelled")
                                : tr("Over the sentence list: cancelled");
    }
    if (m_pruneJob) {
        m_pruneJob->cancelled = true;
        m_pruneNote = tr("Pruning curves: cancelled");
    }
    endRun();
    updateStatus();
}

// The progress bar over `steps`, Cancel, and the buttons off while a computation runs.
void HeadsDock::startRun(int steps, const QString& what) {
    m_progress->setRange(0, steps);
    m_progress->setValue(0);
    m_progress->setToolTip(what);
    m_progress->show();
    m_eta->setToolTip(what);
    m_eta->show();
    m_cancel->show();
    m_overSet->setEnabled(false);
    m_overImages->setEnabled(false);
    m_prune->setEnabled(false);
    m_runClock.start();
    showProgress();
    m_poll->start();
}

void HeadsDock::showProgress() {
    const SetJob* job = m_setJob ? m_setJob.get() : m_pruneJob.get();
    if (!job) return;
    const int done = job->done.load();
    m_progress->setValue(done);
    const qint64 ms = m_runClock.elapsed();
    m_eta->setText(m_setJob ? setProgressText(job->sentences.load(), m_runSentences, m_runModels,
                                              ms, done, m_progress->maximum(), m_runImages)
                            : pruneProgressText(ms, done, m_progress->maximum()));
}

void HeadsDock::endRun() {
    m_setJob.reset();
    m_pruneJob.reset();
    m_poll->stop();
    m_progress->hide();
    m_eta->hide();
    m_eta->clear();
    m_cancel->hide();
    m_overSet->setEnabled(true);
    m_overImages->setEnabled(true);
    m_runImages = false;
    m_prune->setEnabled(!m_prunable.empty());
}

void HeadsDock::setFinished(const SetJob& job, SetResult result) {
    m_progress->setValue(job.done.load());
    HeadsContent& content = result.content;
    if (content.models == 0) {  // every model failed: the table stays as it was
        endRun();
        m_setNote = tr("Over the sentence list: %1").arg(content.notes.join("\n"));
        updateStatus();
        return;
    }
    m_pruneNote.clear();
    setPrunable(std::move(result.prunable));
    endRun();
    content.summary = tr("%1 · shown until another sentence is chosen").arg(content.summary);
    *m_set = std::move(content);
    m_showSet = true;
    showContent(*m_set, true);
    emit computed();
}

// The models that "Pruning curves" offers; the chosen one stays chosen when still there.
void HeadsDock::setPrunable(std::vector<PruneInput> prunable) {
    const QString chosen = m_pruneModels->currentText();
    m_prunable = std::move(prunable);
    m_pruneModels->clear();
    for (const PruneInput& in : m_prunable)
        m_pruneModels->addItem(QString::fromStdString(in.column.name));
    const int again = m_pruneModels->findText(chosen);
    if (again >= 0) m_pruneModels->setCurrentIndex(again);
    // Shown once there is a model to choose: an empty box beside the button said nothing.
    m_pruneModels->setVisible(!m_prunable.empty());
    m_prune->setEnabled(!m_prunable.empty() && !m_setJob && !m_pruneJob);
}

bool HeadsDock::computePruning(QString* why) {
    const int index = m_pruneModels->currentIndex();
    QString reason;
    if (m_prunable.empty()) {
        reason =
            tr("no model has importance yet: compute over the sentence list first, with \"source "
               "TAB target\" lines (or a language model)");
    } else if (index < 0 || index >= int(m_prunable.size())) {
        reason = tr("choose a model");
    } else if (m_setJob || m_pruneJob) {
        reason = tr("a computation is running");
    }
    if (!reason.isEmpty()) {
        if (why) *why = reason;
        m_pruneNote = tr("Pruning curves: %1").arg(reason);
        updateStatus();
        return false;
    }
    const PruneInput& in = m_prunable[size_t(index)];
    const QString name = QString::fromStdString(in.column.name);
    auto job = std::make_shared<SetJob>();
    m_pruneJob = job;
    m_pruneNote = tr("Pruning curves of %1: computing over %2…")
                      .arg(name, plural(qsizetype(in.examples.size()), "sentence"));
    startRun(2 * (int(in.importance.size()) + 1),
             tr("Evaluations: heads removed least important first, then in a random order"));
    auto* watcher = new QFutureWatcher<PruneOutcome>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, job, name] {
        watcher->deleteLater();
        if (job != m_pruneJob || job->cancelled) return;  // cancelled: nobody waits for it
        PruneOutcome out = watcher->result();
        if (!out.error.isEmpty()) {
            endRun();
            m_pruneNote = tr("Pruning curves of %1 failed: %2").arg(name, out.error);
            updateStatus();
            return;
        }
        pruneFinished(*job, std::move(out.curves), name);
    });
    watcher->setFuture(
        QtConcurrent::run(backgroundPool(), [in, job] { return computePrune(in, *job); }));
    updateStatus();
    return true;
}

void HeadsDock::pruneFinished(const SetJob& job, PruneCurves curves, const QString& name) {
    m_progress->setValue(job.done.load());
    endRun();
    m_curves = std::move(curves);
    m_curvesModel = name;
    m_pruneNote = tr("Pruning curves of %1 (%2): in their window")
                      .arg(name, plural(m_curves->sentences, "sentence"));
    showCurves();
    updateStatus();
    emit pruned();
}

// The curves' window: made with the first curves, non-modal, shown and raised.
void HeadsDock::showCurves() {
    if (!m_pruneWindow) {
        m_pruneWindow = new QWidget(this, Qt::Window);
        m_pruneChart = new ChartView;
        m_pruneInfo = new QLabel;
        m_pruneInfo->setWordWrap(true);
        m_pruneInfo->setTextInteractionFlags(Qt::TextSelectableByMouse);
        auto* exportButton = new QPushButton;
        exportButton->setObjectName("export");
        auto* close = new QPushButton;
        close->setObjectName("close");
        auto* bottom = new QHBoxLayout;
        bottom->addWidget(m_pruneInfo, 1);
        bottom->addWidget(exportButton);
        bottom->addWidget(close);
        auto* v = new QVBoxLayout(m_pruneWindow);
        v->addWidget(m_pruneChart, 1);
        v->addLayout(bottom);
        connect(exportButton, &QPushButton::clicked, this, &HeadsDock::exportFromDialog);
        connect(close, &QPushButton::clicked, m_pruneWindow, &QWidget::close);
        m_pruneWindow->resize(720, 460);
    }
    if (auto* b = m_pruneWindow->findChild<QPushButton*>("export")) {
        b->setText(tr("E&xport…"));
        b->setToolTip(tr("Write the curves as SVG, PDF or PNG, as attnviz-cli render --prune"));
    }
    if (auto* b = m_pruneWindow->findChild<QPushButton*>("close")) b->setText(tr("Close"));
    m_pruneWindow->setWindowTitle(tr("Pruning curves · %1").arg(m_curvesModel));
    m_pruneChart->setCharts(render::pruningCharts(*m_curves, m_curvesModel.toStdString(),
                                                  render::Words(currentLanguage())));
    m_pruneInfo->setText(
        tr("%1 heads removed one by one, least important first (normalised importance) "
           "and in a random order (seed %2); loss and BLEU over the %3 the importance was "
           "computed over.")
            .arg(m_curves->byImportance.empty() ? 0 : int(m_curves->byImportance.size()) - 1)
            .arg(kPruneSeed)
            .arg(plural(m_curves->sentences, "sentence")));
    m_pruneWindow->show();
    m_pruneWindow->raise();
}

bool HeadsDock::exportPruning(const QString& path, QString* error) const {
    if (!m_curves) {
        if (error) *error = tr("no pruning curves yet");
        return false;
    }
    const auto paint =
        render::chartPainter(render::pruningCharts(*m_curves, m_curvesModel.toStdString(),
                                                   render::Words(currentLanguage())),
                             render::FigureStyle{}, error);
    return paint && render::writeFigure(path, QSizeF(504, 360), true, 150, paint, error);
}

void HeadsDock::exportFromDialog() {
    if (!m_curves) return;
    const QString path = QFileDialog::getSaveFileName(m_pruneWindow, tr("Export pruning curves"),
                                                      m_curvesModel + "-pruning.svg",
                                                      tr("SVG (*.svg);;PDF (*.pdf);;PNG (*.png)"));
    if (path.isEmpty()) return;
    QString error;
    m_pruneInfo->setText(exportPruning(path, &error)
                             ? tr("Wrote %1").arg(path)
                             : tr("Cannot export the curves: %1").arg(error));
}

void HeadsDock::showContent(const HeadsContent& content, bool overSet) {
    m_model->setRows(content.rows, overSet);
    m_view->resizeColumnsToContents();
    updateStatus();
}

void HeadsDock::updateStatus() {
    QString text;
    QStringList notes;
    if (!m_showSet && busy()) {
        text = tr("Computing…");
    } else {
        const HeadsContent& c = m_showSet ? *m_set : *m_current;
        text = c.summary;
        if (!m_filter->text().isEmpty() && m_model->rowCount() > 0) {
            //: %1: the status line; %2: how many rows the filter keeps
            text = tr("%1 · %2 shown").arg(text, QString::number(m_proxy->rowCount()));
        }
        notes = c.notes;
    }
    if (!m_setNote.isEmpty()) notes << m_setNote;
    if (!m_pruneNote.isEmpty()) notes << m_pruneNote;
    if (notes.size() == 1) text += "\n" + notes.front();
    m_status->setText(text);
    m_status->setToolTip(notes.join("\n"));
    const bool folded = notes.size() >= 2;
    //: Heads dock: the toggle that shows or hides the folded messages
    m_notesToggle->setText(tr("Messages (%1)").arg(notes.size()));
    m_notesToggle->setVisible(folded);
    m_notes->setText(folded ? "• " + notes.join("\n• ") : QString());
    m_notes->setVisible(folded && m_notesToggle->isChecked());
}

void HeadsDock::activate(const QModelIndex& proxyIndex) {
    const QModelIndex i = m_proxy->mapToSource(proxyIndex);
    if (!i.isValid()) return;
    const HeadsTableModel::Row& r = m_model->row(i.row());
    emit headActivated(r.column, r.kind, r.layer, r.head);
}

bool HeadsDock::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_view && event->type() == QEvent::KeyPress) {
        const int key = static_cast<QKeyEvent*>(event)->key();
        if ((key == Qt::Key_Return || key == Qt::Key_Enter) && m_view->currentIndex().isValid()) {
            activate(m_view->currentIndex());
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

}  // namespace attnviz::ui
