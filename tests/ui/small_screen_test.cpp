// SPDX-License-Identifier: GPL-3.0-or-later
// A laptop's screen and a projector's (issue 29): the column headers stay in sight while the
// grid scrolls down and name the model once (the panels below name block, layer and head);
// the view bar wraps at 1024 pixels instead of cutting its boxes; the tool docks and the
// Problems dock leave the grid most of the height at 1366×768.
#include <gtest/gtest.h>

#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QTest>

#include "tests/ui/wait.h"
#include "ui/comparison_grid.h"
#include "ui/heatmap_panel.h"
#include "ui/main_window.h"
#include "ui/profile_plot.h"
#include "ui/view_controls.h"

using namespace attnviz;
using namespace attnviz::ui;
using attnviz::ui::test::waitUntil;

namespace {

QScrollArea* gridArea(MainWindow& w) {
    return qobject_cast<QScrollArea*>(w.grid()->parentWidget()->parentWidget());
}

void showToy(MainWindow& w, QSize size) {
    ASSERT_TRUE(w.chooseModelSet("toy", false));
    w.setSentence("I want to go to the station");
    w.resize(size);
    w.show();
    w.analyzeNow();
    ASSERT_TRUE(waitUntil([&] { return !w.runner()->busy(); }));
    QTest::qWait(50);
}

}  // namespace

TEST(SmallScreen, HeadersStayInSightAndNameTheModelOnce) {
    MainWindow w;
    showToy(w, QSize(1000, 600));
    QScrollArea* area = gridArea(w);
    ASSERT_NE(area, nullptr);
    ASSERT_EQ(w.grid()->rowCount(), 4);
    for (int c = 0; c < w.grid()->columnCount(); ++c) {
        const QString model = QString::fromStdString(w.columns()[size_t(c)].name);
        EXPECT_NE(w.grid()->header(c)->text().indexOf(model), -1);
        for (int h = 0; h < 4; ++h) {
            EXPECT_EQ(w.grid()->panel(c, h)->title(), QString("enc self L1 · head %1").arg(h + 1));
            // Every token named: no note of thinning.
            EXPECT_EQ(w.grid()->panel(c, h)->labelStep(Qt::Vertical), 1);
            EXPECT_EQ(w.grid()->panel(c, h)->plot()->xAxis->label(), QString());
        }
    }
    QScrollBar* bar = area->verticalScrollBar();
    ASSERT_GT(bar->maximum(), 100) << "the grid must be taller than the view for this test";
    QLabel* header = w.grid()->header(1);
    const int unscrolled = header->y();
    bar->setValue(bar->maximum());
    QTest::qWait(20);
    // At the top of the view, over the panels scrolled under it.
    EXPECT_EQ(header->mapTo(area->viewport(), QPoint(0, 0)).y(), 0);
    EXPECT_TRUE(area->viewport()->rect().contains(
        header->mapTo(area->viewport(), QPoint(header->width() / 2, header->height() - 1))));
    EXPECT_FALSE(header->visibleRegion().isEmpty());
    // A relayout (a wider window) keeps it pinned; scrolled back, it is in its place again.
    w.resize(1100, 600);
    QTest::qWait(50);
    EXPECT_EQ(header->mapTo(area->viewport(), QPoint(0, 0)).y(), 0);
    bar->setValue(0);
    QTest::qWait(20);
    EXPECT_EQ(header->y(), unscrolled);
}

TEST(SmallScreen, TheViewBarWrapsInsteadOfCuttingItsBoxes) {
    ViewControls bar;
    const int oneLine = bar.heightForWidth(3000);
    EXPECT_GT(bar.heightForWidth(600), oneLine * 3 / 2) << "at 600 px it needs two lines";
    EXPECT_LT(bar.minimumSizeHint().width(), 600);
    MainWindow w;
    showToy(w, QSize(1024, 600));
    EXPECT_LE(w.minimumSizeHint().width(), 1024);
    EXPECT_LE(w.width(), 1024);
    const QRect inWindow = w.rect();
    int boxes = 0;
    for (QComboBox* box : w.findChildren<QComboBox*>()) {
        if (!box->isVisible() || !w.centralWidget()->isAncestorOf(box)) continue;  // not docks
        ++boxes;
        // As wide as it asks (never "Encoc"), and whole inside the window.
        EXPECT_GE(box->width(), box->sizeHint().width()) << box->currentText().toStdString();
        // And what it asks holds every choice whole ("Encoder self-attention", not "…-atte").
        for (int i = 0; i < box->count(); ++i)
            EXPECT_GE(box->sizeHint().width(),
                      box->fontMetrics().horizontalAdvance(box->itemText(i)) + 16)
                << box->itemText(i).toStdString();
        const QRect r(box->mapTo(&w, QPoint(0, 0)), box->size());
        EXPECT_TRUE(inWindow.contains(r))
            << box->currentText().toStdString() << " at " << r.x() << "," << r.y() << " "
            << r.width() << "x" << r.height() << " in " << w.width() << "x" << w.height();
    }
    EXPECT_GE(boxes, 5);
}

// On a 1366-pixel laptop screen the view bar is one line (issue 29: "Label size" wrapped
// alone onto a second line); at 1024 it still wraps cleanly (the test above).
TEST(SmallScreen, TheViewBarIsOneLineAt1366) {
    MainWindow w;
    showToy(w, QSize(1366, 768));
    ASSERT_EQ(w.width(), 1366);
    auto* bar = w.findChild<ViewControls*>();
    ASSERT_NE(bar, nullptr);
    const auto groups = bar->findChildren<QWidget*>(QString(), Qt::FindDirectChildrenOnly);
    ASSERT_GE(groups.size(), 5);
    for (QWidget* g : groups) {
        EXPECT_TRUE(g->isVisible());
        EXPECT_LT(std::abs(g->geometry().center().y() - groups.front()->geometry().center().y()),
                  groups.front()->height() / 2)
            << "a second line at x " << g->x();
        EXPECT_LE(g->geometry().right(), bar->width());
    }
    EXPECT_EQ(bar->height(), bar->heightForWidth(3000));
}

TEST(SmallScreen, DocksLeaveTheGridMostOfTheHeight) {
    MainWindow w;
    showToy(w, QSize(1366, 768));
    QScrollArea* area = gridArea(w);
    ASSERT_NE(area, nullptr);
    const int alone = area->height();
    EXPECT_GE(alone, 768 / 2) << "the grid's share at start";
    // Four files that could not be opened: the Problems dock shows them, the grid keeps room.
    w.reportProblems(
        "4 checkpoints could not be opened",
        {"a.safetensors: bad", "b.safetensors: bad", "c.safetensors: bad", "d.safetensors: bad"});
    QTest::qWait(50);
    EXPECT_TRUE(w.problemsDock()->isVisible());
    EXPECT_GE(area->height(), 768 / 3) << "Problems must not squeeze the grid";
    // The first clicked query brings the profile forward, the grid still the larger part.
    w.selectQuery(0, 2);
    QTest::qWait(50);
    EXPECT_FALSE(w.findChild<QDockWidget*>("profile")->visibleRegion().isEmpty());
    EXPECT_GE(area->height(), 768 / 4);
}

// The bottom tools start as a strip on a small screen (the grid keeps the height); a tab of
// numbers or charts that a person chooses grows to a readable height (at 1366 x 768 the Heads
// tab showed its header row only, Offset profiles its title), the grid still the larger part.
TEST(SmallScreen, AChosenHeadsOrOffsetsTabGrowsFromAStrip) {
    MainWindow w;
    showToy(w, QSize(1366, 768));
    QScrollArea* area = gridArea(w);
    ASSERT_NE(area, nullptr);
    auto* variant = w.findChild<QDockWidget*>("variant");
    ASSERT_NE(variant, nullptr);
    // Heads again last: a tab shown tall before, the bottom made a strip since.
    for (const char* name : {"heads", "offsets", "heads"}) {
        auto* dock = w.findChild<QDockWidget*>(name);
        ASSERT_NE(dock, nullptr);
        variant->raise();  // the bottom tabs a strip again (the first time: as they start)
        w.resizeDocks({variant}, {60}, Qt::Vertical);
        ASSERT_TRUE(waitUntil([&] { return variant->height() < 120; })) << variant->height();
        dock->raise();
        EXPECT_TRUE(waitUntil([&] { return dock->height() >= 200; }))
            << name << " " << dock->height() << " px tall";
        EXPECT_GE(area->height(), 768 / 3) << name;
    }
}

// Issue 29: the header says what each block is. Dense cannot do cross-attention (it learns
// a table over positions of one sequence), so its cross-attention is dot-product: "dense
// (cross: dot)"; the random table that is never trained is "fixed random".
TEST(SmallScreen, HeadersNameFixedRandomAndABlockOfAnotherVariant) {
    MainWindow w;
    showToy(w, QSize(1366, 768));
    auto headerOf = [&](const std::string& name) {
        for (int c = 0; c < int(w.columns().size()); ++c)
            if (w.columns()[size_t(c)].name == name) return w.grid()->header(c)->text();
        return QString();
    };
    EXPECT_NE(headerOf("fixed-random").indexOf("<small>fixed random</small>"), -1)
        << headerOf("fixed-random").toStdString();
    EXPECT_NE(headerOf("random").indexOf("<small>random</small>"), -1);
    EXPECT_NE(headerOf("dense").indexOf("<small>dense</small>"), -1);
    w.setBlock(BlockKind::Cross, 0);
    EXPECT_NE(headerOf("dense").indexOf("dense (cross: dot)"), -1)
        << headerOf("dense").toStdString();
    EXPECT_NE(headerOf("dot").indexOf("<small>dot</small>"), -1);
}

// Issue 29: a piece that continues a word is marked, so that "st ·ation" does not read as
// two words; merged words and word-level models are left as they are.
TEST(SmallScreen, PiecesThatContinueAWordAreMarked) {
    MainWindow w;
    ASSERT_TRUE(w.chooseModelSet("en-es", false));
    w.applyComparison("dot-hc-sa");
    w.setSentence("I want to go to the station");
    w.resize(1366, 768);
    w.show();
    w.analyzeNow();
    ASSERT_TRUE(waitUntil([&] { return !w.runner()->busy(); }));
    QTest::qWait(50);
    HeatmapPanel* p = w.grid()->panel(1, 0);
    ASSERT_NE(p, nullptr);
    auto label = [&](QCPAxis* axis, int i) {
        auto t = qSharedPointerDynamicCast<QCPAxisTickerText>(axis->ticker());
        return t ? t->ticks().value(double(i)) : QString();
    };
    ASSERT_EQ(p->matrix().rows(), 9);  // I want to go to the st ation <eos>
    EXPECT_EQ(label(p->plot()->yAxis, 6), "st");
    EXPECT_EQ(label(p->plot()->yAxis, 7), "·ation");
    EXPECT_EQ(label(p->plot()->xAxis, 7), "·ation");
    EXPECT_EQ(label(p->plot()->yAxis, 8), "<eos>");
    EXPECT_NE(p->cellText(7, 6).indexOf("\"·ation\""), -1);
    // The query profile's keys too, the same rule (render/token_labels.h).
    w.selectQuery(1, 4);
    EXPECT_EQ(label(w.profile()->xAxis, 7), "·ation");
    EXPECT_EQ(label(w.profile()->xAxis, 6), "st");
    ViewState v = w.view();
    v.mergeWords = true;  // words: nothing to mark
    w.setView(v);
    p = w.grid()->panel(1, 0);
    ASSERT_NE(p, nullptr);
    for (int i = 0; i < p->matrix().rows(); ++i)
        EXPECT_FALSE(label(p->plot()->yAxis, i).startsWith("·")) << i;
}

// Issue 29 (a newcomer at 1366×768): a clicked query's profile below the grid took 200 px of
// its height and left one row of heads whole; on a small screen it opens beside the grid,
// which keeps its height.
TEST(SmallScreen, TheQueryProfileOpensBesideTheGridKeepingItsHeight) {
    MainWindow w;
    showToy(w, QSize(1366, 768));
    QScrollArea* area = gridArea(w);
    ASSERT_NE(area, nullptr);
    auto* profile = w.findChild<QDockWidget*>("profile");
    ASSERT_NE(profile, nullptr);
    EXPECT_FALSE(profile->isVisible()) << "no room taken before a query is clicked";
    const int alone = area->height();
    auto* bar = w.findChild<ViewControls*>();
    const int barAlone = bar->height();  // one line at 1366 (TheViewBarIsOneLineAt1366)
    w.selectQuery(0, 2);
    QTest::qWait(50);
    EXPECT_TRUE(profile->isVisible());
    EXPECT_FALSE(profile->visibleRegion().isEmpty());
    EXPECT_EQ(w.dockWidgetArea(profile), Qt::RightDockWidgetArea);
    // The profile takes none of the grid's height; the view bar, narrower beside the dock,
    // may take a second line, and only that.
    EXPECT_GE(area->height(), alone - 2 - (bar->height() - barAlone))
        << "the grid keeps its height";
    EXPECT_GE(profile->width(), 280);
    EXPECT_GE(profile->height(), 768 / 2) << "room for the plot and its legend";
    EXPECT_GE(area->width(), 1366 / 2);
    EXPECT_LE(w.width(), 1366);
    // Its title is broken into lines to fit, whole (one line would widen the dock).
    EXPECT_NE(w.profile()->caption().indexOf("Query 3 \"to\" (1st) · enc self L1"), -1)
        << w.profile()->caption().toStdString();
    EXPECT_LE(static_cast<QWidget*>(w.profile())->minimumSizeHint().width(), profile->width());
}

// At 1024×600 too the profile opens without widening the window past the screen.
TEST(SmallScreen, TheQueryProfileNeverWidensANetbooksWindow) {
    MainWindow w;
    showToy(w, QSize(1024, 600));
    QScrollArea* area = gridArea(w);
    ASSERT_NE(area, nullptr);
    const int alone = area->height();
    w.selectQuery(0, 4);
    QTest::qWait(50);
    auto* profile = w.findChild<QDockWidget*>("profile");
    EXPECT_FALSE(profile->visibleRegion().isEmpty());
    EXPECT_LE(w.width(), 1024);
    EXPECT_LE(w.minimumSizeHint().width(), 1024);
    EXPECT_GE(profile->width(), MainWindow::kMinProfileWidth - 10);
    // Beside the grid here too (the hidden image view's width does not count); the fields and
    // the view bar, narrower, may take another line.
    EXPECT_EQ(w.dockWidgetArea(profile), Qt::RightDockWidgetArea);
    EXPECT_GE(area->height(), alone * 8 / 10);
}

// Issue 29: after Compare › dot vs HC-SA (two models, four heads each) the maps were 125 px
// squares in 620 px wide panels: several rows of few columns fill the column's width, each
// panel at most as tall as the view, maps square.
TEST(SmallScreen, TwoModelsHeadsAreAsLargeAsTheirColumnsAllow) {
    MainWindow w;
    ASSERT_TRUE(w.chooseModelSet("en-es", false));
    w.applyComparison("dot-hc-sa");
    w.setSentence("I want to go to the station");
    w.resize(1366, 768);
    w.show();
    w.analyzeNow();
    ASSERT_TRUE(waitUntil([&] { return !w.runner()->busy(); }));
    QTest::qWait(100);
    QScrollArea* area = gridArea(w);
    ASSERT_EQ(w.grid()->columnCount(), 2);
    ASSERT_EQ(w.grid()->rowCount(), 4);
    const int view = area->viewport()->height();
    for (int c = 0; c < 2; ++c) {
        HeatmapPanel* p = w.grid()->panel(c, 0);
        ASSERT_NE(p, nullptr);
        const QRect map = p->plot()->axisRect()->rect();
        // Square cells (within one pixel per token), and a large map: its side limited by the
        // view's height (a panel is whole in the view) or the column's width.
        const double cellW = double(map.width()) / p->matrix().cols();
        const double cellH = double(map.height()) / p->matrix().rows();
        EXPECT_NEAR(cellW, cellH, 1.0) << c;
        EXPECT_GE(map.height(), view / 2)
            << c << ": map " << map.width() << "x" << map.height() << " in a " << p->width() << "x"
            << p->height() << " panel, view " << view;
        EXPECT_LE(p->height() + w.grid()->header(c)->height(), view + 2) << c;
    }
    // Many columns keep their readable minimum (the columns scroll sideways, as before).
    w.applyComparison("all");
    w.analyzeNow();
    ASSERT_TRUE(waitUntil([&] { return !w.runner()->busy(); }));
    QTest::qWait(50);
    ASSERT_GT(w.grid()->columnCount(), 8);
    EXPECT_LT(w.grid()->panel(0, 0)->height(), view / 2);
}

// The window at its first start on a screen smaller than its default size with a frame (the
// test platform's 800 × 600): maximised, so that a window manager's title bar does not push
// its bottom off the screen; at a later start where it was at the last quit.
TEST(SmallScreen, TheFirstStartIsMaximisedAndALaterOneWhereTheWindowWas) {
    QSettings().remove("geometry");
    {
        MainWindow w;
        w.placeOnScreen();
        EXPECT_TRUE(w.windowState() & Qt::WindowMaximized);
    }
    {
        MainWindow w;
        w.setWindowState(Qt::WindowNoState);
        w.setGeometry(40, 50, 640, 480);
        w.show();
        QTest::qWait(20);
        QSettings().setValue("geometry", w.saveGeometry());
    }
    MainWindow again;
    again.placeOnScreen();
    EXPECT_FALSE(again.windowState() & Qt::WindowMaximized);
    EXPECT_EQ(again.size(), QSize(640, 480));
    QSettings().remove("geometry");
}
