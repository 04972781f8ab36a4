// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Figures for slides and papers, drawn with QPainter so that one drawing serves SVG, PDF
// (vector: every heatmap cell a rectangle, every label text) and PNG. Used by the app's
// export and by `attnviz-cli render`.
#include <QPainter>
#include <QSizeF>
#include <QString>
#include <functional>

#include "core/export.h"
#include "view_state.h"
#include "workspace.h"

namespace attnviz::ui {

struct FigureStyle {
    QString title;
    QString colormap = "viridis";
    Scaling scaling = Scaling::Linear;
    bool shared = true;    // one colour scale for all panels (else each its own)
    bool colorbar = true;  // drawn for the shared scale
    QString fontFamily;    // empty: a family with CJK glyphs when installed
    double fontSize = 7;   // points
};

// A grid of heatmaps: columns (models, or one model's layers) of panels (heads).
struct Figure {
    std::vector<QString> columnTitles;
    std::vector<std::vector<WeightTable>> columns;  // [column][panel]
    FigureStyle style;
};

// The tables the view shows: for every model (or every layer of one model), the heads
// `heads` ("all", "mean", or a list such as "0,2"). Errors name the model and problem.
std::vector<std::vector<WeightTable>> selectTables(const Results& results, const ViewState& view,
                                                   const QString& heads, QString* error);
Figure gridFigure(const Results& results, const ViewState& view, const QString& heads,
                  const FigureStyle& style, QString* error);

// One query's weights over the keys, one line per model (head mean) or per head.
struct ProfileFigure {
    QString title;
    QString query;  // the query token
    QStringList keys;
    std::vector<std::pair<QString, std::vector<double>>> lines;
    FigureStyle style;
};
// query: a token of the queries (first occurrence) or an index. column < 0: every model.
ProfileFigure profileFigure(const Results& results, const ViewState& view, int column,
                            const FigureStyle& style, QString* error);

void paintFigure(QPainter& p, const Figure& f, const QRectF& page);
void paintProfile(QPainter& p, const ProfileFigure& f, const QRectF& page);

// Draws a figure onto a page (in points).
using FigurePainter = std::function<void(QPainter&, const QRectF&)>;
// The style of a view: its colours, scaling and shared scale.
FigureStyle styleOf(const ViewState& view);
// Painters of the grid and of the query profile, as the app and `render` export them;
// empty, with *error, when there is nothing to draw.
FigurePainter gridPainter(const Results& results, const ViewState& view, const QString& heads,
                          const FigureStyle& style, QString* error);
FigurePainter profilePainter(const Results& results, const ViewState& view, int column,
                             const FigureStyle& style, QString* error);
// The matrices in view as a data file by extension: "csv" or "npy" (the selected tables),
// "json" (each model's dump of MODEL.md; an array for several). columns are the models
// of `results`, in order. Error for anything else.
std::string exportDataBytes(const Results& results, const std::vector<ModelColumn>& columns,
                            const ViewState& view, const QString& heads, const QString& ext);

// Named sizes, in points: "slide" 960x540 (16:9), "column" 252x189 (3.5 in), "page" 504x360
// (7 in, double column), or "WxH". false with a message for anything else.
bool parseFigureSize(const QString& text, QSizeF* size, bool* named, QString* error);

// Writes a figure by the file's extension: .svg or .pdf with a page of `size` points, .png
// of `size` pixels (named sizes: points / 72 * dpi). Atomic: a temporary file renamed into
// place; on any error (unwritable place, full disk) no file is left and *error says why.
bool writeFigure(const QString& path, QSizeF size, bool sizeIsNamed, int dpi,
                 const FigurePainter& paint, QString* error);

// The default family for figures: Noto Sans CJK SC when installed (CJK glyphs), else the
// application font.
QString figureFontFamily();

}  // namespace attnviz::ui
