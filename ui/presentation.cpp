// SPDX-License-Identifier: GPL-3.0-or-later
#include "presentation.h"

#include <QDockWidget>
#include <QEvent>
#include <QLabel>
#include <QMainWindow>
#include <QMenuBar>
#include <QShortcut>
#include <QStatusBar>
#include <algorithm>

#include "color_bar.h"
#include "comparison_grid.h"
#include "language.h"
#include "render/words.h"
#include "view_state.h"
#include "workspace_model.h"

namespace attnviz::ui {

namespace {
// The least height of a row of heads in presentation mode: a map with its large labels.
constexpr int kMinRowHeight = 380;
}  // namespace

Presentation::Presentation(Window w)
    : QObject(w.window),
      m_window(w.window),
      m_grid(w.grid),
      m_colorBar(w.colorBar),
      m_workspace(w.workspace),
      m_setView(std::move(w.setView)),
      m_chrome(w.chrome),
      m_caption(w.caption) {
    m_caption->setObjectName("presentationCaption");
    m_caption->setWordWrap(true);
    m_caption->setTextFormat(Qt::RichText);
    m_caption->setAlignment(Qt::AlignCenter);
    m_caption->hide();
    // Window shortcuts: they reach the window whatever has the focus (the fields are hidden).
    auto key = [this](Qt::Key k, auto slot) {
        auto* s = new QShortcut(QKeySequence(k), m_window);
        s->setEnabled(false);
        connect(s, &QShortcut::activated, this, slot);
        m_keys.push_back(s);
    };
    key(Qt::Key_Right, [this] { stepQuery(+1); });
    key(Qt::Key_Left, [this] { stepQuery(-1); });
    key(Qt::Key_Escape, [this] { setActive(false); });
    // A row of panels at a time, never a cut one (the scroll area's own keys step by pixels).
    for (Qt::Key k : {Qt::Key_PageDown, Qt::Key_Down})
        key(k, [this] { m_grid->scrollToRow(m_grid->topRow() + 1); });
    for (Qt::Key k : {Qt::Key_PageUp, Qt::Key_Up})
        key(k, [this] { m_grid->scrollToRow(m_grid->topRow() - 1); });
    WorkspaceModel* ws = m_workspace;
    for (auto changed : {&WorkspaceModel::resultsChanged, &WorkspaceModel::viewChanged,
                         &WorkspaceModel::sentenceChanged})
        connect(ws, changed, this, [this] {
            if (m_active) updateCaption();
        });
    m_window->installEventFilter(this);
}

void Presentation::setActive(bool on) {
    if (on == m_active) return;
    m_active = on;
    if (on)
        enter();
    else
        leave();
    emit activeChanged(on);
}

ViewState Presentation::view() const {
    return m_workspace->view();
}

void Presentation::enter() {
    QMainWindow* w = m_window;
    m_docks = w->saveState();
    m_geometry = w->saveGeometry();
    m_state = w->windowState();
    m_menuBar = !w->menuBar()->isHidden();
    m_statusBar = !w->statusBar()->isHidden();
    m_chromeShown = !m_chrome->isHidden();
    for (QDockWidget* d : w->findChildren<QDockWidget*>(Qt::FindDirectChildrenOnly)) d->hide();
    w->menuBar()->hide();
    w->statusBar()->hide();
    m_chrome->hide();
    // Large labels: the tokens' (the view's label size) and the column headers' (the grid's font).
    ViewState v = view();
    m_labelPoints = v.labelPoints;
    v.labelPoints = kLabelPoints;
    m_setView(v);
    m_gridFont = m_grid->font();
    QFont large = m_gridFont;
    if (m_gridFont.pointSizeF() > 0)
        large.setPointSizeF(m_gridFont.pointSizeF() * kHeaderScale);
    else
        large.setPixelSize(int(m_gridFont.pixelSize() * kHeaderScale));
    m_grid->setFont(large);
    m_colorBar->setScaleFactor(kHeaderScale);
    // Two heads of every model in sight where the view has the height (a 1080-pixel screen);
    // on a laptop or projector of 768 or 600 pixels one head, as large as the view allows (two
    // rows there left 125-pixel maps with every second label dropped); the others scroll.
    m_grid->setRowsInView(2, kMinRowHeight);
    updateCaption();
    m_caption->show();
    for (QShortcut* k : m_keys) k->setEnabled(true);
    w->showFullScreen();
    m_grid->setFocus();  // no field keeps the arrow keys
}

void Presentation::leave() {
    QMainWindow* w = m_window;
    for (QShortcut* k : m_keys) k->setEnabled(false);
    m_caption->hide();
    m_chrome->setVisible(m_chromeShown);
    w->menuBar()->setVisible(m_menuBar);
    w->statusBar()->setVisible(m_statusBar);
    m_grid->setFont(m_gridFont);
    m_colorBar->setScaleFactor(1);
    m_grid->setRowsInView(0);
    ViewState v = view();
    v.labelPoints = m_labelPoints;
    m_setView(v);
    // The window as it was (normal, maximised or full screen, and where), then its docks.
    w->setWindowState(m_state);
    w->restoreGeometry(m_geometry);
    w->restoreState(m_docks);
}

std::vector<std::string> Presentation::queryTokens() const {
    const Selection s = m_workspace->selection();
    for (const auto& c : s.columns)
        for (const auto& t : c.tables)
            if (t.queries) return *t.queries;
    return {};
}

void Presentation::stepQuery(int delta) {
    const int n = int(queryTokens().size());
    if (n == 0) return;
    ViewState v = view();
    v.query = v.query < 0 ? (delta > 0 ? 0 : n - 1) : std::clamp(v.query + delta, 0, n - 1);
    m_setView(v);  // not selectQuery: no dock comes forward
}

void Presentation::updateCaption() {
    WorkspaceModel* ws = m_workspace;
    QString translation = ws->target().toHtmlEscaped();
    if (translation.isEmpty()) {  // the first model's own translation, named
        for (const auto& r : *ws->results())
            if (r.error.empty() && r.analysis.decoded) {
                //: Presentation caption: %1 a model's translation of the sentence, %2 the model
                translation =
                    tr("%1 <small>(%2)</small>")
                        .arg(QString::fromStdString(r.analysis.targetText).toHtmlEscaped(),
                             QString::fromStdString(r.name).toHtmlEscaped());
                break;
            }
    }
    const auto tokens = queryTokens();
    const int q = view().query;
    //: Presentation caption: how to use the keys while presenting
    QString hint = tr("← → step through the tokens · Esc leaves");
    if (q >= 0 && q < int(tokens.size())) {
        // Which of the same tokens, for the sentence's two "to"s: "(2nd)".
        const std::string which = occurrenceNote(tokens, q, render::wording(currentLanguage()));
        //: Presentation caption: the selected query, %1 of %2 tokens (counted from 1), %3 the
        //: token; a token that occurs more than once is followed by which one, e.g. "(2nd)"
        hint = tr("Query %1 of %2: “%3”")
                   .arg(q + 1)
                   .arg(tokens.size())
                   .arg(QString::fromStdString(tokens[size_t(q)]).toHtmlEscaped()) +
               (which.empty() ? QString() : " " + QString::fromStdString(which).toHtmlEscaped()) +
               " · " + hint;
    }
    QString html = QString("<div style='font-size:xx-large'><b>%1</b></div>")
                       .arg(ws->source().toHtmlEscaped());
    if (!translation.isEmpty())
        html += QString("<div style='font-size:x-large'>→ %1</div>").arg(translation);
    html += QString("<div style='color:#666'>%1</div>").arg(hint);
    m_caption->setText(html);
}

bool Presentation::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_window && event->type() == QEvent::LanguageChange && m_active) updateCaption();
    return QObject::eventFilter(watched, event);
}

}  // namespace attnviz::ui
