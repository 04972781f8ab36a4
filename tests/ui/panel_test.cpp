// SPDX-License-Identifier: GPL-3.0-or-later
// The grid's panels through their common face (ui/panel.h), as ComparisonGrid drives them:
// the kind chosen for a view, and every kind taking a table, a title, a query and a message
// and reporting clicks.
#include "ui/panel.h"

#include <gtest/gtest.h>

#include <QSignalSpy>
#include <QTest>
#include <memory>

#include "tests/ui/wait.h"
#include "ui/heatmap_panel.h"
#include "ui/lines_panel.h"

namespace attnviz::ui {
namespace {

// A 3x3 table: query i attends mostly to key i.
SelectedTable table3() {
    SelectedTable t;
    Mat m(3, 3);
    m << 0.8f, 0.1f, 0.1f, 0.1f, 0.8f, 0.1f, 0.1f, 0.1f, 0.8f;
    t.weights = std::make_shared<const Mat>(m);
    const std::vector<std::string> tokens{"a", "b", "c"};
    t.queries = std::make_shared<const std::vector<std::string>>(tokens);
    t.keys = t.queries;
    t.scaleMax = 0.8;
    t.where = "enc self L0 · head 0";
    return t;
}

// Where to click to select query row `row` on a panel of this kind (widget coordinates of
// the widget that takes the mouse).
std::pair<QWidget*, QPoint> queryPoint(Panel* p, int row) {
    if (auto* h = qobject_cast<HeatmapPanel*>(p)) {
        h->redrawNow();
        QCustomPlot* plot = h->plot();
        return {plot, QPoint(plot->axisRect()->left() - 8, int(plot->yAxis->coordToPixel(row)))};
    }
    auto* l = qobject_cast<LinesPanel*>(p);
    return {l, l->currentLayout().queries[size_t(row)].center().toPoint()};
}

TEST(Panel, TheKindFollowsTheViewAndSignedTablesAreHeatmaps) {
    ViewState v;
    Selection s;
    EXPECT_EQ(panelKindFor(v, s), PanelKind::Heatmap);
    v.lines = true;
    EXPECT_EQ(panelKindFor(v, s), PanelKind::Lines);
    s.diverging = true;  // differences, residuals: a diverging colour scale
    EXPECT_EQ(panelKindFor(v, s), PanelKind::Heatmap);
}

TEST(Panel, EveryKindTakesTablesTitlesQueriesAndMessagesAndReportsClicks) {
    for (PanelKind kind : {PanelKind::Heatmap, PanelKind::Lines}) {
        SCOPED_TRACE(int(kind));
        std::unique_ptr<Panel> p(makePanel(kind, nullptr));
        ASSERT_NE(p, nullptr);
        EXPECT_EQ(p->kind(), kind);
        p->resize(400, 400);
        p->setTitle("dot\nenc self L0 · head 0");
        p->setToolTipTitle("dot · enc self L0 · head 0");
        ViewState v;
        v.shared = false;
        p->setColors(v);
        p->setAlignedRows(3);
        p->setTable(table3());
        p->setQuery(2);
        p->setZoom(1.0);
        p->setLabelPoints(8);
        EXPECT_EQ(p->title(), "dot\nenc self L0 · head 0");
        EXPECT_EQ(p->query(), 2);
        EXPECT_GT(p->minimumSizeHint().height(), 3 * 4);  // room for three token rows
        p->show();
        ASSERT_TRUE(QTest::qWaitForWindowExposed(p.get()));
        p->redrawNow();
        QSignalSpy clicked(p.get(), &Panel::rowClicked);
        const auto [target, at] = queryPoint(p.get(), 1);
        QTest::mouseClick(target, Qt::LeftButton, {}, at);
        ASSERT_EQ(clicked.count(), 1);
        EXPECT_EQ(clicked.front().front().toInt(), 1);
        EXPECT_EQ(p->query(), 2) << "a click is reported; the view outlines the query";
        p->setMessage("no enc self block\nin layer 3");
        p->redrawNow();  // draws the message, not the dropped table
        p->setQuery(-1);
        EXPECT_EQ(p->query(), -1);
    }
}

// Where a panel's title is drawn, in the panel's coordinates: as its kind draws it (the heatmap's
// title element, centred; the lines view's first line, centred and elided).
QRect titleTextRect(Panel* p) {
    if (auto* h = qobject_cast<HeatmapPanel*>(p)) {
        auto* title = qobject_cast<QCPTextElement*>(h->plot()->plotLayout()->element(0, 0));
        const QRect text =
            QFontMetrics(title->font())
                .boundingRect(title->rect(), Qt::AlignCenter | Qt::TextWordWrap, title->text());
        return text.translated(h->plot()->mapTo(h, QPoint(0, 0)));
    }
    const QFontMetrics fm = p->fontMetrics();
    const QString line = fm.elidedText(p->title(), Qt::ElideRight, p->width() - 6);
    return fm.boundingRect(QRect(0, 2, p->width(), 2 * fm.lineSpacing() + 2),
                           Qt::AlignHCenter | Qt::AlignTop, line);
}

// The "updating…" badge never covers the title (issue 47: in a narrow panel it hid the head
// number of "enc self L4 · head 1"), whatever the panel's width and label size (presentation
// enlarges them): it shrinks to a symbol beside the title, and gives way when even that does
// not fit; where there is room it still says "updating…" in full.
TEST(Panel, TheUpdatingBadgeLeavesTheTitleReadable) {
    for (PanelKind kind : {PanelKind::Heatmap, PanelKind::Lines})
        for (int points : {8, 16}) {
            std::unique_ptr<Panel> p(makePanel(kind, nullptr));
            p->setTitle("enc self L4 · head 1");
            p->setTable(table3());
            p->setLabelPoints(points);
            p->resize(400, 300);
            p->show();
            ASSERT_TRUE(QTest::qWaitForWindowExposed(p.get()));
            p->setUpdating("updating…");
            for (int width = 400; width >= 100; width -= 10) {
                SCOPED_TRACE(QString("kind %1, %2 pt, %3 px wide")
                                 .arg(int(kind))
                                 .arg(points)
                                 .arg(width)
                                 .toStdString());
                p->resize(width, 300);
                QTest::qWait(1);  // the cover follows the resize
                p->redrawNow();
                const QRect title = titleTextRect(p.get()), badge = p->updatingBadge();
                ASSERT_FALSE(title.isEmpty());
                EXPECT_FALSE(badge.intersects(title))
                    << "badge " << badge.x() << "," << badge.y() << " " << badge.width() << "x"
                    << badge.height() << ", title " << title.x() << "," << title.y() << " "
                    << title.width() << "x" << title.height();
                if (width == 400 && points == 8) {
                    EXPECT_GT(badge.width(), QFontMetrics(p->font()).horizontalAdvance("upd"))
                        << "room for the whole word, yet a symbol";
                }
            }
        }
}

// Zoom and pan: a heatmap reports its new area and shows another panel's without reporting
// it back; the lines view has no area and ignores one.
TEST(Panel, AreasAreReportedAndShown) {
    HeatmapPanel h;
    h.resize(300, 300);
    h.setTable(table3());
    QSignalSpy moved(&h, &Panel::areaChanged);
    h.plot()->xAxis->setRange(0.5, 1.5);  // as a wheel zoom does
    ASSERT_GE(moved.count(), 1);
    const auto area = moved.back().front().value<TableArea>();
    EXPECT_DOUBLE_EQ(area.keysFrom, 0.5);
    EXPECT_DOUBLE_EQ(area.keysTo, 1.5);
    EXPECT_DOUBLE_EQ(area.queriesFrom, -0.5);
    EXPECT_DOUBLE_EQ(area.queriesTo, 2.5);
    moved.clear();
    h.setArea(TableArea{-0.5, 0.5, 1.5, 2.5});
    EXPECT_EQ(moved.count(), 0);
    EXPECT_DOUBLE_EQ(h.plot()->xAxis->range().upper, 0.5);
    EXPECT_DOUBLE_EQ(h.plot()->yAxis->range().lower, 1.5);
    LinesPanel l;
    l.setTable(table3());
    l.setArea(TableArea{0, 1, 0, 1});
    EXPECT_EQ(l.currentLayout().queries.size(), 3u);
}

// The same numbers, labels and scale again (a model's whole analysis after its first stage,
// then the final results) are not drawn again: each replot clears buffers of the panel's
// size, which at 47 tokens (750 × 775 px) was most of the UI thread's time per edit.
TEST(Panel, TheSameTableAgainIsNotDrawnAgain) {
    HeatmapPanel h;
    h.resize(300, 300);
    h.show();
    int replots = 0;
    QObject::connect(h.plot(), &QCustomPlot::afterReplot, [&] { ++replots; });
    h.setTable(table3());
    ASSERT_TRUE(test::waitUntil([&] { return replots > 0; }));
    QTest::qWait(50);
    const int drawn = replots;
    SelectedTable again = table3();  // new objects, equal contents
    h.setTable(again);
    QTest::qWait(50);
    EXPECT_EQ(replots, drawn);
    EXPECT_EQ(again.weights.use_count(), 2);  // the panel holds the new results' table
    SelectedTable other = table3();           // one value changed: drawn
    Mat m = *other.weights;
    m(0, 0) = 0.7f;
    other.weights = std::make_shared<const Mat>(m);
    h.setTable(other);
    EXPECT_TRUE(test::waitUntil([&] { return replots > drawn; }));
    const int drawnOther = replots;
    SelectedTable relabelled = other;  // the same numbers under other labels: drawn
    relabelled.keys =
        std::make_shared<const std::vector<std::string>>(std::vector<std::string>{"x", "b", "c"});
    h.setTable(relabelled);
    EXPECT_TRUE(test::waitUntil([&] { return replots > drawnOther; }));
    const int drawnLabels = replots;
    SelectedTable rescaled = relabelled;  // another colour scale: drawn
    rescaled.scaleMax = 0.9;
    h.setTable(rescaled);
    EXPECT_TRUE(test::waitUntil([&] { return replots > drawnLabels; }));
    const int drawnScale = replots;
    SelectedTable wider = rescaled;  // another shape (compared by shape first): drawn
    wider.weights = std::make_shared<const Mat>(Mat::Constant(3, 4, 0.25f));
    wider.keys = std::make_shared<const std::vector<std::string>>(
        std::vector<std::string>{"x", "b", "c", "d"});
    h.setTable(wider);
    EXPECT_TRUE(test::waitUntil([&] { return replots > drawnScale; }));
}

}  // namespace
}  // namespace attnviz::ui
