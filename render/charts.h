// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Small multiples of line charts over a numeric axis, for the analyses of issue 15: each
// head's relative-offset profile beside its Gaussian fit, and pruning curves. Same fonts,
// colours and files as the heatmap figures (figure.h, figure_file.h).
#include <functional>
#include <string>
#include <vector>

#include "core/head_importance.h"
#include "core/head_stats.h"
#include "core/model.h"
#include "figure.h"
#include "words.h"

namespace attnviz::render {

struct ChartSeries {
    std::string name;  // in the legend
    std::vector<double> x, y;
    int look = 0;          // colour and dash pattern: lineColor(look), lineStyle(look)
    bool markers = false;  // a dot at every point
    bool line = true;      // the points joined (else dots only: markers)
    // A reference line (not data): grey and dashed whatever its look, so that it never takes
    // the colour of a series of data.
    bool reference = false;
    // What each point is, in words ("dot · layer 2 · head 3 · 9.1 px"), for the screen's
    // tooltips (ui/chart_view.h); empty: the points have none. Never drawn.
    std::vector<std::string> notes = {};
};
// The colour and dash pattern a series is drawn with.
QColor seriesColor(const ChartSeries& s);
Qt::PenStyle seriesStyle(const ChartSeries& s);

struct Chart {
    std::string title;
    std::vector<ChartSeries> series;
};

struct ChartGrid {
    std::string title;
    std::string xLabel, yLabel;
    std::vector<Chart> charts;
    int columns = 0;      // charts per row; 0: as square a grid as the page allows
    bool sharedY = true;  // one y range for every chart (else each its own)
    double yMin = 0;      // the bottom of the y axis (the top: the largest value, +10 %)
    // A vertical line at x = 0 (offset profiles: the query's own position).
    bool markZero = false;
    bool integerX = false;  // x ticks at whole numbers only (layers)
};

void paintCharts(QPainter& p, const ChartGrid& g, const FigureStyle& style, const QRectF& page);

// Where paintCharts draws each point of `g` on `page` in `style` (the same layout): point
// `point` of series `series` of chart `chart` at `at`. Points without a finite value and
// charts too small to plot have none. What the screen finds a dot under the mouse with.
struct ChartPoint {
    size_t chart, series, point;
    QPointF at;
};
std::vector<ChartPoint> chartPoints(const ChartGrid& g, const FigureStyle& style,
                                    const QRectF& page);

// One model's analyses, one per sentence (the same blocks in each), owned by the caller (the
// app's results are not copied for a chart).
struct ModelRuns {
    std::string name;
    std::vector<const Analysis*> runs;
};
// Relative-offset profiles (docs/analysis.md): a chart per head of block `kind`, layer `layer`
// of every model, the head's mean weight at each offset -maxOffset..maxOffset over its
// sentences (solid, dots) beside its Gaussian fit's profile (dashed), the fit in the title.
// A row per model. Error (in *error, no charts) when a model lacks that block.
// `fit`, when given, supplies head `head` of captured block `block` of model `model`'s fit
// (e.g. from core/result_stats.h, computed once for every view); else each is fitted here.
using FitOf = std::function<GaussianFit(size_t model, size_t block, int head)>;
ChartGrid offsetProfileCharts(const std::vector<ModelRuns>& models, BlockKind kind, int layer,
                              int maxOffset, std::string* error, const Words& words = Words(),
                              const FitOf& fit = nullptr);
// Pruning curves (core/head_importance.h pruneHeads) of model `modelName`: a chart of BLEU
// (seq2seq only) and one of loss, against heads removed, each with the curve removing the
// least important heads first and the random-order one. What `render --prune` and the Heads
// dock draw.
ChartGrid pruningCharts(const PruneCurves& curves, const std::string& modelName,
                        const Words& words = Words());
// One model's mean attention distance per head (core/head_stats.h AttentionDistances::perHead).
struct ModelDistances {
    std::string name;
    std::vector<std::vector<AttentionDistance>> perHead;  // [layers][heads]
    // Its colour, lineColor(look): its place in its set, so that it keeps its colour when
    // others are left out (a filter); -1: its place in the chart's list.
    int look = -1;
};
// Mean attention distance by layer (Dosovitskiy et al. 2021, Fig. 7): x the layer, y the
// distance in pixels, a dot per head, a colour per model (dots side by side within a layer;
// lineColor's 16 distinct colours, so a set of up to 16 models repeats none), and uniform
// attention's distance on the grid (`uniformPx`) as a dashed grey reference line. Every dot
// has a note: model, layer, head (both from 1) and distance. `images`: how many images the
// means are over (the title).
ChartGrid distanceByLayerChart(const std::vector<ModelDistances>& models, double uniformPx,
                               int images, const Words& words = Words());
// A painter of the grid; empty, with *error, when there is nothing to draw.
FigurePainter chartPainter(const ChartGrid& g, const FigureStyle& style, QString* error);

}  // namespace attnviz::render
