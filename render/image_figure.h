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

#include "core/image_selection.h"
#include "figure.h"

namespace attnviz::render {

// The selection's values (core/image_selection.h), drawn here.
using attnviz::ImageColumn;
using attnviz::imageDataBytes;
using attnviz::ImageModelResult;
using attnviz::ImageOverlay;
using attnviz::ImagePanel;
using attnviz::ImageSelectionRequest;
using attnviz::selectImageColumn;

struct OverlayStyle {
    QString colormap = "viridis";  // render/colormaps.h
    Scaling scaling = Scaling::Linear;
    double opacity = 0.6;      // of the coloured cells over the image, 0 … 1
    double scaleMax = 1;       // the weight at the top of the colour map (larger ones clamp)
    bool outlineQuery = true;  // the query patch framed
};

// Draws `o` as a square of side min(box) centred in `box`: the image, the cells, the grid and
// the query's outline (no class token swatch, no text). Returns the square.
QRectF paintImageOverlay(QPainter& p, const QRectF& box, const ImageOverlay& o,
                         const OverlayStyle& s);
// The class token's weight as a swatch of side box.height() at box's left, its value to the
// right ("cls 0.123"): the colour on the same map and scale as the cells.
void paintClassTokenSwatch(QPainter& p, const QRectF& box, double weight, const OverlayStyle& s,
                           const QFont& font);

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
