// SPDX-License-Identifier: GPL-3.0-or-later
// Figure layout (render/figure.h): models go in columns, heads down, as in the app's grid,
// unless the figure asks for rows or for the largest panels.
#include "render/figure.h"

#include <gtest/gtest.h>

using namespace attnviz;
using namespace attnviz::render;

namespace {

// M models of R heads, each a 5x5 table.
Selection selection(int models, int heads) {
    Selection s;
    const auto tokens = std::make_shared<const std::vector<std::string>>(
        std::vector<std::string>{"I", "want", "to", "go", "<eos>"});
    for (int c = 0; c < models; ++c) {
        SelectedColumn col;
        col.result = c;
        col.title = "model " + std::to_string(c);
        for (int h = 0; h < heads; ++h) {
            SelectedTable t;
            t.where = "enc self L0 · head " + std::to_string(h);
            t.weights = std::make_shared<const Mat>(Mat::Constant(5, 5, 0.2f));
            t.queries = tokens;
            t.keys = tokens;
            t.scaleMax = 0.2;
            col.tables.push_back(t);
        }
        s.columns.push_back(col);
    }
    s.rows = heads;
    s.maxWeight = 0.2;
    return s;
}

const PanelPlace& at(const FigureLayout& L, int column, int row) {
    for (const auto& p : L.panels)
        if (p.column == column && p.row == row) return p;
    throw std::runtime_error("no panel");
}

}  // namespace

TEST(FigureLayout, ModelsSideBySideAsOnScreenUnlessAskedOtherwise) {
    Figure f{selection(2, 4), FigureStyle{}};
    // A portrait page: one column per model, heads down, titles above.
    FigureLayout L = layoutFigure(f, QRectF(0, 0, 360, 720));
    ASSERT_EQ(L.panels.size(), 8u);
    EXPECT_TRUE(L.columnTitles);
    EXPECT_EQ(L.columnSpan, 1);
    EXPECT_GT(at(L, 1, 0).box.left(), at(L, 0, 0).box.right() - 1);
    EXPECT_DOUBLE_EQ(at(L, 1, 0).box.top(), at(L, 0, 0).box.top());
    for (int r = 1; r < 4; ++r) {
        EXPECT_GT(at(L, 0, r).box.top(), at(L, 0, r - 1).box.bottom() - 1);
        EXPECT_DOUBLE_EQ(at(L, 0, r).box.left(), at(L, 0, 0).box.left());
    }
    // A 16:9 slide: each model's heads in a 2x2 block under its title, models still side by
    // side (every panel of model 1 right of every panel of model 0), larger panels.
    const QRectF slide(0, 0, 960, 540);
    L = layoutFigure(f, slide);
    EXPECT_TRUE(L.columnTitles);
    EXPECT_EQ(L.columnSpan, 2);
    for (int r = 0; r < 4; ++r)
        for (int r2 = 0; r2 < 4; ++r2)
            EXPECT_GT(at(L, 1, r).box.left(), at(L, 0, r2).box.right() - 1);
    EXPECT_GT(at(L, 0, 1).box.left(), at(L, 0, 0).box.right() - 1);  // head 1 beside head 0
    EXPECT_GT(at(L, 0, 2).box.top(), at(L, 0, 0).box.bottom() - 1);  // head 2 below
    const double blocks = at(L, 0, 0).cell;
    f.style.arrange = FigureStyle::Arrange::Rows;  // the transpose: a row per model
    L = layoutFigure(f, slide);
    EXPECT_FALSE(L.columnTitles);
    EXPECT_GT(at(L, 1, 0).box.top(), at(L, 0, 0).box.bottom() - 1);
    EXPECT_GT(at(L, 0, 1).box.left(), at(L, 0, 0).box.right() - 1);
    EXPECT_LT(at(L, 0, 0).cell, blocks * 1.15);  // no better here
    // A single row of panels (three models' mean) wraps to fit a tall strip.
    f = Figure{selection(3, 1), FigureStyle{}};
    L = layoutFigure(f, QRectF(0, 0, 200, 700));
    EXPECT_GT(at(L, 1, 0).box.top(), at(L, 0, 0).box.bottom() - 1);  // models down a tall page
}

TEST(FigureLayout, ManyModelsWrapIntoBandsThatFillTheSlideAtTheLabelSizeAsked) {
    // Twelve models of four heads on a 4:3 slide at 7 pt: in one band each column is 60 pt
    // wide, too narrow for cells beside 7-pt labels; wrapped into bands of models, each band
    // under its own column titles, every panel has cells, at the size asked.
    Figure f{selection(12, 4), FigureStyle{}};
    const QRectF slide(0, 0, 720, 540);
    const FigureLayout L = layoutFigure(f, slide);
    ASSERT_EQ(L.panels.size(), 48u);
    EXPECT_TRUE(L.columnTitles);
    for (const PanelPlace& p : L.panels) {
        EXPECT_GT(p.cell, 0) << "model " << p.column << " head " << p.row;
        EXPECT_EQ(p.labelFont, 7);
        EXPECT_TRUE(slide.contains(p.box)) << "model " << p.column;
    }
    // Models of one band side by side; a later band's first model below every panel of the
    // first band's, under its own title (the column title's height between them).
    const PanelPlace& firstOfBand2 = [&]() -> const PanelPlace& {
        for (const auto& p : L.panels)
            if (p.row == 0 && p.box.left() == at(L, 0, 0).box.left() && p.column > 0) return p;
        throw std::runtime_error("no second band");
    }();
    for (int r = 0; r < 4; ++r)
        EXPECT_GE(firstOfBand2.box.top(), at(L, 0, r).box.bottom() + L.columnTitleHeight - 1e-6);
    EXPECT_DOUBLE_EQ(at(L, 1, 0).box.top(), at(L, 0, 0).box.top());
    // The panels' block fills most of the page's height (one band left 70 % blank rows).
    EXPECT_GT(L.content.height(), slide.height() * 0.75);
    // A 16:9 slide of two models keeps them side by side in one band.
    const FigureLayout two = layoutFigure(Figure{selection(2, 4), FigureStyle{}}, {0, 0, 960, 540});
    EXPECT_DOUBLE_EQ(at(two, 1, 0).box.top(), at(two, 0, 0).box.top());
}

// Every table with the same tokens (one sentence, one tokenizer): query labels once per row
// of panels, left of its first panel, key labels once per column under its lowest panel; the
// room goes to the cells (issue 29: 2- and 4-model slides were a quarter to a half blank).
// Tables with other tokens keep their own labels.
TEST(FigureLayout, SharedTokenLabelsOncePerRowAndColumnGiveLargerCells) {
    const QRectF slide(0, 0, 960, 540);
    for (const int models : {2, 4}) {
        const Figure f{selection(models, 4), FigureStyle{}};
        const FigureLayout L = layoutFigure(f, slide);
        double firstLeft = 1e9, lowest = 0;
        for (const PanelPlace& p : L.panels) {
            firstLeft = std::min(firstLeft, p.box.left());
            lowest = std::max(lowest, p.box.bottom());
        }
        int queryRows = 0;
        for (const PanelPlace& p : L.panels) {
            EXPECT_EQ(p.queryLabels, p.box.left() == firstLeft) << p.column << " " << p.row;
            EXPECT_EQ(p.keyLabels, p.box.bottom() == lowest) << p.column << " " << p.row;
            queryRows += p.queryLabels;
            EXPECT_TRUE(slide.contains(p.box));
        }
        EXPECT_GT(queryRows, 0);
        // The same selection with a different query token in one table: every panel has its
        // query labels (the keys stay shared), and the cells are smaller.
        Selection other = f.selection;
        auto tokens = *other.columns[0].tables[0].queries;
        tokens[0] = "You";
        other.columns[0].tables[0].queries =
            std::make_shared<const std::vector<std::string>>(tokens);
        const FigureLayout own = layoutFigure(Figure{other, FigureStyle{}}, slide);
        for (const PanelPlace& p : own.panels) EXPECT_TRUE(p.queryLabels);
        // (Four models: the arrangement as on screen is kept, a grid of 4 x 4, where the other
        // labels lead to 8 x 2; its cells are as large, within the 10 % the choice allows.)
        EXPECT_GT(L.panels[0].cell, own.panels[0].cell * (models == 2 ? 1.05 : 0.9))
            << models << " models";
    }
}
