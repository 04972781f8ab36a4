// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QFont>
#include <QObject>
#include <functional>
#include <vector>

class QLabel;
class QMainWindow;
class QShortcut;
class QWidget;

namespace attnviz::ui {

class ColorBar;
class ComparisonGrid;
class WorkspaceModel;
struct ViewState;

// View › Presentation mode (F5; `attnviz --present` starts in it): the comparison for a
// projector. The window goes full screen with its docks, menu bar, status bar, fields and
// view bar hidden; the grid keeps the workspace's columns (the chosen ones), its token labels
// and titles large, under a caption of the sentence, its translation and the query token.
// Left and Right step the query through the tokens; Esc (or F5 again) leaves, and the
// window's state, geometry, docks and label size come back as they were.
class Presentation : public QObject {
    Q_OBJECT
public:
    // What it works on, all the window's: the window itself (full screen, its docks, menu and
    // status bar hidden), its grid (large labels, rows of heads), its workspace (the sentence,
    // the selection) and how the window applies a view (labels, query) everywhere;
    // `chrome`: the fields and view bar, hidden while presenting; `caption`: the label shown
    // above the grid instead (hidden otherwise).
    struct Window {
        QMainWindow* window;
        ComparisonGrid* grid;
        ColorBar* colorBar;  // the shared scale beside the grid, enlarged with the labels
        WorkspaceModel* workspace;
        std::function<void(const ViewState&)> setView;
        QWidget* chrome;
        QLabel* caption;
    };
    explicit Presentation(Window window);
    bool isActive() const { return m_active; }
    void setActive(bool on);
    void toggle() { setActive(!m_active); }
    // The query `delta` tokens on (Right: +1, Left: −1), kept within the shown tables'
    // tokens; from no query, Right starts at the first token and Left at the last.
    void stepQuery(int delta);
    QLabel* caption() const { return m_caption; }
    // The token labels' size while presenting (ViewState::labelPoints) and the factor of the
    // column headers' font.
    static constexpr int kLabelPoints = 14;
    static constexpr double kHeaderScale = 1.6;

signals:
    void activeChanged(bool on);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;  // LanguageChange: the caption

private:
    void enter();
    void leave();
    void updateCaption();
    // The tokens down the shown tables (queries), from the view's selection; empty: none.
    std::vector<std::string> queryTokens() const;

    ViewState view() const;
    QMainWindow* m_window;
    ComparisonGrid* m_grid;
    ColorBar* m_colorBar;
    WorkspaceModel* m_workspace;
    std::function<void(const ViewState&)> m_setView;
    QWidget* m_chrome;
    QLabel* m_caption;
    std::vector<QShortcut*> m_keys;  // Left, Right, Esc: enabled only while presenting
    bool m_active = false;
    // What leaving restores.
    QByteArray m_docks, m_geometry;
    Qt::WindowStates m_state;
    bool m_menuBar = true, m_statusBar = true, m_chromeShown = true;
    int m_labelPoints = 8;
    QFont m_gridFont;
};

}  // namespace attnviz::ui
