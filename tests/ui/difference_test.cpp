// SPDX-License-Identifier: GPL-3.0-or-later
// The "− column 1" view between models whose heads do not correspond (issue 29): models with
// different head counts are not subtracted head by head; their panels say why.
#include <gtest/gtest.h>

#include "core/workspace.h"
#include "tests/ui/wait.h"
#include "ui/comparison_grid.h"
#include "ui/main_window.h"

using namespace attnviz;
using namespace attnviz::ui;
using test::waitUntil;

TEST(Difference, DifferentHeadCountsAreSaidNotDrawn) {
    const std::string models = ATTNVIZ_MODELS_DIR;
    MainWindow w;
    w.resize(1366, 768);
    w.show();
    // 4 heads against 1 in cross-attention, top layer (hc-sa-1head: one cross head, there only).
    w.setColumns({loadModelColumn(models + "/01-dot.safetensors"),
                  loadModelColumn(models + "/11-hc-sa-1head.safetensors"),
                  loadModelColumn(models + "/09-hc-sa.safetensors")});
    w.setSentence("the cat sees the dog");
    ASSERT_TRUE(waitUntil([&] { return !w.runner()->busy(); }));
    ViewState v = w.view();
    v.kind = BlockKind::Cross;
    v.layer = 1;
    v.show = TableKind::Difference;
    w.setView(v);
    // Columns: 1head − dot, hc-sa − dot (the base is not a column of its own).
    ASSERT_EQ(w.grid()->columnCount(), 2);
    for (int h = 0; h < w.grid()->rowCount(); ++h) {
        const QString m = w.grid()->panel(0, h)->message();
        EXPECT_TRUE(m.contains("different head counts here (1 and 4)") &&
                    m.contains("do not correspond"))
            << h << ": " << m.toStdString();
    }
    if (const QByteArray dir = qgetenv("ATTNVIZ_GRAB_DIR"); !dir.isEmpty())
        w.grab().save(QString::fromUtf8(dir) + "/difference-head-counts.png");
    // Same head counts: drawn, no message.
    EXPECT_EQ(w.grid()->panel(1, 0)->message(), "");
    EXPECT_GT(w.grid()->panel(1, 0)->matrix().size(), 0);
    // The mean of each model's heads: one map each, subtracted.
    v.meanHeads = true;
    w.setView(v);
    EXPECT_EQ(w.grid()->panel(0, 0)->message(), "");
}
