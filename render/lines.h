// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The lines view of one attention table (the "head view" of BertViz): query tokens in a
// column on the left, key tokens on the right, and a line from query i to key j whose
// opacity and width grow with w_ij / scaleMax. Hovering or clicking a token keeps only its
// lines. Drawn with QPainter, so the same drawing is the app's panel and a vector figure
// (every line a path in SVG/PDF).
#include <QColor>
#include <QPainter>
#include <QRectF>
#include <QString>
#include <vector>

#include "core/selection.h"

namespace attnviz::render {

struct LinesStyle {
    QString fontFamily;         // empty: figureFontFamily()
    double fontSize = 10;       // the labels' largest size (shrunk to the row pitch)
    QColor color{31, 78, 156};  // lines and the focused token's background
    double minFraction = 0.04;  // lines below this fraction of scaleMax are not drawn
    int focusQuery = -1;        // >= 0: only this query's lines
    int focusKey = -1;          // >= 0: only the lines into this key (ignored with a query)
    bool title = true;          // the table's `where` above the columns
    int rows = 0;               // > 0: lay out at least this many rows (panels side by side
                                // with different lengths keep one pitch and font)
};

// Where everything goes in `box` (units of the painter: pixels on screen, points in figures).
struct LinesLayout {
    QRectF title;                        // empty without a title
    std::vector<QRectF> queries, keys;   // label boxes, top to bottom
    double fontSize = 0;                 // the labels' size after fitting
    double pitch = 0;                    // row height
    double lineLeft = 0, lineRight = 0;  // x where lines start and end
};
LinesLayout layoutLines(const SelectedTable& t, const LinesStyle& s, const QRectF& box);

// Draws the table; a message instead when it has no weights.
void paintLines(QPainter& p, const SelectedTable& t, const LinesStyle& s, const QRectF& box);

// The token under a point: {0, i} query i, {1, j} key j, {-1, -1} none.
struct LinesHit {
    int side = -1;
    int index = -1;
};
LinesHit hitLines(const LinesLayout& layout, const QPointF& at);

// The lines drawn (query, key, weight / scaleMax) for a style, in drawing order (lightest
// first): what paintLines draws, for tests and hover text.
struct DrawnLine {
    int query = 0, key = 0;
    double strength = 0;  // in (0, 1]
};
std::vector<DrawnLine> linesToDraw(const SelectedTable& t, const LinesStyle& s);

}  // namespace attnviz::render
