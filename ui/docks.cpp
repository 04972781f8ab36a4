// SPDX-License-Identifier: GPL-3.0-or-later
// MainWindow's docks: the query profile (with its mode), sentences, variant and training.
#include <QComboBox>
#include <QDockWidget>
#include <QScrollArea>
#include <QVBoxLayout>
#include <map>
#include <utility>

#include "comparison_grid.h"
#include "film_dock.h"
#include "heads_dock.h"
#include "image_view.h"
#include "main_window.h"
#include "offset_profiles.h"
#include "presentation.h"
#include "problems_panel.h"
#include "profile_plot.h"
#include "sentence_list.h"
#include "stale_mark.h"
#include "training_dock.h"
#include "variant_panel.h"
#include "view_controls.h"

namespace attnviz::ui {
namespace {

// The tools scroll inside their tab, so that their forms do not set the bottom's height.
QScrollArea* scrolled(QWidget* content) {
    auto* s = new QScrollArea;
    s->setWidget(content);
    s->setWidgetResizable(true);
    s->setFrameShape(QFrame::NoFrame);
    return s;
}

}  // namespace

// Every dock, one row each, in the order of the View menu and of the bottom's tabs: its name
// (the object name, kept in saved layouts), its title in the installed language, where it
// docks, whether it is one of the bottom's tabs, and the widget whose data marks it stale
// ("updating…" in its title, markStaleDocks; null: never stale). A dock added here is created,
// tabbed, titled, listed in View and marked by these rows alone.
std::vector<MainWindow::DockRow> MainWindow::dockTable() const {
    // name, title, area, a bottom tab, what an overdue analysis dims, shown in image mode
    return {{"profile", tr("Query profile"), Qt::BottomDockWidgetArea, true, m_profile, false},
            {"sentences", tr("Sentences"), Qt::LeftDockWidgetArea, false, nullptr, false},
            //: Dock title: the attention variant of the clicked model
            {"variant", tr("Variant"), Qt::BottomDockWidgetArea, true, nullptr, true},
            {"training", tr("Training"), Qt::BottomDockWidgetArea, true, nullptr, true},
            //: Dock title: the table of attention heads
            {"heads", tr("Heads"), Qt::BottomDockWidgetArea, true, m_heads->table(), true},
            {"offsets", tr("Offset profiles"), Qt::BottomDockWidgetArea, true, m_offsets, false},
            {"film", tr("Over training"), Qt::BottomDockWidgetArea, true, nullptr, false},
            {"problems", tr("Problems"), Qt::TopDockWidgetArea, false, nullptr, true}};
}

void MainWindow::showTextDock(QDockWidget* dock) {
    if (const auto hidden = m_textDocksShown.find(dock->objectName());
        hidden != m_textDocksShown.end()) {
        hidden->second = true;  // image mode: shown when text returns
        return;
    }
    dock->show();
    dock->raise();
}

// The docks of text alone (the query profile, sentences, offset profiles, the probe's film)
// have nothing to show in image mode: hidden there, their menu entries disabled, and back as
// they were when text returns.
void MainWindow::showDocksOfMode(bool image) {
    for (const DockRow& row : dockTable()) {
        if (row.images) continue;
        QDockWidget* d = findChild<QDockWidget*>(row.name);
        if (!d) continue;
        d->toggleViewAction()->setEnabled(!image);
        const auto hidden = m_textDocksShown.find(row.name);
        if (image && hidden == m_textDocksShown.end()) {
            m_textDocksShown[row.name] = !d->isHidden();  // shown, or a tab behind another
            d->hide();
        } else if (!image && hidden != m_textDocksShown.end()) {
            if (hidden->second) d->show();
            m_textDocksShown.erase(hidden);
        }
    }
}

void MainWindow::createDocks() {
    m_heads = new HeadsDock;
    m_offsets = new OffsetProfileView;
    m_film = new FilmDock;
    // Each row's content (the dock table's names).
    const std::map<QString, QWidget*> content = {{"profile", createProfileBox()},
                                                 {"sentences", m_sentences},
                                                 {"variant", scrolled(m_variant)},
                                                 {"training", scrolled(m_training)},
                                                 {"heads", m_heads},
                                                 {"offsets", scrolled(m_offsets)},
                                                 {"film", m_film},
                                                 {"problems", m_problems}};
    QDockWidget* lastTab = nullptr;
    for (const DockRow& row : dockTable()) {
        auto* d = new QDockWidget(this);  // titled by retranslateDocks
        d->setObjectName(row.name);
        d->setWidget(content.at(row.name));
        addDockWidget(row.area, d);
        // The grid gets the whole width; the tools share the bottom as tabs.
        if (row.tab && lastTab) tabifyDockWidget(lastTab, d);
        if (row.tab) lastTab = d;
        m_docks.push_back(d);
    }
    m_profileDock = findChild<QDockWidget*>("profile");
    m_sentenceDock = findChild<QDockWidget*>("sentences");
    m_filmDock = findChild<QDockWidget*>("film");
    m_problemsDock = findChild<QDockWidget*>("problems");
    QDockWidget* headsDock = findChild<QDockWidget*>("heads");
    QDockWidget* offsetsDock = findChild<QDockWidget*>("offsets");
    connectHeadDocks(headsDock, offsetsDock);
    connectFilmDock();
    // The profile is empty until a query is clicked: the variant's description is shown
    // first, and the profile comes forward at the first click (selectQuery).
    findChild<QDockWidget*>("variant")->raise();
    m_heads->setSeen(false);  // behind the Variant tab until chosen
    m_offsets->setSeen(false);
    // A tool of numbers and charts, chosen on a small screen, grows to a readable height where
    // it was a strip (showEvent starts the bottom tools so), as the query profile does: at
    // 1366 x 768 the Heads tab showed only its header row, Offset profiles only its title. In
    // image mode the Heads dock's distance chart needs that room on any screen. On a tab's
    // activation only (a restored layout or a shown window keeps its heights), docked only.
    connect(this, &QMainWindow::tabifiedDockWidgetActivated, this,
            [this, headsDock, offsetsDock](QDockWidget* d) {
                const bool tool = d == headsDock || d == offsetsDock || d == m_filmDock;
                if (!tool || d->isFloating() || m_presentation->isActive() ||
                    dockWidgetArea(d) != Qt::BottomDockWidgetArea ||
                    !(smallScreen() || (d == headsDock && mode().images())))
                    return;
                if (const int want = toolsHeight(true); d->height() < want)
                    resizeDocks({d}, {want}, Qt::Vertical);
            });
    m_sentenceDock->hide();
    // Files that could not be opened: above the grid, shown when there are any, kept until
    // cleared or closed.
    m_problemsDock->hide();
    // The docks that show the whole analysis are marked while a newer one is overdue.
    for (auto changed : {&WorkspaceModel::columnStatesChanged, &WorkspaceModel::progressed,
                         &WorkspaceModel::resultsChanged})
        connect(m_workspace, changed, this, &MainWindow::markStaleDocks);
    connect(m_heads, &HeadsDock::computed, this, &MainWindow::markStaleDocks);
}

// The query profile, the Heads and Offset profiles docks change when a whole analysis arrives
// (resultsChanged): dimmed, "updating…" in their titles, when it has not arrived within
// WorkspaceModel::kStaleMarkMs of the edit (the grid's rule), so that quick analyses never
// flicker. The Heads dock showing the sentence list's statistics is not of the sentence: never
// marked. The Variant dock shows the model's settings, no per-sentence numbers: never marked.
void MainWindow::markStaleDocks() {
    const bool overdue = m_workspace->analysisOverdue();
    for (const DockRow& row : dockTable())
        if (row.staleData)
            setDimmed(row.staleData,
                      overdue && !(row.staleData == m_heads->table() && m_heads->showsSet()));
    retranslateDocks();
}

QWidget* MainWindow::createProfileBox() {
    auto* profileBox = new QWidget;
    auto* pv = new QVBoxLayout(profileBox);
    pv->setContentsMargins(2, 2, 2, 2);
    m_profileMode = new QComboBox;
    m_profileMode->addItems({QString(), QString()});  // retranslateDocks
    // Narrower than its longest choice when the dock is (beside the grid on a laptop).
    m_profileMode->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_profileMode->setMinimumContentsLength(16);
    pv->addWidget(m_profileMode);
    pv->addWidget(m_profile, 1);
    return profileBox;
}

void MainWindow::connectHeadDocks(QDockWidget* headsDock, QDockWidget* offsetsDock) {
    // Every head's statistics for the sentence (issue 15), computed off the UI thread.
    connect(m_heads, &HeadsDock::headActivated, this, &MainWindow::showHead);
    // Its set analysis is over the workspace's sentence list and columns.
    for (auto changed : {&WorkspaceModel::sentencesChanged, &WorkspaceModel::columnsChanged})
        connect(m_workspace, changed, m_heads,
                [this] { m_heads->setSentenceSet(columns(), m_workspace->sentences()); });
    // Every head's offset profile beside its Gaussian fit, for the view's block and layer.
    // Both list the heads of the view's block and layer, so that typing fits only those.
    connect(m_workspace, &WorkspaceModel::viewChanged, this, [this] {
        m_offsets->setBlock(view().kind, view().layer);
        m_heads->setBlock(view().kind, view().layer);
    });
    m_heads->setBlock(view().kind, view().layer);
    // A tab behind another is "visible" to Qt, but unseen: it computes nothing.
    connect(headsDock, &QDockWidget::visibilityChanged, m_heads, &HeadsDock::setSeen);
    connect(offsetsDock, &QDockWidget::visibilityChanged, m_offsets, &OffsetProfileView::setSeen);
    // A new analysis: its statistics, shared by both, computed by whichever is seen.
    connect(m_workspace, &WorkspaceModel::statsChanged, this, [this] {
        if (!mode().images()) m_heads->setStats(m_workspace->stats());  // else the image's
        m_offsets->setStats(m_workspace->stats());
    });
}

void MainWindow::connectFilmDock() {
    // Attention over training (issue 15): a probe's snapshots, live from the Training tab or
    // from a probe file, drawn with the window's block, layer, heads and colours.
    m_film->setView(view());
    connect(m_training, &TrainingDock::probeSnapshot, m_film, &FilmDock::addSnapshot);
    connect(m_film, &FilmDock::message, this, &MainWindow::message);
    connect(m_workspace, &WorkspaceModel::viewChanged, m_film, [this] { m_film->setView(view()); });
}

void MainWindow::retranslateDocks() {
    //: Query profile dock: how the profile plot draws the clicked query's attention
    m_profileMode->setItemText(0, tr("One line per model (mean of its heads)"));
    //: Query profile dock: how the profile plot draws the clicked query's attention
    m_profileMode->setItemText(1, tr("One line per head of the clicked model"));
    // A dock whose data is of an earlier analysis says so in its title (markStaleDocks).
    const std::vector<DockRow> rows = dockTable();
    for (size_t i = 0; i < rows.size() && i < m_docks.size(); ++i) {
        const bool stale = rows[i].staleData && isDimmed(rows[i].staleData);
        //: Dock title while its data is of an earlier sentence, e.g. "Heads · updating…"
        m_docks[i]->setWindowTitle(stale ? tr("%1 · updating…").arg(rows[i].title) : rows[i].title);
    }
}

void MainWindow::showHead(int column, BlockKind kind, int layer, int head) {
    if (mode().showHead(column, layer, head)) return;  // the image view's panel of that head
    const auto results = m_workspace->results();
    if (!results || column < 0 || column >= int(results->size())) return;
    m_workspace->setCurrentColumn(column);
    m_controls->setFocusColumn(column);
    ViewState v = view();
    v.kind = kind;
    v.layer = layer;
    v.meanHeads = false;
    v.allLayersOf = column;
    setView(v);
    // In Focus the grid's columns are the model's blocks of this kind, in layer order.
    int gridColumn = 0;
    for (const auto& b : (*results)[size_t(column)].analysis.blocks)
        if (b.kind == kind && b.layer < layer) ++gridColumn;
    m_grid->revealPanel(gridColumn, head);
}

void MainWindow::selectQuery(int column, int query) {
    if (column >= 0 && column < int(columns().size())) {
        m_workspace->setCurrentColumn(column);
        m_controls->setFocusColumn(column);
        m_variant->showColumn(&columns()[size_t(column)], view().kind);
    }
    ViewState v = view();
    v.query = query;
    setView(v);
    // The first click brings the profile forward (not while presenting: no docks then).
    if (query >= 0 && !m_profileRaised && !m_presentation->isActive()) {
        m_profileRaised = true;
        showProfileDock();
    }
}

void MainWindow::showProfileDock() {
    const Qt::DockWidgetArea area = dockWidgetArea(m_profileDock);
    const bool beside = area == Qt::LeftDockWidgetArea || area == Qt::RightDockWidgetArea;
    // Beside the grid (a small screen) when the window is wide enough for both, else below
    // with the other tools.
    if (beside && width() - centralWidget()->minimumSizeHint().width() < kMinProfileWidth)
        tabifyDockWidget(findChild<QDockWidget*>("variant"), m_profileDock);
    m_profileDock->show();
    m_profileDock->raise();
    if (dockWidgetArea(m_profileDock) != Qt::BottomDockWidgetArea) {
        // The grid keeps its height.
        if (const int want = profileWidth(); m_profileDock->width() < want)
            resizeDocks({m_profileDock}, {want}, Qt::Horizontal);
    } else if (const int want = toolsHeight(true); m_profileDock->height() < want) {
        // Below: tall enough for the plot and a legend of up to 6 names per column.
        resizeDocks({m_profileDock}, {want}, Qt::Vertical);
    }
}

int MainWindow::profileColumn() const {
    // In Focus, the focused model's heads: the one the grid shows.
    const int c = view().allLayersOf >= 0 ? view().allLayersOf : currentColumn();
    const bool perHead =
        m_profileMode->currentIndex() == 1 && c >= 0 && c < int(m_workspace->results()->size());
    return perHead ? c : -1;
}

void MainWindow::updateProfile() {
    m_profile->showProfile(m_workspace->profile(profileColumn()), view().query >= 0);
}

}  // namespace attnviz::ui
