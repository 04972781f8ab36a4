// SPDX-License-Identifier: GPL-3.0-or-later
// MainWindow's central widget (fields, view bar, caption, grid and colour bar) and how the
// room is shared between the grid and the docks, on a large screen and a laptop's.
#include <QComboBox>
#include <QDockWidget>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QToolButton>
#include <algorithm>

#include "color_bar.h"
#include "comparison_grid.h"
#include "language.h"
#include "main_window.h"
#include "presentation.h"
#include "problems_panel.h"
#include "view_controls.h"

namespace attnviz::ui {

QWidget* MainWindow::createCentralWidget() {
    auto* central = new QWidget;
    auto* v = new QVBoxLayout(central);
    auto* chrome = new QWidget;  // the fields and the view bar: hidden while presenting
    auto* top = new QVBoxLayout(chrome);
    top->setContentsMargins(0, 0, 0, 0);
    auto* form = m_fields = new QFormLayout;
    for (const auto& set : modelSets())
        m_modelSet->addItem(QString(), QString::fromStdString(set.id));
    m_modelSet->setCurrentIndex(-1);
    // Its width is the room given, up to the longest text it may show (labelModelSets), never
    // its current text's: a new text (another set, a comparison) does not move the buttons
    // beside it (issue 47).
    m_modelSet->setSizeAdjustPolicy(QComboBox::AdjustToContents);  // it asks for every text
    m_modelSet->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    // The lecture's comparisons beside the sets, where a newcomer looks for "which models"
    // (Columns › Compare holds the same menu).
    auto* models = new QHBoxLayout;
    m_compare = new QToolButton;
    m_compare->setPopupMode(QToolButton::InstantPopup);
    m_compare->setToolButtonStyle(Qt::ToolButtonTextOnly);
    // And the way to show them to a room (View › Presentation mode, F5), where it is seen.
    m_present = new QToolButton;
    m_present->setObjectName("present");
    m_present->setToolButtonStyle(Qt::ToolButtonTextOnly);
    models->addWidget(m_modelSet, 1);  // grows before the stretch after the buttons
    models->addWidget(m_compare);
    models->addWidget(m_present);
    models->addStretch();
    form->addRow(rowLabel(m_modelSet), models);
    form->addRow(rowLabel(m_source), m_source);
    form->addRow(rowLabel(m_target), m_target);
    top->addLayout(form);
    top->addWidget(m_controls);
    v->addWidget(chrome);
    auto* caption = new QLabel;  // the sentence and its translation while presenting
    v->addWidget(caption);
    m_presentation =
        new Presentation({this, m_grid, m_colorBar, m_workspace,
                          [this](const ViewState& v) { setView(v); }, chrome, caption});
    connect(m_present, &QToolButton::clicked, m_presentation, &Presentation::toggle);
    auto* scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setWidget(m_grid);
    m_grid->watchViewport(scroll);
    auto* textPage = new QWidget;
    auto* row = new QHBoxLayout(textPage);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(scroll, 1);
    row->addWidget(m_colorBar);  // the shared scale, outside the scrolled grid
    v->addWidget(createImageMode(textPage), 1);
    return central;
}

// A 1366 × 768 laptop under a window manager: the window was sized to the screen, and its
// title bar pushed its bottom (the docks' tabs) off the screen.
void MainWindow::placeOnScreen() {
    if (restoreGeometry(QSettings().value("geometry").toByteArray())) return;
    const QSize room = screen()->availableSize();
    constexpr int kFrame = 80;  // a title bar and borders, generously
    if (room.width() < kDefaultSize.width() + kFrame ||
        room.height() < kDefaultSize.height() + kFrame)
        setWindowState(windowState() | Qt::WindowMaximized);
}

bool MainWindow::smallScreen() const {
    return screen()->availableSize().height() < kSmallScreenHeight;
}

int MainWindow::toolsHeight(bool profile) const {
    // A small screen: the tabs' bar and a strip of the tool (the profile is beside the grid,
    // profileWidth). A large one: a sixth (110 to 220 px), a third with the profile, so that the
    // grid keeps two thirds or more.
    if (smallScreen()) return profile ? std::max(200, height() * 3 / 10) : kCollapsedTools;
    return profile ? std::max(260, height() / 3) : std::clamp(height() / 6, 110, 220);
}

int MainWindow::profileWidth() const {
    // Wide enough for the plot and its legend's names, the grid keeping seven tenths or more.
    const int room = width() - centralWidget()->minimumSizeHint().width();
    return std::max(kMinProfileWidth, std::min({width() * 3 / 10, 480, room}));
}

void MainWindow::showEvent(QShowEvent* event) {
    QMainWindow::showEvent(event);
    if (m_shown) return;
    m_shown = true;
    // On a small screen the bottom tools may shrink to a strip (their tables and plots are
    // cut until the strip is dragged taller or the profile comes forward): their own
    // minimum heights would otherwise hold a third of the screen.
    if (smallScreen())
        for (QDockWidget* d : m_docks)
            if (dockWidgetArea(d) == Qt::BottomDockWidgetArea) d->widget()->setMinimumHeight(1);
    QDockWidget* tools = findChild<QDockWidget*>("variant");
    // On a small screen the query profile is beside the grid, not below it: below, it would
    // take the height that the grid's heads need (at 768 px only one row of heads stayed whole).
    // It appears at the first clicked query (selectQuery), taking some of the width instead.
    if (smallScreen() && !m_presentation->isActive()) {
        addDockWidget(Qt::RightDockWidgetArea, m_profileDock);
        m_profileDock->hide();
        // Hidden before image mode's first switch back to text too: it comes at the first query.
        if (const auto kept = m_textDocksShown.find("profile"); kept != m_textDocksShown.end())
            kept->second = false;
        tools->raise();
    }
    resizeDocks({tools}, {toolsHeight(false)}, Qt::Vertical);
}

void MainWindow::fitProblemsDock() {
    // Tall enough for a few lines and the buttons, never more than an eighth of the window
    // (the list scrolls): the grid keeps the rest.
    const int lines = std::min(m_problems->lineCount(), 6);  // not a copy of every line
    const int cap = std::max(kCollapsedTools, height() / 8);
    resizeDocks({m_problemsDock}, {std::min(90 + 20 * lines, cap)}, Qt::Vertical);
}

}  // namespace attnviz::ui
