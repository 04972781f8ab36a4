// SPDX-License-Identifier: GPL-3.0-or-later
// Presentation mode (issue 29): F5 takes the window full screen with its docks, menus,
// fields and view bar hidden, large labels and a caption of the sentence and its translation;
// Left and Right step the query through the tokens without bringing a dock forward; Esc
// leaves, and the window, its docks and the label size are as they were.
#include "ui/presentation.h"

#include <gtest/gtest.h>

#include <QAbstractScrollArea>
#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QStatusBar>
#include <QTest>
#include <QToolButton>
#include <map>

#include "tests/ui/wait.h"
#include "ui/color_bar.h"
#include "ui/comparison_grid.h"
#include "ui/heatmap_panel.h"
#include "ui/main_window.h"

using namespace attnviz;
using namespace attnviz::ui;
using attnviz::ui::test::waitUntil;

namespace {

struct DockState {
    bool hidden;
    Qt::DockWidgetArea area;
    bool operator==(const DockState& o) const { return hidden == o.hidden && area == o.area; }
};

std::map<QString, DockState> docks(MainWindow& w) {
    std::map<QString, DockState> out;
    for (QDockWidget* d : w.findChildren<QDockWidget*>())
        out[d->objectName()] = {d->isHidden(), w.dockWidgetArea(d)};
    return out;
}

// The window's key handling as a person's: the key pressed where the focus is.
void press(MainWindow& w, Qt::Key key) {
    QWidget* at = QApplication::focusWidget() ? QApplication::focusWidget() : &w;
    QTest::keyClick(at, key);
}

// The en-es set's dot-product and HC-SA models side by side on `sentence`, analysed.
bool showDotAndHcSa(MainWindow& w, const QString& sentence) {
    if (!w.chooseModelSet("en-es", false)) return false;
    w.applyComparison("dot-hc-sa");
    w.setSentence(sentence);
    w.show();
    w.analyzeNow();
    return waitUntil([&] { return !w.runner()->busy(); }, 60000);
}

}  // namespace

TEST(Presentation, FullScreenCaptionArrowKeysAndEscRestoresTheWindow) {
    MainWindow w;
    ASSERT_TRUE(w.chooseModelSet("toy", false));
    w.applyComparison("dot-hc-sa");
    w.setSentence("I want to go to the station");
    w.resize(1200, 800);
    w.show();
    w.activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(&w));
    w.analyzeNow();
    ASSERT_TRUE(waitUntil([&] { return !w.runner()->busy(); }));
    w.findChild<QDockWidget*>("sentences")->show();  // a dock shown by the user comes back too
    QTest::qWait(20);
    const auto docksBefore = docks(w);
    const Qt::WindowStates stateBefore = w.windowState();
    const int headerBefore = w.grid()->header(0)->height();
    const int labelsBefore = w.view().labelPoints;
    const double colorBarPoints = w.colorBar()->font().pointSizeF();
    const int colorBarWidth = w.colorBar()->width();
    ASSERT_FALSE(w.isFullScreen());

    press(w, Qt::Key_F5);
    ASSERT_TRUE(w.presentation()->isActive());
    EXPECT_TRUE(w.windowState() & Qt::WindowFullScreen);
    for (const auto& [name, state] : docks(w))
        EXPECT_TRUE(state.hidden) << name.toStdString() << " shown while presenting";
    EXPECT_TRUE(w.menuBar()->isHidden());
    EXPECT_TRUE(w.statusBar()->isHidden());
    EXPECT_FALSE(w.sourceEdit()->isVisible());
    EXPECT_EQ(w.grid()->columnCount(), 2);  // the chosen columns, nothing else
    // Where two rows of heads would be small (this view), one head of each model in sight,
    // as large as the view allows: two rows left 125-pixel maps at 1366x768 (issue 29).
    QTest::qWait(50);
    const auto* area = qobject_cast<QAbstractScrollArea*>(w.grid()->parentWidget()->parentWidget());
    ASSERT_NE(area, nullptr);
    const int view = area->viewport()->height(), header = w.grid()->header(0)->height();
    EXPECT_GT(w.grid()->panel(0, 0)->height(), (view - header) / 2 + 20)
        << "panel " << w.grid()->panel(0, 0)->height() << " in a view of " << view;
    EXPECT_LE(w.grid()->panel(0, 0)->height() + header, view + 2);
    EXPECT_EQ(w.view().labelPoints, Presentation::kLabelPoints);
    EXPECT_GT(w.grid()->header(0)->height(), headerBefore * 1.4);
    // The shared scale's colour bar grows with the labels (issue 47: it stayed small).
    EXPECT_GT(w.colorBar()->font().pointSizeF(), colorBarPoints * 1.4);
    EXPECT_GT(w.colorBar()->width(), colorBarWidth * 1.4);
    QLabel* caption = w.presentation()->caption();
    EXPECT_TRUE(caption->isVisible());
    EXPECT_NE(caption->text().indexOf("I want to go to the station"), -1);
    EXPECT_NE(caption->text().indexOf("(dot)"), -1)  // no target: the first model's translation
        << caption->text().toStdString();

    // The arrow keys step the query from the first token, within the tokens.
    ASSERT_EQ(w.view().query, -1);
    const int tokens = int(w.grid()->panel(0, 0)->matrix().rows());
    ASSERT_EQ(tokens, 8);  // 7 words and <eos>
    press(w, Qt::Key_Right);
    EXPECT_EQ(w.view().query, 0);
    press(w, Qt::Key_Right);
    press(w, Qt::Key_Right);
    EXPECT_EQ(w.view().query, 2);
    EXPECT_EQ(w.grid()->panel(1, 0)->query(), 2);  // outlined in every panel
    // Numbered from 1 (as the profile and the tooltips), and which of the two "to"s.
    EXPECT_NE(caption->text().indexOf("Query 3 of 8: “to” (1st)"), -1)
        << caption->text().toStdString();
    press(w, Qt::Key_Right);
    press(w, Qt::Key_Right);
    EXPECT_NE(caption->text().indexOf("Query 5 of 8: “to” (2nd)"), -1)
        << caption->text().toStdString();
    press(w, Qt::Key_Right);
    EXPECT_NE(caption->text().indexOf("Query 6 of 8: “the” ·"), -1)
        << caption->text().toStdString();
    for (int i = 0; i < 4; ++i) press(w, Qt::Key_Left);
    EXPECT_EQ(w.view().query, 1);
    for (int i = 0; i < 20; ++i) press(w, Qt::Key_Right);
    EXPECT_EQ(w.view().query, tokens - 1);
    for (int i = 0; i < 20; ++i) press(w, Qt::Key_Left);
    EXPECT_EQ(w.view().query, 0);
    EXPECT_TRUE(w.findChild<QDockWidget*>("profile")->isHidden()) << "no dock comes forward";

    press(w, Qt::Key_Escape);
    EXPECT_FALSE(w.presentation()->isActive());
    EXPECT_EQ(w.windowState(), stateBefore);
    EXPECT_TRUE(docks(w) == docksBefore) << "the docks must come back as they were";
    EXPECT_EQ(w.colorBar()->font().pointSizeF(), colorBarPoints);
    EXPECT_EQ(w.colorBar()->width(), colorBarWidth);
    EXPECT_FALSE(w.menuBar()->isHidden());
    EXPECT_FALSE(w.statusBar()->isHidden());
    EXPECT_TRUE(w.sourceEdit()->isVisible());
    EXPECT_FALSE(caption->isVisible());
    EXPECT_EQ(w.view().labelPoints, labelsBefore);
    EXPECT_EQ(w.grid()->header(0)->height(), headerBefore);
    // The arrow keys are the window's only while presenting.
    w.grid()->setFocus();
    press(w, Qt::Key_Right);
    EXPECT_EQ(w.view().query, 0);
}

TEST(Presentation, TheMenuActionTogglesItAndALanguageSwitchRewordsTheCaption) {
    MainWindow w;
    ASSERT_TRUE(w.chooseModelSet("toy", false));
    w.applyComparison("dot-hc-sa");
    w.setSentence("the cat sees the dog", "el gato ve al perro");
    w.show();
    w.analyzeNow();
    ASSERT_TRUE(waitUntil([&] { return !w.runner()->busy(); }));
    QAction* present = nullptr;
    for (QAction* a : w.actions())
        if (a->text() == "&Presentation mode") present = a;
    ASSERT_NE(present, nullptr) << "the action must be the window's (its menu bar is hidden)";
    EXPECT_EQ(present->shortcut(), QKeySequence(Qt::Key_F5));
    present->trigger();
    ASSERT_TRUE(w.presentation()->isActive());
    const QString caption = w.presentation()->caption()->text();
    EXPECT_NE(caption.indexOf("el gato ve al perro"), -1) << "the target is the translation";
    EXPECT_NE(caption.indexOf("Esc"), -1);
    w.setLanguage("zh_CN");
    EXPECT_NE(w.presentation()->caption()->text().indexOf("退出"), -1)
        << w.presentation()->caption()->text().toStdString();
    EXPECT_EQ(present->text(), "演示模式(&P)");
    w.setLanguage("en");
    EXPECT_EQ(w.presentation()->caption()->text(), caption);
    present->trigger();
    EXPECT_FALSE(w.presentation()->isActive());
}

// Issue 29: the presentation mode was reachable only through the View menu. A button beside
// Compare starts it, its tooltip naming the shortcut; Esc leaves as from F5.
TEST(Presentation, AButtonBesideCompareStartsItAndNamesItsShortcut) {
    MainWindow w;
    ASSERT_TRUE(w.chooseModelSet("toy", false));
    w.applyComparison("dot-hc-sa");
    w.resize(1200, 800);
    w.show();
    QToolButton* button = w.presentButton();
    ASSERT_NE(button, nullptr);
    EXPECT_TRUE(button->isVisible());
    EXPECT_FALSE(button->text().isEmpty());
    EXPECT_NE(button->toolTip().indexOf("F5"), -1) << button->toolTip().toStdString();
    // In the row of the Models box, beside Compare.
    EXPECT_NEAR(button->mapTo(&w, QPoint(0, 0)).y(), w.compareButton()->mapTo(&w, QPoint(0, 0)).y(),
                4);
    QTest::mouseClick(button, Qt::LeftButton);
    EXPECT_TRUE(w.presentation()->isActive());
    w.presentation()->setActive(false);
    EXPECT_FALSE(w.presentation()->isActive());
    EXPECT_TRUE(button->isVisible());
}

// At 1366 × 768 with two models (dot vs HC-SA, the real English–Spanish set), the first two
// heads of each model are in view whole while presenting (issue 29: head 2 started just
// below the fold); leaving gives the panels their size back.
TEST(Presentation, OneHeadOfEachModelFillsALaptopsViewAndTwoAFullHdOne) {
    MainWindow w;
    ASSERT_TRUE(showDotAndHcSa(w, "I want to go to the station"));
    w.presentation()->setActive(true);
    // Full screen on a screen of this size (the offscreen platform's screen is another size).
    auto present = [&](int width, int height) {
        w.setWindowState(Qt::WindowNoState);
        w.setGeometry(0, 0, width, height);
        QTest::qWait(200);
    };
    auto inView = [&](int c, int r) {
        QWidget* p = w.grid()->panel(c, r);
        QWidget* view = w.grid()->parentWidget();  // the scroll area's viewport
        const QRect box(p->mapTo(view, QPoint(0, 0)), p->size());
        return view->rect().contains(box);
    };
    present(1366, 768);
    ASSERT_EQ(w.grid()->columnCount(), 2);
    ASSERT_GE(w.grid()->rowCount(), 2);
    const int view = w.grid()->parentWidget()->height(), header = w.grid()->header(0)->height();
    for (int c = 0; c < 2; ++c) {
        EXPECT_TRUE(inView(c, 0)) << "model " << c;
        // One row: the panel has the view's height, not half of it.
        EXPECT_GT(w.grid()->panel(c, 0)->height(), (view - header) * 8 / 10)
            << "model " << c << ": panel " << w.grid()->panel(c, 0)->height() << ", view " << view;
        const QRect map = w.grid()->panel(c, 0)->plot()->axisRect()->rect();
        EXPECT_GE(map.height(), 300) << "model " << c;  // it was 125 with two rows
    }
    const int presented = w.grid()->panel(0, 0)->height();
    present(1920, 1080);  // room for two heads of each model
    for (int c = 0; c < 2; ++c)
        for (int r = 0; r < 2; ++r) EXPECT_TRUE(inView(c, r)) << "model " << c << " head " << r + 1;
    w.presentation()->setActive(false);
    w.resize(1366, 768);
    QTest::qWait(200);
    EXPECT_NE(w.grid()->panel(0, 0)->height(), presented);
}

// PgDn/Down and PgUp/Up step a whole row of heads at a time (issue 47): each press puts the
// next row just under the pinned headers, uncut, never a part of one; they stop at the ends.
TEST(Presentation, PageDownStepsByWholeRowsOfHeads) {
    MainWindow w;
    ASSERT_TRUE(showDotAndHcSa(w, "I want to go to the station"));
    w.presentation()->setActive(true);
    w.setWindowState(Qt::WindowNoState);
    w.setGeometry(0, 0, 1366, 768);  // one row of heads in view
    QTest::qWait(200);
    const int rows = w.grid()->rowCount();
    ASSERT_GE(rows, 3);
    QWidget* view = w.grid()->parentWidget();
    const int header = w.grid()->header(0)->height();
    auto rowShown = [&](int r) {  // every panel of row r whole, under the headers
        for (int c = 0; c < w.grid()->columnCount(); ++c) {
            QWidget* p = w.grid()->panel(c, r);
            if (!p) continue;
            const QRect box(p->mapTo(view, QPoint(0, 0)), p->size());
            if (box.top() < header || box.bottom() > view->height()) return false;
        }
        return true;
    };
    ASSERT_TRUE(rowShown(0));
    for (int r = 1; r < rows; ++r) {
        press(w, Qt::Key_PageDown);
        QTest::qWait(50);
        EXPECT_EQ(w.grid()->topRow(), r);
        EXPECT_TRUE(rowShown(r)) << "row " << r;
    }
    press(w, Qt::Key_Down);  // at the end: stays
    EXPECT_EQ(w.grid()->topRow(), rows - 1);
    press(w, Qt::Key_PageUp);
    press(w, Qt::Key_Up);
    QTest::qWait(50);
    EXPECT_EQ(w.grid()->topRow(), rows - 3);
    EXPECT_TRUE(rowShown(rows - 3));
    w.presentation()->setActive(false);
}

// After a longer sentence the row of heads in view stays in view, whole, under the headers
// (issue 47: the grid kept its pixel offset, and the taller maps put it mid-map).
TEST(Grid, ALongerSentenceKeepsTheRowOfHeadsInView) {
    MainWindow w;
    w.resize(1366, 768);
    ASSERT_TRUE(showDotAndHcSa(w, "I want to go"));
    QTest::qWait(100);
    ASSERT_GE(w.grid()->rowCount(), 3);
    w.grid()->scrollToRow(2);
    QTest::qWait(50);
    ASSERT_EQ(w.grid()->topRow(), 2);
    w.setSentence(
        "In the beginning God created the heavens and the earth, and the earth was without form "
        "and void, and darkness was over the face of the deep");
    w.analyzeNow();
    ASSERT_TRUE(waitUntil([&] { return !w.runner()->busy(); }, 60000));
    QTest::qWait(100);
    EXPECT_EQ(w.grid()->topRow(), 2);
    QWidget* view = w.grid()->parentWidget();
    QWidget* p = w.grid()->panel(0, 2);
    ASSERT_NE(p, nullptr);
    const int top = p->mapTo(view, QPoint(0, 0)).y();
    const int header = w.grid()->header(0)->height();
    EXPECT_GE(top, header) << "row 3 is under the headers";
    EXPECT_LE(top, header + 20) << "row 3 starts " << top - header << " px below the headers";
}
