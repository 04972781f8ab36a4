// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Figures as files: SVG, PDF or PNG by extension, written atomically.
#include <QSizeF>
#include <QString>

#include "figure.h"

namespace attnviz::render {

// Named sizes, in points: "slide" 960x540 (16:9), "column" 252x189 (3.5 in), "page" 504x360
// (7 in, double column), or "WxH". false with a message for anything else.
bool parseFigureSize(const QString& text, QSizeF* size, bool* named, QString* error);

// Writes a figure by the file's extension: .svg or .pdf with a page of `size` points, .png
// of `size` pixels (named sizes: points / 72 * dpi). Atomic: a temporary file renamed into
// place; on any error (unwritable place, full disk) no file is left and *error says why.
bool writeFigure(const QString& path, QSizeF size, bool sizeIsNamed, int dpi,
                 const FigurePainter& paint, QString* error);

}  // namespace attnviz::render
