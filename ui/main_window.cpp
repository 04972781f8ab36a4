// SPDX-License-Identifier: GPL-3.0-or-later
#include "main_window.h"

#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QStatusBar>
#include <algorithm>
#include <utility>

#include "color_bar.h"
#include "column_files.h"
#include "comparison_grid.h"
#include "export_sources.h"
#include "folder_watch.h"
#include "heads_dock.h"
#include "language.h"
#include "offset_profiles.h"
#include "problems_panel.h"
#include "profile_plot.h"
#include "sentence_list.h"
#include "training_dock.h"
#include "variant_panel.h"
#include "view_controls.h"

namespace attnviz::ui {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent),
      m_workspace(new WorkspaceModel(this)),
      m_grid(new ComparisonGrid(m_workspace)),
      m_colorBar(new ColorBar),
      m_failures(new QLabel),
      m_profile(new ProfilePlot),
      m_sentences(new SentenceList),
      m_training(new TrainingDock),
      m_variant(new VariantPanel),
      m_controls(new ViewControls),
      m_problems(new ProblemsPanel),
      m_source(new QLineEdit),
      m_target(new QLineEdit),
      m_modelSet(new QComboBox) {
    setCentralWidget(createCentralWidget());
    createDocks();
    createMenus();
    connectWidgets();
    resize(QSize(1600, 1000).boundedTo(screen()->availableSize()));  // all of it on screen
    statusBar()->addPermanentWidget(m_failures);
    m_watching = new QLabel;
    m_watching->hide();
    statusBar()->addPermanentWidget(m_watching);
    m_failures->hide();
    retranslateUi();  // main_window_texts.cpp
}

QWidget* MainWindow::createCentralWidget() {
    auto* central = new QWidget;
    auto* v = new QVBoxLayout(central);
    auto* form = new QFormLayout;
    for (const auto& set : modelSets())
        m_modelSet->addItem(QString(), QString::fromStdString(set.id));
    m_modelSet->setCurrentIndex(-1);
    m_modelSet->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    // The texts: retranslateUi.
    form->addRow(rowLabel(m_modelSet), m_modelSet);
    form->addRow(rowLabel(m_source), m_source);
    form->addRow(rowLabel(m_target), m_target);
    v->addLayout(form);
    v->addWidget(m_controls);
    auto* scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setWidget(m_grid);
    m_grid->watchViewport(scroll);
    auto* row = new QHBoxLayout;
    row->addWidget(scroll, 1);
    row->addWidget(m_colorBar);  // the shared scale, outside the scrolled grid
    v->addLayout(row, 1);
    return central;
}

void MainWindow::connectWidgets() {
    connect(m_modelSet, &QComboBox::activated, this,
            [this](int i) { chooseModelSet(m_modelSet->itemData(i).toString()); });
    connect(m_source, &QLineEdit::textChanged, this, &MainWindow::requestAnalysis);
    connect(m_target, &QLineEdit::textChanged, this, &MainWindow::requestAnalysis);
    connect(m_source, &QLineEdit::returnPressed, this, &MainWindow::rememberSentence);
    connect(m_controls, &ViewControls::changed, this,
            [this] { setView(m_controls->applied(view())); });
    connect(m_profileMode, &QComboBox::currentIndexChanged, this, &MainWindow::updateProfile);
    connect(m_workspace, &WorkspaceModel::resultsChanged, this, &MainWindow::resultsChanged);
    connect(m_workspace, &WorkspaceModel::viewChanged, this, &MainWindow::updateColorBar);
    connect(m_workspace, &WorkspaceModel::columnsChanged, this, &MainWindow::columnsChanged);
    connect(m_grid, &ComparisonGrid::queryClicked, this, &MainWindow::selectQuery);
    connect(m_grid, &ComparisonGrid::zoomRequested, this, &MainWindow::zoomBy);
    connect(m_grid, &ComparisonGrid::moveColumnRequested, this, &MainWindow::moveColumn);
    connect(m_grid, &ComparisonGrid::removeColumnRequested, this, &MainWindow::removeColumn);
    connect(m_sentences, &SentenceList::sentenceChosen, this,
            [this](const QString& s, const QString& t) {
                setSentence(s, t);
                rememberSentence();
            });
    connect(m_training, &TrainingDock::modelTrained, this, &MainWindow::addColumn);
    connect(m_training, &TrainingDock::modelSaved, this,
            [this](std::shared_ptr<Model> model, const QString& path) {
                m_workspace->setSavedPath(model, path.toStdString());
            });
    connect(m_training, &TrainingDock::message, this, &MainWindow::message);
    connect(m_variant, &VariantPanel::modelChanged, this, &MainWindow::requestAnalysis);
    connect(m_variant, &VariantPanel::message, this, &MainWindow::message);
}

void MainWindow::message(const QString& text) {
    statusBar()->showMessage(text);
}

void MainWindow::moveColumn(int c, int delta) {
    ViewState v = view();
    v.allLayersOf = -1;
    m_workspace->setView(v);
    if (m_workspace->moveColumn(c, delta)) m_currentColumn = c + delta;
}

void MainWindow::removeColumn(int c) {
    if (c < 0 || c >= int(columns().size())) return;
    ViewState v = view();
    v.allLayersOf = -1;
    m_workspace->setView(v);
    m_currentColumn = -1;
    m_variant->showColumn(nullptr, v.kind);
    m_workspace->removeColumn(c);
}

void MainWindow::showWatching(const QString& dir) {
    m_watching->setText(tr("Watching %1").arg(QFileInfo(dir).fileName()));
    m_watching->setToolTip(tr("Checkpoints appearing in %1 become columns; a replaced file "
                              "updates its column (File › Stop watching)")
                               .arg(dir));
    m_watching->show();
}

void MainWindow::refreshColumnInfo() {
    QStringList info;
    for (const auto& c : columns()) info << VariantPanel::describe(*c.model);
    m_grid->setColumnInfo(info);
}

void MainWindow::columnsChanged() {
    refreshColumnInfo();
    m_heads->setSentenceSet(columns(), m_sentences->lines());
    requestAnalysis();
}

void MainWindow::setSentence(const QString& source, const QString& target) {
    const QSignalBlocker b1(m_source), b2(m_target);
    m_source->setText(source);
    m_target->setText(target);
    requestAnalysis();
}

void MainWindow::setBlock(BlockKind kind, int layer) {
    ViewState v = view();
    v.kind = kind;
    v.layer = layer;
    setView(v);
}

void MainWindow::zoomBy(double factor) {
    ViewState v = view();
    v.zoom =
        factor == 0 ? 1.0 : std::clamp(v.zoom * factor, ViewState::kZoomMin, ViewState::kZoomMax);
    setView(v);
    message(tr("zoom %1%").arg(std::lround(100 * v.zoom)));
}

void MainWindow::setView(const ViewState& v) {
    m_controls->showView(v);
    m_workspace->setView(v);
    if (m_currentColumn >= 0 && m_currentColumn < int(columns().size()))
        m_variant->showColumn(&columns()[size_t(m_currentColumn)], v.kind);
    updateProfile();
}

void MainWindow::selectQuery(int column, int query) {
    if (column >= 0 && column < int(columns().size())) {
        m_currentColumn = column;
        m_controls->setFocusColumn(column);
        m_variant->showColumn(&columns()[size_t(column)], view().kind);
    }
    ViewState v = view();
    v.query = query;
    setView(v);
    if (query >= 0 && !m_profileRaised) {  // the first click brings the profile forward
        m_profileRaised = true;
        m_profileDock->show();
        m_profileDock->raise();
        // Tall enough for the plot and a legend of up to 6 names per column.
        if (m_profileDock->height() < 260)
            resizeDocks({m_profileDock}, {std::max(260, height() / 3)}, Qt::Vertical);
    }
}

int MainWindow::profileColumn() const {
    const bool perHead = m_profileMode->currentIndex() == 1 && m_currentColumn >= 0 &&
                         m_currentColumn < int(m_workspace->results()->size());
    return perHead ? m_currentColumn : -1;
}

void MainWindow::updateProfile() {
    m_profile->showProfile(m_workspace->profile(profileColumn()), view().query >= 0);
}

void MainWindow::requestAnalysis() {
    if (!columns().empty()) message(tr("analysing…"));
    m_training->setProbeSentence(m_source->text().toStdString(), m_target->text().toStdString());
    m_workspace->analyze(m_source->text().toStdString(), m_target->text().toStdString());
}

void MainWindow::analyzeNow() {
    m_workspace->analyzeNow(m_source->text().toStdString(), m_target->text().toStdString());
}

void MainWindow::updateColorBar() {
    const ViewState& v = view();
    const Selection s = m_workspace->selection();
    m_colorBar->setScale(v.colormap, v.scaling, s.maxWeight, s.diverging);
    m_colorBar->setVisible(v.shared && (!v.lines || s.diverging) && s.maxWeight > 0);
}

void MainWindow::resultsChanged() {
    m_heads->setStats(m_workspace->stats());
    if (m_revealColumn >= 0) {  // a watched checkpoint's column: scroll it into view
        m_grid->revealPanel(m_revealColumn, 0);
        m_revealColumn = -1;
    }
    m_offsets->setStats(m_workspace->stats());
    // Every failing model, readable at leisure: a lasting note in the status bar whose
    // tooltip gives each model's reason (the panels show theirs whole as well).
    showFailures();
    updateColorBar();
    updateProfile();
    message(m_workspace->summary());
}

bool MainWindow::exportFigure(const QString& path, QString* error) {
    // A 16:9 slide; PNG at 144 dpi is 1920 x 1080.
    render::FigureStyle style = view().figureStyle();
    style.language = currentLanguage();
    const auto paint = gridExport(*m_workspace, style, error);
    return paint && render::writeFigure(path, QSizeF(960, 540), true, 144, paint, error);
}

ExportDialog* MainWindow::createExportDialog() {
    auto source = exportSource(
        m_workspace, [this] { return m_currentColumn; }, [this] { return profileColumn(); },
        m_training->lossPlot());
    render::FigureStyle style = view().figureStyle();
    style.language = currentLanguage();  // the dialog's default for the figure's words
    return new ExportDialog(source, style, this);
}

bool MainWindow::exportData(const QString& path, QString* error) {
    return writeDataExport(*m_workspace, path, error);
}

Session MainWindow::session() const {
    Session s;
    s.source = m_source->text();
    s.target = m_target->text();
    s.sentences = m_sentences->lines();
    s.sentenceIndex = m_sentences->currentIndex();
    for (const auto& c : columns()) {  // models trained in the app need saving first
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
    s.view = view();
    s.modelSet = modelSet();
    return s;
}

void MainWindow::applySession(const Session& s, QStringList* errors) {
    std::vector<ModelColumn> cols = s.openColumns(errors);
    m_sentences->setLines(s.sentences);
    {
        const QSignalBlocker b(m_sentences->list());
        m_sentences->setCurrentIndex(s.sentenceIndex);
    }
    m_currentColumn = -1;
    setView(s.view);
    {
        const QSignalBlocker b1(m_source), b2(m_target);
        m_source->setText(s.source);
        m_target->setText(s.target);
    }
    setColumns(std::move(cols));
    const QSignalBlocker b(m_modelSet);
    m_modelSet->setCurrentIndex(m_modelSet->findData(s.modelSet));
}

QString MainWindow::modelSet() const {
    return m_modelSet->currentData().toString();
}

bool MainWindow::saveSession(const QString& path, QString* error) const {
    return session().save(path, error);
}

bool MainWindow::lastSession(Session* out) {
    return Session::loadLast(out);
}

void MainWindow::showEvent(QShowEvent* event) {
    QMainWindow::showEvent(event);
    if (m_shown) return;
    m_shown = true;
    // The grid first: the bottom tools take a sixth of the height (110 to 220 px), so that
    // a laptop screen of 768 px keeps two thirds of its height for the panels.
    resizeDocks({m_profileDock}, {std::clamp(height() / 6, 110, 220)}, Qt::Vertical);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    // Models trained here live only in memory until saved: closing loses them, so ask.
    if (const int unsaved = unsavedColumns();
        unsaved > 0 &&
        !confirm(tr("Quit attnviz"),
                 tr("%1 model(s) trained here are not saved (Training › Save model…). "
                    "Quitting loses them. Quit anyway?")
                     .arg(unsaved))) {
        event->ignore();
        return;
    }
    session().saveAsLast();
    Session::setRestoring(false);  // this workspace closed normally
    QSettings settings;
    settings.setValue("windowState", saveState());
    settings.setValue("geometry", saveGeometry());
    m_training->stop();
    QMainWindow::closeEvent(event);
}

bool MainWindow::watchFolder(const QString& dir, QString* error) {
    if (!m_folderWatch) {
        m_folderWatch = new FolderWatch(this);
        connect(m_folderWatch, &FolderWatch::checkpointAdded, this, &MainWindow::followCheckpoint);
        connect(m_folderWatch, &FolderWatch::checkpointChanged, this,
                &MainWindow::followCheckpoint);
        connect(m_folderWatch, &FolderWatch::checkpointRemoved, this, [this](const QString& path) {
            message(tr("watching %1: %2 was removed (its column stays)")
                        .arg(watchedFolder(), QFileInfo(path).fileName()));
        });
        // The analysis that an event starts ends with a summary; the event is said with it.
        connect(m_workspace, &WorkspaceModel::resultsChanged, this, [this] {
            if (!m_watchNote.isEmpty())
                message(m_workspace->summary() + " · " + std::exchange(m_watchNote, {}));
        });
    }
    m_watchNote.clear();
    const auto problems = m_problems->lines().size();
    QString e;
    if (!m_folderWatch->watch(dir, &e)) {  // the folder watched before, if any, stays
        reportProblems(tr("A folder could not be watched"), {e});
        if (error) *error = e;
        return false;
    }
    showWatching(dir);
    if (m_watchNote.isEmpty() && m_problems->lines().size() == problems)
        message(tr("watching %1: no checkpoints yet").arg(watchedFolder()));
    return true;
}

QString MainWindow::watchedFolder() const {
    return m_folderWatch ? m_folderWatch->folder() : QString();
}

void MainWindow::followCheckpoint(const QString& path) {
    QString error;
    auto column = openColumn(path, &error);
    if (!column) {  // e.g. partly synced: the watch reports it again when it changes
        reportProblems(tr("A checkpoint in the watched folder could not be opened (tried again "
                          "when the file changes)"),
                       {error});
        return;
    }
    const QString file = QFileInfo(path).canonicalFilePath();
    auto samePath = [&](const std::string& p) {
        return !p.empty() && QFileInfo(QString::fromStdString(p)).canonicalFilePath() == file;
    };
    std::vector<ModelColumn> cols = columns();
    int replaced = 0;
    for (auto& c : cols) {
        if (!samePath(c.path)) continue;
        if (replaced++ == 0) {
            c = *column;
        } else if (auto again = openColumn(path, &error)) {  // its own model, as if opened twice
            c = std::move(*again);
        }
    }
    const QString name = QFileInfo(path).fileName();
    QString note;
    if (replaced) {
        if (const auto steps = column->model->training().steps) {
            note = tr("watching %1: updated %2 (step %3)")
                       .arg(watchedFolder(), name, QString::number(*steps));
        } else {
            note = tr("watching %1: updated %2").arg(watchedFolder(), name);
        }
        setColumns(std::move(cols));  // same places: the view stays, the analysis reruns
    } else {
        note = tr("watching %1: added %2").arg(watchedFolder(), name);
        addColumn(std::move(*column));
    }
    // The columns moved in memory: the Variant tab must not keep the old one.
    if (m_currentColumn >= 0 && m_currentColumn < int(columns().size()))
        m_variant->showColumn(&columns()[size_t(m_currentColumn)], view().kind);
    m_watchNote = note;
    m_revealColumn = -1;
    for (int c = 0; c < int(columns().size()); ++c)
        if (samePath(columns()[size_t(c)].path)) m_revealColumn = c;
    message(note);
}

void MainWindow::stopWatching() {
    if (!m_folderWatch || m_folderWatch->folder().isEmpty()) return;
    const QString dir = m_folderWatch->folder();
    m_folderWatch->stop();
    m_watching->hide();
    message(tr("stopped watching %1 (its columns stay)").arg(dir));
}

}  // namespace attnviz::ui
