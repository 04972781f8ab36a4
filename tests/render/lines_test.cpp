// SPDX-License-Identifier: GPL-3.0-or-later
// The lines view (render/lines.h): which lines are drawn and how strong, by hand; the
// layout's columns and hit testing; a vector drawing with one path per line.
#include "render/lines.h"

#include <gtest/gtest.h>

#include <QBuffer>
#include <QGuiApplication>
#include <QSvgGenerator>

#include "render/runtime.h"

using namespace attnviz;
using namespace attnviz::render;

namespace {

SelectedTable table(const Mat& w, std::vector<std::string> q, std::vector<std::string> k,
                    double scaleMax) {
    SelectedTable t;
    t.where = "enc self L0 · head 0";
    t.weights = std::make_shared<const Mat>(w);
    t.queries = std::make_shared<const std::vector<std::string>>(std::move(q));
    t.keys = std::make_shared<const std::vector<std::string>>(std::move(k));
    t.scaleMax = scaleMax;
    return t;
}

Mat example() {
    Mat w(2, 3);
    w << 0.5f, 0.49f, 0.01f,  //
        0.0f, 0.2f, 0.8f;
    return w;
}

}  // namespace

TEST(Lines, StrengthIsWeightOverTheScaleTopAndFaintLinesAreLeftOut) {
    const SelectedTable t = table(example(), {"I", "go"}, {"I", "go", "<eos>"}, 0.8);
    LinesStyle s;
    s.minFraction = 0.05;  // 0.01 / 0.8 and 0 / 0.8 fall below
    const auto d = linesToDraw(t, s);
    ASSERT_EQ(d.size(), 4u);
    // Lightest first: 0.2/0.8, 0.49/0.8, 0.5/0.8, 0.8/0.8.
    EXPECT_EQ(d[0].query, 1);
    EXPECT_EQ(d[0].key, 1);
    EXPECT_NEAR(d[0].strength, 0.25, 1e-6);
    EXPECT_NEAR(d[1].strength, 0.6125, 1e-6);
    EXPECT_NEAR(d[2].strength, 0.625, 1e-6);
    EXPECT_EQ(d[3].query, 1);
    EXPECT_EQ(d[3].key, 2);
    EXPECT_NEAR(d[3].strength, 1.0, 1e-6);
    // A focused query keeps only its lines; a focused key only the lines into it.
    s.focusQuery = 0;
    for (const auto& x : linesToDraw(t, s)) EXPECT_EQ(x.query, 0);
    EXPECT_EQ(linesToDraw(t, s).size(), 2u);
    s.focusQuery = -1;
    s.focusKey = 1;
    const auto k = linesToDraw(t, s);
    ASSERT_EQ(k.size(), 2u);
    for (const auto& x : k) EXPECT_EQ(x.key, 1);
    // No weights, or nothing above zero: nothing.
    EXPECT_TRUE(
        linesToDraw(table(Mat::Zero(2, 2), {"a", "b"}, {"a", "b"}, 0), LinesStyle{}).empty());
}

TEST(Lines, QueriesLeftKeysRightOneRowPitchAndHits) {
    const SelectedTable t = table(example(), {"I", "go"}, {"I", "go", "<eos>"}, 0.8);
    LinesStyle s;
    const QRectF box(0, 0, 300, 200);
    const LinesLayout l = layoutLines(t, s, box);
    ASSERT_EQ(l.queries.size(), 2u);
    ASSERT_EQ(l.keys.size(), 3u);
    EXPECT_NEAR(l.pitch, (200 - l.title.height()) / 3, 1e-9);  // rows = max(2, 3)
    EXPECT_LT(l.queries[0].right(), l.keys[0].left());
    EXPECT_DOUBLE_EQ(l.lineLeft, l.queries[0].right());
    EXPECT_DOUBLE_EQ(l.lineRight, l.keys[0].left());
    EXPECT_DOUBLE_EQ(l.keys[0].right(), box.right());
    EXPECT_EQ(hitLines(l, l.queries[1].center()).side, 0);
    EXPECT_EQ(hitLines(l, l.queries[1].center()).index, 1);
    EXPECT_EQ(hitLines(l, l.keys[2].center()).side, 1);
    EXPECT_EQ(hitLines(l, l.keys[2].center()).index, 2);
    EXPECT_EQ(hitLines(l, QPointF((l.lineLeft + l.lineRight) / 2, 100)).side, -1);
    // Many tokens in the same box: smaller labels, never below 3 points.
    std::vector<std::string> many(60, "word");
    const LinesLayout dense =
        layoutLines(table(Mat::Constant(60, 60, 1.f / 60), many, many, 0), s, box);
    EXPECT_LT(dense.fontSize, l.fontSize);
    EXPECT_GE(dense.fontSize, 3.0);
}

TEST(Lines, AVectorDrawingHasOnePathPerLineAndEveryLabelAsText) {
    const SelectedTable t = table(example(), {"I", "go"}, {"yo", "voy", "<eos>"}, 0.8);
    LinesStyle s;
    s.minFraction = 0.05;
    QBuffer buf;
    buf.open(QIODevice::WriteOnly);
    QSvgGenerator svg;
    svg.setOutputDevice(&buf);
    svg.setViewBox(QRectF(0, 0, 300, 200));
    {
        QPainter p(&svg);
        paintLines(p, t, s, QRectF(0, 0, 300, 200));
    }
    const QString text = QString::fromUtf8(buf.data());
    EXPECT_EQ(text.count("<path"), 4);
    for (const char* label : {">I<", ">go<", ">yo<", ">voy<", "&lt;eos&gt;"})
        EXPECT_TRUE(text.contains(label)) << label;
}

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", "offscreen");
    ensureRuntimeDirectory();
    QGuiApplication app(argc, argv);
    ::testing::InitGoogleTest(&argc, argv);
    return RUN_ALL_TESTS();
}
