// SPDX-License-Identifier: GPL-3.0-or-later
// Figures as files (render/figure_file.h, render/figure.h): a PNG has exactly the pixels
// asked for, labels are in the file at the size asked (measured in the written SVG and PDF as
// a reader draws them, not taken from the request), and a slide is filled.
#include "render/figure_file.h"

#include <gtest/gtest.h>

#include <QFile>
#include <QImage>
#include <cstdio>

#include "tests/render/figure_measure.h"

using namespace attnviz;
using namespace attnviz::render;

namespace {

const std::vector<std::string> kTokens{"i", "want", "to", "go", "to", "the", "station", "<eos>"};

// M models of R heads, each a table of kTokens with weights that vary (no two cells alike).
Selection selection(int models, int heads) {
    Selection s;
    const auto tokens = std::make_shared<const std::vector<std::string>>(kTokens);
    const int n = int(kTokens.size());
    for (int c = 0; c < models; ++c) {
        SelectedColumn col;
        col.result = c;
        col.title = "model " + std::to_string(c);
        for (int h = 0; h < heads; ++h) {
            SelectedTable t;
            t.where = "enc self L0 · head " + std::to_string(h);
            Mat w(n, n);
            for (int i = 0; i < n; ++i)
                for (int j = 0; j < n; ++j)
                    w(i, j) = float(0.05 + 0.9 * ((i * 7 + j * 3 + h) % 11) / 10.0);
            t.weights = std::make_shared<const Mat>(w);
            t.queries = tokens;
            t.keys = tokens;
            t.scaleMax = 0.95;
            col.tables.push_back(t);
        }
        s.columns.push_back(col);
    }
    s.rows = heads;
    s.maxWeight = 0.95;
    return s;
}

QString tmp(const QString& name) {
    return QString::fromStdString(::testing::TempDir()) + name;
}

QByteArray contents(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

FigurePainter painter(const Selection& s, const FigureStyle& style) {
    QString error;
    auto paint = gridPainter(s, style, &error);
    EXPECT_TRUE(paint) << error.toStdString();
    return paint;
}

bool isToken(const QString& text) {
    for (const auto& t : kTokens)
        if (text == QString::fromStdString(t)) return true;
    return false;
}

}  // namespace

TEST(FigureFile, PngHasExactlyThePixelsAsked) {
    const auto paint = painter(selection(2, 1), FigureStyle{});
    QString error;
    for (const QSize px : {QSize(2666, 1500), QSize(1001, 563), QSize(17, 31), QSize(1920, 1080)})
        for (const int dpi : {72, 144, 200, 333}) {
            const FigureCanvas c = canvasForPixels(px, dpi);
            EXPECT_EQ(c.pixels, px);
            EXPECT_NEAR(c.points.width(), px.width() * 72.0 / dpi, 1e-9);
            const QString path = tmp("exact.png");
            ASSERT_TRUE(writeFigure(path, c, paint, &error)) << error.toStdString();
            const QImage img(path);
            EXPECT_EQ(img.size(), px) << dpi;
            EXPECT_NEAR(img.dotsPerMeterX() * 0.0254, dpi, 0.5);
        }
    // A page in points: each side rounded to the nearest pixel, and the canvas says what is
    // written (960 pt at 200 dpi is 2666.67 px).
    FigureCanvas c = canvasForPoints({960, 540}, 200);
    EXPECT_EQ(c.pixels, QSize(2667, 1500));
    ASSERT_TRUE(writeFigure(tmp("slide.png"), c, paint, &error)) << error.toStdString();
    EXPECT_EQ(QImage(tmp("slide.png")).size(), c.pixels);
    EXPECT_EQ(canvasForPoints({720, 540}, 96).pixels, QSize(960, 720));
    // The command line's sizes: "WxH" is exact pixels for a PNG, a named size points.
    ASSERT_TRUE(writeFigure(tmp("cli.png"), QSizeF(2666, 1500), false, 200, paint, &error));
    EXPECT_EQ(QImage(tmp("cli.png")).size(), QSize(2666, 1500));
    ASSERT_TRUE(writeFigure(tmp("cli.png"), QSizeF(720, 540), true, 150, paint, &error));
    EXPECT_EQ(QImage(tmp("cli.png")).size(), QSize(1500, 1125));
    // Too many pixels: refused with the reason, no file.
    QFile::remove(tmp("huge.png"));
    EXPECT_FALSE(writeFigure(tmp("huge.png"), canvasForPoints({960, 540}, 2400), paint, &error));
    EXPECT_NE(error.indexOf("32000 x 18000 px"), -1) << error.toStdString();
    EXPECT_FALSE(QFile::exists(tmp("huge.png")));
}

TEST(FigureFile, NamedSizesIncludeBothSlides) {
    QSizeF s;
    bool named = false;
    ASSERT_TRUE(parseFigureSize("slide", &s, &named, nullptr));
    EXPECT_EQ(s, QSizeF(960, 540));  // 13.33 x 7.5 in
    EXPECT_TRUE(named);
    ASSERT_TRUE(parseFigureSize("slide-4:3", &s, &named, nullptr));
    EXPECT_EQ(s, QSizeF(720, 540));  // 10 x 7.5 in
    ASSERT_TRUE(parseFigureSize("300x200", &s, &named, nullptr));
    EXPECT_FALSE(named);
    QString error;
    EXPECT_FALSE(parseFigureSize("slide-16:10", &s, &named, &error));
    EXPECT_NE(error.indexOf("slide, slide-4:3, column, page or WxH"), -1);
}

// Token labels in the written file at the size asked, as a reader draws them; also when the
// page is crowded (12 models x 4 heads on a slide, where labels used to shrink to 3.1 pt):
// then every k-th token is labelled, and a footnote says so.
TEST(FigureFile, LabelsAreTheSizeAskedInSvgAndPdf) {
    QString error;
    for (const double points : {7.0, 12.0})
        for (const int models : {2, 12}) {
            FigureStyle style;
            style.fontSize = points;
            const Selection sel = selection(models, 4);
            const auto paint = painter(sel, style);
            const FigureCanvas slide = canvasForPoints({960, 540}, 200);
            ASSERT_TRUE(writeFigure(tmp("labels.svg"), slide, paint, &error));
            const auto svg = test::svgTextSizes(contents(tmp("labels.svg")));
            int tokens = 0, glyphs = 0;
            for (const auto& [text, size] : svg)
                if (isToken(text)) {
                    ++tokens;
                    glyphs += int(text.size());
                    EXPECT_NEAR(size, points, 0.01) << text.toStdString();
                }
            const FigureLayout L =
                layoutFigure(Figure{sel, withFont(style)}, QRectF(0, 0, 960, 540));
            const int step = L.labelStep;
            // Every table has the same tokens: query labels once per row of panels, key labels
            // once per column (under its lowest panel).
            const int perAxis = (int(kTokens.size()) + step - 1) / step;
            int expected = 0, rowsLabelled = 0, columnsLabelled = 0;
            for (const PanelPlace& pl : L.panels) {
                expected += perAxis * (int(pl.queryLabels) + int(pl.keyLabels));
                rowsLabelled += pl.queryLabels;
                columnsLabelled += pl.keyLabels;
            }
            EXPECT_EQ(tokens, expected) << points << " pt, " << models << " models";
            EXPECT_LT(rowsLabelled, models * 4);
            EXPECT_LT(columnsLabelled, models * 4);
            bool footnote = false;
            for (const auto& [text, size] : svg) footnote |= text.contains("one in every");
            EXPECT_EQ(footnote, step > 1);
            if (models == 2 && points == 7) {
                EXPECT_EQ(step, 1);  // a lecture slide: every token
            }
            if (models == 12 && points == 12) {  // at 7 pt, shared labels leave room for all
                EXPECT_GT(step, 1);
            }
            // The PDF (Qt shows a glyph at a time): at least as many glyphs of exactly that
            // size as the labels have characters (panel titles may add some).
            ASSERT_TRUE(writeFigure(tmp("labels.pdf"), slide, paint, &error));
            int atSize = 0;
            for (double size : test::pdfTextSizes(contents(tmp("labels.pdf"))))
                atSize += std::abs(size - points) < 0.01;
            EXPECT_GE(atSize, glyphs) << points << " pt, " << models << " models";
        }
}

// A slide is filled: the panels with their labels and titles span the page (the bounding box
// in the layout and the ink in the PNG), for 16:9 and 4:3, every head or their mean, with a
// title and a caption of two lines.
TEST(FigureLayout, SlidesAreFilled) {
    for (const QSizeF page : {QSizeF(960, 540), QSizeF(720, 540)})
        for (const int heads : {4, 1}) {
            FigureStyle style;
            style.title = "dot vs HC-SA";
            style.caption = "i want to go to the station\n→ ich möchte zum bahnhof";
            const Figure f{selection(2, heads), withFont(style)};
            const FigureLayout L = layoutFigure(f, QRectF(QPointF(0, 0), page));
            const QString what = QString("%1x%2, %3 heads: content %4x%5")
                                     .arg(page.width())
                                     .arg(page.height())
                                     .arg(heads)
                                     .arg(L.content.width())
                                     .arg(L.content.height());
            EXPECT_GT(L.content.width(), 0.80 * page.width()) << what.toStdString();
            // From the title down to the panels' labels.
            EXPECT_GT(L.content.bottom() - L.title.top(), 0.85 * page.height())
                << what.toStdString();
            // The ink of the written PNG, measured: its bounding box and how much is not white.
            QString error;
            ASSERT_TRUE(writeFigure(tmp("fill.png"), canvasForPoints(page, 72),
                                    painter(f.selection, style), &error));
            const QImage img = QImage(tmp("fill.png")).convertToFormat(QImage::Format_RGB32);
            QRect ink;
            qint64 inked = 0;
            for (int y = 0; y < img.height(); ++y)
                for (int x = 0; x < img.width(); ++x)
                    if (img.pixel(x, y) != qRgb(255, 255, 255)) {
                        ink = ink.united(QRect(x, y, 1, 1));
                        ++inked;
                    }
            // Square cells: 16:9 is filled both ways (over 85 %); on 4:3 the two models' 4 x 2
            // or 2 x 1 panels are limited by the width, and about 16 % of the height stays
            // blank, shared above and below.
            EXPECT_GT(ink.width(), 0.85 * img.width()) << what.toStdString();
            EXPECT_GT(ink.height(), (page.width() > 800 ? 0.85 : 0.8) * img.height())
                << what.toStdString();
            EXPECT_GT(double(inked) / (img.width() * img.height()), 0.35) << what.toStdString();
        }
}

namespace {

// The share of a PNG's pixels that are the page's white (tools/blank-fraction's measure).
double blankFraction(const QImage& img) {
    qint64 blank = 0;
    for (int y = 0; y < img.height(); ++y)
        for (int x = 0; x < img.width(); ++x) blank += img.pixel(x, y) == qRgb(255, 255, 255);
    return double(blank) / (double(img.width()) * img.height());
}

}  // namespace

// A 16:9 slide of four models' four heads at 12-pt labels, as the app exports it (issue 29:
// about two-thirds blank, the block of panels bound by the slide's width with blank bands
// above and below). Its cells grow taller to use the height (at most kMaxCellStretch times
// their width); well under two-thirds of the pixels stay blank. Two models on the slide were
// filled already and keep square cells.
TEST(FigureLayout, AFourModelSlideUsesItsArea) {
    FigureStyle style;
    style.fontSize = 12;
    style.caption = "i want to go to the station";
    const FigureCanvas canvas = canvasForPixels(QSize(1920, 1080), 144);
    const QRectF slide(0, 0, 960, 540);
    const Figure four{selection(4, 4), withFont(style)};
    const FigureLayout L = layoutFigure(four, slide);
    ASSERT_EQ(L.panels.size(), 16u);
    for (const PanelPlace& p : L.panels) {
        EXPECT_GT(p.cellH, p.cell * 1.2) << p.column << " " << p.row;
        EXPECT_LE(p.cellH, p.cell * kMaxCellStretch + 1e-9);
        EXPECT_TRUE(slide.contains(p.box));
    }
    EXPECT_GT(L.content.height(), slide.height() * 0.7);
    QString error;
    ASSERT_TRUE(writeFigure(tmp("four.png"), canvas, painter(four.selection, four.style), &error));
    const double blank =
        blankFraction(QImage(tmp("four.png")).convertToFormat(QImage::Format_RGB32));
    std::printf("4 models, 16:9 at 12 pt: %.1f %% blank\n", 100 * blank);
    EXPECT_LT(blank, 0.6);  // 70 % before (square cells), 54 % with them 1.6 times as tall
    const FigureLayout two = layoutFigure(Figure{selection(2, 4), withFont(style)}, slide);
    for (const PanelPlace& p : two.panels) EXPECT_DOUBLE_EQ(p.cellH, p.cell);
}

// The selected query row is outlined in every panel of a figure, as on screen: the outline's
// colour on the row's edges, inside its cells none; no outline without a selected query.
TEST(Figure, TheSelectedQueryRowIsOutlinedInEveryPanel) {
    FigureStyle style;
    style.query = 3;
    const Figure f{selection(2, 2), withFont(style)};
    const FigureCanvas canvas = canvasForPoints(QSizeF(960, 540), 72);  // a pixel a point
    QString error;
    ASSERT_TRUE(writeFigure(tmp("query.png"), canvas, painter(f.selection, f.style), &error));
    const QImage img = QImage(tmp("query.png")).convertToFormat(QImage::Format_RGB32);
    auto outline = [](QRgb c) {
        return qRed(c) > 200 && qGreen(c) < 110 && qBlue(c) < 100;  // #ff3b30, antialiased
    };
    const FigureLayout L = layoutFigure(f, QRectF(0, 0, 960, 540));
    ASSERT_EQ(L.panels.size(), 4u);
    for (const PanelPlace& p : L.panels) {
        ASSERT_GT(p.cell, 8);
        const double top = p.origin.y() + 3 * p.cellH, bottom = top + p.cellH;
        int edge = 0;
        for (int j = 0; j < int(kTokens.size()); ++j) {
            const int x = int(p.origin.x() + (j + 0.5) * p.cell);
            edge += outline(img.pixel(x, int(top + 0.5))) && outline(img.pixel(x, int(bottom - 1)));
            EXPECT_FALSE(outline(img.pixel(x, int(top + p.cellH / 2))));  // the cell itself
        }
        EXPECT_EQ(edge, int(kTokens.size())) << "panel " << p.column << " " << p.row;
        EXPECT_TRUE(outline(img.pixel(int(p.origin.x() + 0.5), int(top + p.cellH / 2))));
    }
    style.query = -1;
    ASSERT_TRUE(writeFigure(tmp("noquery.png"), canvas, painter(f.selection, style), &error));
    const QImage none = QImage(tmp("noquery.png")).convertToFormat(QImage::Format_RGB32);
    int red = 0;
    for (int y = 0; y < none.height(); ++y)
        for (int x = 0; x < none.width(); ++x) red += outline(none.pixel(x, y));
    EXPECT_EQ(red, 0);
}
