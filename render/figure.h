// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Figures for slides and papers, drawn with QPainter so that one drawing serves SVG, PDF
// (vector: every heatmap cell a rectangle, every label text) and PNG. Needs QtGui only:
// the app's export and `attnviz-cli render` draw with it, the app's grid colours its cells
// with the same colour maps and scaling (colormaps.h, scaling.h).
#include <QPainter>
#include <QString>
#include <QStringList>
#include <functional>

#include "core/selection.h"
#include "fonts.h"  // figureFont, figureFontFamily
#include "scaling.h"

namespace attnviz::render {

// The outline of the selected query row, on screen and in figures.
inline constexpr const char* kQueryOutline = "#ff3b30";

struct FigureStyle {
    QString title;
    QString colormap = "viridis";
    Scaling scaling = Scaling::Linear;
    bool shared = true;                       // one colour scale for all panels (else each its own)
    bool colorbar = true;                     // drawn for the shared scale
    QString fontFamily;                       // empty: a family with CJK glyphs when installed
    QString language = QStringLiteral("en");  // of the figure's own words (render/words.h)
    // Points on the page: the token labels and panel titles at this size, never smaller
    // (where they are taller than a cell, every k-th token is labelled); the title and
    // column titles larger.
    double fontSize = 7;
    // A grid's labels may be made smaller, down to this size, where a label per token needs
    // it (0: fontSize as it is, every k-th token labelled where they do not fit). The size
    // nobody chose (render::defaultLabelPoints) is a most, not a must.
    double fontSizeMin = 0;
    // Lines under the title (the sentence and its translation), "\n" between them; empty:
    // none.
    QString caption;
    bool lines = false;  // each table as the lines view (render/lines.h), not a heatmap
    // The selected query row (a row of every table), outlined in every panel and always
    // labelled, as the app's panels show it; -1: none.
    int query = -1;
    // The query outlined (the text panels' row, the image panels' patch); false: labelled,
    // not framed (a figure for print where the red frame distracts).
    bool outlineQuery = true;
    // Where the models go: as on screen (a column per model, heads down, or a model's heads
    // in a block under its title when that gives larger panels on a wide page; a single row
    // or column of panels may wrap), as rows (the transpose), or whichever gives the largest
    // panels on the page.
    enum class Arrange { Columns, Rows, Auto } arrange = Arrange::Columns;
};

// The label size a page needs when none is given (issue 47: figures exported at 7 pt were
// unreadable on a projected slide). On a paper's figure (`paper`: a column or a page width)
// 7 pt, the smallest a journal's figures use. Otherwise the same share of the page's height as
// 12 pt of a slide's 540 (legible from the back of a room), at least 7: a slide 12 pt, a
// 1920 × 1080 PNG at 200 dpi (389 pt high) 8.6 pt, 24 of its 1080 pixels. With kMinLabelPoints
// as the style's fontSizeMin, a grid too dense for a label per token gets smaller labels,
// never below 7 pt, rather than fewer.
inline constexpr double kMinLabelPoints = 7;
inline double defaultLabelPoints(double pageHeightPoints, bool paper = false) {
    if (paper) return kMinLabelPoints;
    const double points = 12 * pageHeightPoints / 540;
    return points < kMinLabelPoints ? kMinLabelPoints : points > 12 ? 12 : points;
}

// A grid of heatmaps: the selection's columns (models, or one model's layers) of tables.
struct Figure {
    Selection selection;
    FigureStyle style;
};

// Where a figure's parts go on a page (in points).
struct PanelPlace {
    int column = 0, row = 0;  // in the selection
    QRectF box;               // the panel: title, labels and cells
    QPointF origin;           // the top left of cell (0, 0)
    double cell = 0;          // a cell's width; 0: no room
    // A cell's height: the width, or up to kMaxCellStretch times it where the page would
    // otherwise leave blank bands above and below a block of panels bound by its width (a
    // 16:9 slide of four models' heads).
    double cellH = 0;
    double labelFont = 0;   // token labels' point size: the style's
    double labelWidth = 0;  // the longest token label
    int labelStep = 1;      // every labelStep-th token labelled (1: every one)
    // Whether the panel draws its query labels (left) and key labels (below). When every
    // table of the figure has the same query (key) tokens, they are drawn once per row of
    // panels, left of its first panel (once per column, under its lowest panel in each band),
    // and the other panels give that room to their cells.
    bool queryLabels = true, keyLabels = true;
};
inline constexpr double kMaxCellStretch = 1.6;
struct FigureLayout {
    QRectF grid;                // the panels' area
    bool columnTitles = false;  // a title above each column (else in each panel's title)
    double columnTitleHeight = 0;
    double columnWidth = 0;  // the mean width of a grid column (they differ with shared labels)
    int columnSpan = 1;      // grid columns per model (its heads side by side under its title)
    std::vector<PanelPlace> panels;
    // Where each selection column's title goes (index = column), when columnTitles: above
    // its first band's panels, centred on their cells.
    std::vector<QRectF> columnTitleBoxes;
    QRectF title, caption;  // empty: none
    QRectF colorbar;        // empty: none
    // The footnote: on thinned labels ("every 2nd token labelled") and on unknown words
    // ("⁇"); empty when neither applies.
    QRectF note;
    QStringList notes;
    // The smallest panel's labelStep > 1: labels at the size asked leave every k-th token.
    int labelStep = 1;
    // The bounding box of every panel's cells and token labels: what the page holds.
    QRectF content;
};
// The page's margin (one font size) and, at its top, the title and the caption when the
// style has them; *title and *caption stay empty otherwise. Returns the area left below.
QRectF placeTitleAndCaption(const FigureStyle& s, const QRectF& page, QRectF* title,
                            QRectF* caption);
// The caption's lines as drawn in a caption of `width` points: its lines ("\n" between
// them) on one line, three spaces apart, when they fit there at the caption's size ("i want
// to go to the station   → quiero ir a la estación"), else each on its own line.
QStringList captionLines(const FigureStyle& s, double width);
// The height of one caption line (the caption's text is 1.3 font sizes).
inline double captionLineHeight(const FigureStyle& s) {
    return s.fontSize * 1.75;
}
FigureLayout layoutFigure(const Figure& f, const QRectF& page);
void paintFigure(QPainter& p, const Figure& f, const QRectF& page);

// One query's weights over the keys as lines.
struct ProfileFigure {
    Profile profile;
    FigureStyle style;
};
void paintProfile(QPainter& p, const ProfileFigure& f, const QRectF& page);

// Draws a figure onto a page (in points).
using FigurePainter = std::function<void(QPainter&, const QRectF&)>;
// A painter of the selection; empty, with *error, when it has a problem or nothing to draw.
FigurePainter gridPainter(const Selection& selection, const FigureStyle& style, QString* error);
FigurePainter profilePainter(const Profile& profile, const FigureStyle& style, QString* error);

// A vertical colour bar in `box` for a scale that tops at `top` (the style's colour map and
// scaling), five tick labels to its right (about 4 font sizes wide). Figures and the app's
// on-screen bar draw it.
// With `diverging`, a signed scale from -top to top on the diverging map.
void paintColorBar(QPainter& p, const QRectF& box, const FigureStyle& style, double top,
                   bool diverging = false);

// `s` with its font family decided: figureFontFamily(s.language) when none was chosen.
FigureStyle withFont(FigureStyle s);

}  // namespace attnviz::render
