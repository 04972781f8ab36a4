// SPDX-License-Identifier: GPL-3.0-or-later
#include "main_window.h"

#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <algorithm>

#include "color_bar.h"
#include "comparison_grid.h"
#include "folder_columns.h"
#include "heads_dock.h"
#include "image_chooser.h"
#include "image_grid.h"
#include "image_model.h"
#include "image_view.h"
#include "input_guards.h"
#include "language.h"
#include "panel.h"
#include "presentation.h"
#include "problems_panel.h"
#include "profile_plot.h"
#include "sentence_list.h"
#include "training_dock.h"
#include "variant_panel.h"
#include "view_controls.h"
#include "workspace_fields.h"

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
    resize(kDefaultSize.boundedTo(screen()->availableSize()));  // placeOnScreen: the frame too
    new KeepStatusMessage(this);
    statusBar()->addPermanentWidget(m_failures);
    m_watching = new QLabel;
    m_watching->hide();
    statusBar()->addPermanentWidget(m_watching);
    m_failures->hide();
    m_folderColumns = new FolderColumns(m_workspace, this);
    connect(m_folderColumns, &FolderColumns::message, this, &MainWindow::message);
    connect(m_folderColumns, &FolderColumns::problems, this, &MainWindow::reportProblems);
    connect(m_folderColumns, &FolderColumns::watching, this, &MainWindow::showWatching);
    connect(m_folderColumns, &FolderColumns::reveal, this,
            [this](int c) { m_grid->revealPanel(c, 0); });
    for (QLineEdit* field : {m_source, m_target})  // Qt's default cuts at 32,767 characters
        field->setMaxLength(int(Tokenizer::kMaxTextBytes));
    new WheelGuard(this);  // on the application: no model changed by scrolling past it
    for (QLineEdit* field : {m_source, m_target})
        field->installEventFilter(new ShortcutsFirst(this));
    retranslateUi();  // main_window_texts.cpp
}

void MainWindow::connectWidgets() {
    connect(m_modelSet, &QComboBox::activated, this,
            [this](int i) { chooseModelSet(m_modelSet->itemData(i).toString()); });
    // The fields, the sentence list and the Models box show the workspace and edit it.
    followSentence(m_workspace, m_source, m_target);
    followModelSet(m_workspace, m_modelSet);
    for (auto changed : {&WorkspaceModel::columnsChanged, &WorkspaceModel::modelSetChanged})
        connect(m_workspace, changed, this, &MainWindow::labelModelSets);
    m_sentences->follow(m_workspace);
    connect(m_workspace, &WorkspaceModel::analysisRequested, this, &MainWindow::analysing);
    connect(m_source, &QLineEdit::returnPressed, this, &MainWindow::rememberSentence);
    connect(m_controls, &ViewControls::changed, this,
            [this] { setView(m_controls->applied(view())); });
    connect(m_profileMode, &QComboBox::currentIndexChanged, this, &MainWindow::updateProfile);
    connect(m_workspace, &WorkspaceModel::resultsChanged, this, &MainWindow::resultsChanged);
    connect(m_workspace, &WorkspaceModel::progressed, this, &MainWindow::showFailures);
    connect(m_workspace, &WorkspaceModel::viewChanged, this, &MainWindow::updateColorBar);
    connect(m_workspace, &WorkspaceModel::columnsChanged, this, &MainWindow::columnsChanged);
    connect(m_grid, &ComparisonGrid::queryClicked, this, &MainWindow::selectQuery);
    connect(m_grid, &ComparisonGrid::zoomRequested, this, &MainWindow::zoomBy);
    connect(m_grid, &ComparisonGrid::moveColumnRequested, this, &MainWindow::moveColumn);
    connect(m_grid, &ComparisonGrid::removeColumnRequested, this, &MainWindow::removeColumn);
    connect(m_sentences, &SentenceList::sentenceChosen, this, &MainWindow::rememberSentence);
    connect(m_training, &TrainingDock::modelTrained, this, &MainWindow::addColumn);
    connect(m_training, &TrainingDock::modelSaved, this,
            [this](std::shared_ptr<Model> model, const QString& path) {
                m_workspace->setSavedPath(model, path.toStdString());
            });
    connect(m_training, &TrainingDock::message, this, &MainWindow::message);
    // A model reconfigured in the Variant dock: what the window shows is analysed again (in
    // image mode the image, which the sentence's analysis does not touch).
    connect(m_variant, &VariantPanel::modelChanged, this, [this] { mode().analyze(); });
    connect(m_variant, &VariantPanel::message, this, &MainWindow::message);
}

void MainWindow::message(const QString& text) {
    statusBar()->showMessage(text);
}

void MainWindow::moveColumn(int c, int delta) {
    const int n = int(columns().size());
    if (c < 0 || c >= n || c + delta < 0 || c + delta >= n) return;
    m_workspace->moveColumn(c, delta);  // the current and the Focus model follow theirs
}

void MainWindow::removeColumn(int c) {
    if (c < 0 || c >= int(columns().size())) return;
    m_workspace->removeColumn(c);  // leaves Focus when it showed this model
}

void MainWindow::refreshColumnInfo() {
    QStringList info;
    for (const auto& c : columns()) info << VariantPanel::describe(*c.model);
    m_grid->setColumnInfo(info);
}

void MainWindow::columnsChanged() {
    refreshColumnInfo();
    // The columns moved in memory: the Variant tab must not keep the old one, nor one closed.
    const int c = currentColumn();
    m_variant->showColumn(c >= 0 ? &columns()[size_t(c)] : nullptr, view().kind);
    m_controls->setFocusColumn(std::max(0, c));
    m_controls->showView(view());  // Focus left when its model was closed
}

void MainWindow::setSentence(const QString& source, const QString& target) {
    m_workspace->setSentence(source, target);
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
    if (m_imageView) m_imageView->grid()->setZoom(v.zoom);  // image panels zoom as text ones
    if (const int c = currentColumn(); c >= 0) m_variant->showColumn(&columns()[size_t(c)], v.kind);
    updateProfile();
}

void MainWindow::analysing() {
    if (!columns().empty() && !mode().images()) message(tr("analysing…"));
    m_training->setProbeSentence(m_workspace->source().toStdString(),
                                 m_workspace->target().toStdString());
}

void MainWindow::analyzeNow() {
    mode().analyzeNow();
}

void MainWindow::updateColorBar() {
    const ViewState& v = view();
    const Selection s = m_workspace->selection();
    m_colorBar->setScale(v.colormap, v.scaling, s.maxWeight, s.diverging);
    // The shared scale of panels that colour their cells.
    m_colorBar->setVisible(v.shared && panelKindFor(v, s) == PanelKind::Heatmap && s.maxWeight > 0);
}

void MainWindow::resultsChanged() {
    // Every failing model, readable at leisure: a lasting note in the status bar whose
    // tooltip gives each model's reason (the panels show theirs whole as well).
    showFailures();
    updateColorBar();
    updateProfile();
    if (const QString s = mode().summary(); !s.isEmpty()) message(s);
}

void MainWindow::closeEvent(QCloseEvent* event) {
    // Models trained here live only in memory until saved: closing loses them, so ask.
    if (const auto unsaved = unsavedModels(); !offerToSave(
            unsaved, tr("Quit attnviz"),
            tr("%1 model(s) trained here are not saved. Quitting loses them.").arg(unsaved.size()),
            tr("&Quit without saving"))) {
        event->ignore();
        return;
    }
    session().saveAsLast();
    Session::setRestoring(false);      // this workspace closed normally
    m_presentation->setActive(false);  // the window as it is outside presentation is saved
    QSettings settings;
    settings.setValue("windowState", saveState());
    settings.setValue("geometry", saveGeometry());
    m_training->stop();
    QMainWindow::closeEvent(event);
}

}  // namespace attnviz::ui
