// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Figures as files: SVG, PDF or PNG by extension, written atomically.
#include <QSize>
#include <QSizeF>
#include <QString>
#include <QStringList>

#include "figure.h"

namespace attnviz::render {

// Named sizes, in points: "slide" 960x540 (16:9, 13.33 x 7.5 in), "slide-4:3" 720x540
// (10 x 7.5 in), "column" 252x189 (3.5 in), "page" 504x360 (7 in, double column), or "WxH".
// false with a message for anything else.
bool parseFigureSize(const QString& text, QSizeF* size, bool* named, QString* error);
// The named sizes, in the order above.
QStringList figureSizeNames();

// The page a figure is drawn on: its size in points (SVG and PDF pages, and the PNG's
// drawing: a label of N points is N points of this page), and the PNG's exact pixels and
// resolution. A PNG is the page drawn at pixels / points, recorded as `dpi` in the file.
struct FigureCanvas {
    QSizeF points;
    QSize pixels;
    int dpi = 144;
};
// The page of `points`, its PNG at `dpi`: each side points * dpi / 72 rounded to the nearest
// pixel (960 pt at 200 dpi: 2667 px).
FigureCanvas canvasForPoints(QSizeF points, int dpi);
// A PNG of exactly `pixels` at `dpi`: the page is pixels * 72 / dpi points (2666 px at
// 200 dpi: 959.76 pt; a 7-pt label is 19.4 px high).
FigureCanvas canvasForPixels(QSize pixels, int dpi);

// Writes a figure by the file's extension: .svg or .pdf with a page of canvas.points, .png of
// canvas.pixels at canvas.dpi. Atomic: a temporary file renamed into place; on any error
// (unwritable place, full disk, a size or resolution out of range) no file is left and
// *error says why.
bool writeFigure(const QString& path, const FigureCanvas& canvas, const FigurePainter& paint,
                 QString* error);
// As `attnviz-cli render --size` means a size: named sizes are points (PNG: at `dpi`); a
// "WxH" size is points for SVG and PDF and exact pixels for PNG (at `dpi`).
bool writeFigure(const QString& path, QSizeF size, bool sizeIsNamed, int dpi,
                 const FigurePainter& paint, QString* error);

}  // namespace attnviz::render
