// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Image models' attention drawn over the image they saw (issue 28): the S × S input embedded
// as an image (upscaled with nearest neighbour, so no viewer blurs its pixels), one query's
// weights over the patches as a coloured overlay of vector cells (one rectangle per patch in
// SVG and PDF; on the screen and in PNG one image of a pixel per patch, scaled: the same look),
// the patch grid faint, the query patch outlined, the class token's own weight as a small
// swatch. One drawing for files (`attnviz-cli render --image`) and, later, the app's image
// panels: paintImageOverlay draws one panel into any QPainter.
//
//   ImageModelResult m{name, patchGrid(model.config()), model.classNames(),
//                      model.analyzeImage(pixels)};
//   ImageFigure f{{selectImageColumn(m, request)}, style};
//   writeFigure("fig.svg", canvas, imageFigurePainter(f, &error), &error);
#include <QPainter>
#include <memory>
#include <string>
#include <vector>

#include "core/model.h"
#include "core/rollout.h"
#include "core/selection.h"
#include "figure.h"

namespace attnviz::render {

// What one overlay shows: the image and one query's weights over its patches.
struct ImageOverlay {
    int imageSize = 0;            // S
    int channels = 1;             // 1 grayscale, 3 RGB (the model's config "channels")
    std::vector<uint8_t> pixels;  // [S, S, channels] 0 … 255, row-major, a pixel's values
                                  // together: the image the model saw
    PatchGrid grid;               // G × G patches of P pixels (G · P = S)
    ImageQuery query;             // the query patch is outlined
    QueryWeights weights;         // [G²] on the patches, the class token's apart
};

struct OverlayStyle {
    QString colormap = "viridis";  // render/colormaps.h
    Scaling scaling = Scaling::Linear;
    double opacity = 0.6;  // of the coloured cells over the image, 0 … 1
    double scaleMax = 1;   // the weight at the top of the colour map (larger ones clamp)
};

// Draws `o` as a square of side min(box) centred in `box`: the image, the cells, the grid and
// the query's outline (no class token swatch, no text). Returns the square.
QRectF paintImageOverlay(QPainter& p, const QRectF& box, const ImageOverlay& o,
                         const OverlayStyle& s);
// The class token's weight as a swatch of side box.height() at box's left, its value to the
// right ("cls 0.123"): the colour on the same map and scale as the cells.
void paintClassTokenSwatch(QPainter& p, const QRectF& box, double weight, const OverlayStyle& s,
                           const QFont& font);

// One panel: a head, the mean of heads or the rollout, of one model.
struct ImagePanel {
    std::string where;  // from 1: "L2 · head 1", "L2 · mean of 4 heads", "rollout through L1–L2"
    std::string head;   // "0", "mean" or "rollout" (data files)
    int layer = 0;
    std::shared_ptr<const Mat> matrix;  // [N, N] the panel's weights, a row of which is shown
    ImageOverlay overlay;
};
// One model: a column of panels under its name and prediction.
struct ImageColumn {
    std::string title;       // the model's name
    std::string prediction;  // "Ankle boot 87.3 %"
    std::vector<ImagePanel> panels;
};

// The panels' weights as a data file (`attnviz-cli render --image --out F.csv`, the app's
// Export data in image mode): each panel's whole table [N, N] (N = G² + 1 with a class
// token, else G²), a row per query and a column per key, both in position order: "cls" first
// (pool "cls"), then the patches row-major, "r0c0", "r0c1", … "r{G-1}c{G-1}" (core/rollout.h
// positionLabels). The overlay shown is one row of it: the class token's, patch (R, C)'s at
// index R·G + C (+1 after a class token), or with pool "mean" the mean of the patch rows.
// `ext` "csv": core/export.h's long form, a line per cell (model = the column's title, block
// encoder_self, head "0", "mean" or "rollout", query_token and key_token the labels); "npy":
// float32 [panels, N, N] in column and panel order. Error for another `ext`, or an .npy of
// panels of different grids.
std::string imageDataBytes(const std::vector<ImageColumn>& columns, const std::string& ext);

// An image model's analysis of one image, as drawn.
struct ImageModelResult {
    std::string name;
    PatchGrid grid;
    std::vector<std::string> classes;
    ImageAnalysis analysis;
};
struct ImageSelectionRequest {
    int layer = -1;                // the layer shown (rollout: through it); -1: the last
    std::string heads = "all";     // "all", "mean", "rollout" or a list such as "0,2"
    ImageQuery query;              // checked against each model's grid (checkImageQuery)
    Wording wording;
};
// The panels of one model. Error naming the option (layer, head or query) that cannot be.
ImageColumn selectImageColumn(const ImageModelResult& m, const ImageSelectionRequest& q);

struct ImageFigure {
    std::vector<ImageColumn> columns;
    // colormap, scaling, shared (one scale, one colour bar), fonts, title, caption,
    // language; not arrange or lines: models are columns, each model's panels down or
    // wrapped into the block of columns that gives the largest images.
    FigureStyle style;
    double opacity = 0.6;  // of the overlay
};
void paintImageFigure(QPainter& p, const ImageFigure& f, const QRectF& page);
// A painter of the figure; empty, with *error, when it has nothing to draw.
FigurePainter imageFigurePainter(const ImageFigure& f, QString* error);

}  // namespace attnviz::render
