// SPDX-License-Identifier: GPL-3.0-or-later
// Image overlays (render/image_figure.h): the pixels under a cell are the colour map's colour
// blended over the image at the opacity asked, the image upscaled with nearest neighbour;
// the panels of a model are chosen by layer, head and query, with errors for the impossible.
#include "render/image_figure.h"

#include <gtest/gtest.h>

#include <QImage>
#include <QPaintEngine>
#include <QPicture>
#include <algorithm>
#include <cstdlib>
#include <tuple>

#include "core/attention/block.h"
#include "core/error.h"
#include "render/colormaps.h"

using namespace attnviz;
using namespace attnviz::render;

namespace {

// A 4 × 4 image of 2 × 2 patches of 2 pixels; pixel (y, x) = 16·(4y + x).
ImageOverlay overlay(std::vector<double> patches, ImageQuery q = {}) {
    ImageOverlay o;
    o.imageSize = 4;
    for (int i = 0; i < 16; ++i) o.pixels.push_back(uint8_t(16 * i));
    o.grid = {2, 2, false};
    o.query = q;
    o.weights.patches = std::move(patches);
    return o;
}

// The overlay drawn into a 40 × 40 image (10 pixels per image pixel).
QImage draw(const ImageOverlay& o, double opacity, bool outline = true) {
    QImage img(40, 40, QImage::Format_RGB32);
    img.fill(Qt::red);
    QPainter p(&img);
    OverlayStyle s;
    s.opacity = opacity;
    s.outlineQuery = outline;
    s.scaleMax = 1;
    paintImageOverlay(p, QRectF(0, 0, 40, 40), o, s);
    return img;
}

CapturedBlock block(int layer, int heads, int n) {
    CapturedBlock b;
    b.layer = layer;
    b.heads = heads;
    for (int h = 0; h < heads; ++h) b.weights.push_back(Mat::Constant(n, n, float(h + 1) / n));
    return b;
}

}  // namespace

// Opacity 0: the image itself, each pixel a 10 × 10 block (nearest neighbour, no blur).
// Opacity 1: the map's colour of each patch's weight. Between: the blend.
TEST(ImageFigure, CellsBlendTheMapOverTheImage) {
    const std::vector<double> w = {0.0, 0.25, 0.5, 1.0};
    const QImage bare = draw(overlay(w), 0);
    for (int y = 0; y < 4; ++y)
        for (int x = 0; x < 4; ++x) {
            // Inside the pixel, away from the grid lines at 20.
            const QColor c = bare.pixelColor(x * 10 + 4, y * 10 + 4);
            EXPECT_EQ(c.red(), 16 * (4 * y + x)) << x << "," << y;
            EXPECT_EQ(c, bare.pixelColor(x * 10 + 7, y * 10 + 2));
        }
    const QImage full = draw(overlay(w), 1);
    const ColorMap map = ColorMap::named("viridis");
    for (int t = 0; t < 4; ++t) {
        const int cx = (t % 2) * 20 + 6, cy = (t / 2) * 20 + 6;
        EXPECT_EQ(full.pixelColor(cx, cy).rgb(),
                  cellColor(map, w[size_t(t)], 1, Scaling::Linear).rgb())
            << t;
    }
    const QImage half = draw(overlay(w), 0.5);
    const QColor m = cellColor(map, 1.0, 1, Scaling::Linear), under = bare.pixelColor(36, 36);
    EXPECT_NEAR(half.pixelColor(36, 36).green(), (m.green() + under.green()) / 2.0, 1.5);
}

// The query patch is outlined: its border differs from its centre, other patches' do not.
TEST(ImageFigure, TheQueryPatchIsOutlined) {
    ImageQuery q;
    q.kind = ImageQuery::Kind::Patch;
    q.row = 1;
    q.col = 0;
    const QImage img = draw(overlay({0.5, 0.5, 0.5, 0.5}, q), 1);
    EXPECT_NE(img.pixelColor(1, 30), img.pixelColor(8, 30));    // patch (1, 0): outlined
    EXPECT_EQ(img.pixelColor(21, 30), img.pixelColor(28, 30));  // patch (1, 1): not
    // The outline is a choice (issue 47): without it the query patch looks as the others.
    const QImage plain = draw(overlay({0.5, 0.5, 0.5, 0.5}, q), 1, false);
    EXPECT_EQ(plain.pixelColor(1, 30), plain.pixelColor(8, 30));
}

// Two roads, one picture: on pixels (a QImage, the screen) the cells are one scaled image, in
// vector files rectangles (a QPicture records what an SVG or PDF gets). Played back on pixels,
// the vector drawing is the raster one, pixel for pixel but for the cells' edges (±1 pixel of
// rounding where a cell boundary falls mid-pixel) and the grid lines' width.
TEST(ImageFigure, TheScreenAndTheVectorDrawingLookTheSame) {
    ImageQuery q;
    q.kind = ImageQuery::Kind::Patch;
    q.row = 0;
    q.col = 1;
    const ImageOverlay o = overlay({0.1, 0.9, 0.4, 0.0}, q);
    OverlayStyle s;
    s.opacity = 0.7;
    const QRectF box(3, 5, 53, 53);  // 26.5 pixels per patch: edges mid-pixel
    QImage raster(60, 60, QImage::Format_RGB32), vector(60, 60, QImage::Format_RGB32);
    raster.fill(Qt::white), vector.fill(Qt::white);
    {
        QPainter p(&raster);
        paintImageOverlay(p, box, o, s);
    }
    QPicture picture;
    {
        QPainter p(&picture);
        ASSERT_NE(p.paintEngine()->type(), QPaintEngine::Raster);
        paintImageOverlay(p, box, o, s);
    }
    {
        QPainter p(&vector);
        picture.play(&p);
    }
    int differ = 0;
    for (int y = 0; y < 60; ++y)
        for (int x = 0; x < 60; ++x) {
            const QColor a = raster.pixelColor(x, y), b = vector.pixelColor(x, y);
            const int gap = std::max({std::abs(a.red() - b.red()), std::abs(a.green() - b.green()),
                                      std::abs(a.blue() - b.blue())});
            if (gap > 3) ++differ;
        }
    // Edges: 3 boundaries per direction, 53 pixels long, ±1 pixel each: at most ~8 % of 53².
    EXPECT_LT(differ, 53 * 53 * 8 / 100) << differ;
    // Inside each patch, away from the edges, the same colour to rounding (on pixels the
    // cells are blended in one premultiplied layer, in vector files each cell is filled: one
    // unit of 255 apart at most).
    for (int t = 0; t < 4; ++t) {
        const int x = 3 + (t % 2) * 26 + 8, y = 5 + (t / 2) * 26 + 13;
        const QColor a = raster.pixelColor(x, y), b = vector.pixelColor(x, y);
        EXPECT_LE(std::max({std::abs(a.red() - b.red()), std::abs(a.green() - b.green()),
                            std::abs(a.blue() - b.blue())}),
                  1)
            << t << ": " << a.name().toStdString() << " and " << b.name().toStdString();
    }
}

TEST(ImageFigure, PanelsByLayerHeadAndQuery) {
    ImageModelResult m;
    m.name = "m";
    m.grid = {2, 2, true};  // 5 positions
    m.classes = {"a", "b"};
    m.analysis.pixels.assign(16, 0);
    m.analysis.probabilities = {0.25, 0.75};
    m.analysis.predicted = 1;
    m.analysis.blocks = {block(0, 2, 5), block(1, 2, 5)};
    ImageSelectionRequest q;
    ImageColumn c = selectImageColumn(m, q);
    EXPECT_EQ(c.prediction, "b 75.0 %");
    ASSERT_EQ(c.panels.size(), 2u);
    EXPECT_EQ(c.panels[1].where, "L2 · head 2");  // the last layer by default; from 1
    EXPECT_NEAR(*c.panels[1].overlay.weights.classToken, 2.0 / 5, 1e-6);
    q.heads = "mean";
    q.layer = 0;
    c = selectImageColumn(m, q);
    ASSERT_EQ(c.panels.size(), 1u);
    EXPECT_EQ(c.panels[0].where, "L1 · mean of 2 heads");
    EXPECT_NEAR(c.panels[0].overlay.weights.patches[3], 1.5 / 5, 1e-6);
    q.heads = "rollout";
    q.query = ImageQuery::patch(1, 1);
    c = selectImageColumn(m, q);
    EXPECT_EQ(c.panels[0].head, "rollout");
    EXPECT_EQ(c.panels[0].overlay.weights.query, 4);
    for (const auto& [heads, layer, query] :
         {std::tuple{"2", -1, "pooled"}, std::tuple{"0,x", -1, "pooled"},
          std::tuple{"all", 2, "pooled"}, std::tuple{"all", 0, "2,0"}}) {
        q.heads = heads;
        q.layer = layer;
        q.query = parseImageQuery(query);
        EXPECT_THROW(selectImageColumn(m, q), Error) << heads << " " << layer << " " << query;
    }
}

// A colour model's image (channels 3, [S, S, 3]) is drawn in colour under the cells, on the
// screen and in vector files alike: each pixel is the photo's own RGB (issue 49).
TEST(ImageFigure, AColourImageIsDrawnInColour) {
    ImageOverlay o = overlay({0, 0, 0, 0});
    o.channels = 3;
    o.pixels.clear();
    for (int i = 0; i < 16; ++i)
        for (const int v : {16 * i, 255 - 16 * i, (37 * i) % 256}) o.pixels.push_back(uint8_t(v));
    for (const bool vector : {false, true}) {
        QImage img(40, 40, QImage::Format_RGB32);
        img.fill(Qt::red);
        {
            QPainter p;
            QPicture pic;
            OverlayStyle s;
            s.opacity = 0;
            if (vector) {
                p.begin(&pic);
                paintImageOverlay(p, QRectF(0, 0, 40, 40), o, s);
                p.end();
                QPainter q(&img);
                q.drawPicture(0, 0, pic);
            } else {
                p.begin(&img);
                paintImageOverlay(p, QRectF(0, 0, 40, 40), o, s);
            }
        }
        for (int i = 0; i < 16; ++i) {
            const QColor c = img.pixelColor((i % 4) * 10 + 4, (i / 4) * 10 + 4);
            EXPECT_EQ(c.red(), o.pixels[size_t(3 * i)]) << vector << " " << i;
            EXPECT_EQ(c.green(), o.pixels[size_t(3 * i + 1)]) << vector << " " << i;
            EXPECT_EQ(c.blue(), o.pixels[size_t(3 * i + 2)]) << vector << " " << i;
        }
    }
}

// A colour model's panels carry its image's size and channels: S from the grid, 3 channels
// from its S² · 3 bytes (not √bytes as the side).
TEST(ImageFigure, AColourModelsPanelsKeepItsChannels) {
    ImageModelResult m;
    m.name = "m";
    m.grid = {2, 2, false};
    m.classes = {"a", "b"};
    m.analysis.pixels.assign(48, 7);
    m.analysis.probabilities = {0.25, 0.75};
    m.analysis.predicted = 1;
    m.analysis.blocks = {block(0, 1, 4)};
    const ImageColumn c = selectImageColumn(m, {});
    ASSERT_EQ(c.panels.size(), 1u);
    EXPECT_EQ(c.panels[0].overlay.imageSize, 4);
    EXPECT_EQ(c.panels[0].overlay.channels, 3);
    m.analysis.pixels.assign(16, 7);
    EXPECT_EQ(selectImageColumn(m, {}).panels[0].overlay.channels, 1);
}

// The panels as data: each panel's whole [N, N] table, rows the queries and columns the keys
// in position order ("cls", then the patches row-major), every cell's value; NPY stacks them.
TEST(ImageFigure, DataFilesHoldEachPanelsTable) {
    ImageModelResult m;
    m.name = "m,1";  // quoted in the CSV
    m.grid = {2, 2, true};
    m.classes = {"a", "b"};
    m.analysis.pixels.assign(16, 0);
    m.analysis.probabilities = {0.25, 0.75};
    m.analysis.blocks = {block(0, 2, 5)};
    m.analysis.blocks[0].weights[1](3, 4) = 0.125f;  // query r1c0, key r1c1 of head 1
    const ImageColumn c = selectImageColumn(m, {});
    const std::string csv = imageDataBytes({c}, "csv");
    std::vector<std::string> lines;
    for (size_t at = 0, nl; (nl = csv.find('\n', at)) != std::string::npos; at = nl + 1)
        lines.push_back(csv.substr(at, nl - at));
    ASSERT_EQ(lines.size(), 1u + 2 * 25);  // header, 2 heads × 5 × 5 cells
    EXPECT_EQ(lines[0],
              "model,block,layer,head,query_index,query_token,key_index,key_token,weight");
    EXPECT_EQ(lines[1], "\"m,1\",encoder_self,0,0,0,cls,0,cls,0.200000003");
    EXPECT_EQ(lines[25 + 3 * 5 + 4 + 1], "\"m,1\",encoder_self,0,1,3,r1c0,4,r1c1,0.125");
    const std::string npy = imageDataBytes({c, c}, "npy");
    EXPECT_NE(npy.find("'shape': (4,5,5)"), std::string::npos);
    EXPECT_EQ(npy.size() % 64, (4 * 25 * 4) % 64);  // the header pads the data to 64 bytes
    EXPECT_THROW(imageDataBytes({c}, "json"), Error);
    EXPECT_THROW(imageDataBytes({}, "csv"), Error);
}
