// SPDX-License-Identifier: GPL-3.0-or-later
#include "charts.h"

#include <QPainterPath>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "colormaps.h"
#include "core/head_table.h"
#include "core/selection.h"

namespace attnviz::render {
namespace {

QString qt(const std::string& s) {
    return QString::fromStdString(s);
}

struct Range {
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    void add(double v) {
        if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
    }
    bool empty() const { return !(hi >= lo); }
};

Range xRange(const Chart& c) {
    Range r;
    for (const auto& s : c.series)
        for (double x : s.x) r.add(x);
    return r;
}

Range yRange(const Chart& c, double yMin) {
    Range r;
    r.add(yMin);
    for (const auto& s : c.series)
        for (double y : s.y) r.add(y);
    if (!r.empty()) r.hi = r.hi > r.lo ? r.lo + (r.hi - r.lo) * 1.1 : r.lo + 1;
    return r;
}

// Tick labels: up to 5 "nice" values over [lo, hi].
std::vector<double> ticks(double lo, double hi) {
    const double span = hi - lo;
    if (!(span > 0)) return {lo};
    const double raw = span / 4, mag = std::pow(10.0, std::floor(std::log10(raw)));
    double step = mag;
    for (double m : {1.0, 2.0, 2.5, 5.0, 10.0})
        if (m * mag >= raw) {
            step = m * mag;
            break;
        }
    std::vector<double> t;
    for (double v = std::ceil(lo / step) * step; v <= hi + step * 1e-9; v += step)
        t.push_back(std::abs(v) < step * 1e-9 ? 0 : v);
    return t;
}

// One chart's plot area in its box and its ranges; `valid` false when it is too small to plot
// or has nothing to plot.
struct Frame {
    QRectF plot;
    Range xr, yr;
    bool valid = false;
    double X(double x) const { return plot.left() + (x - xr.lo) / (xr.hi - xr.lo) * plot.width(); }
    double Y(double y) const {
        return plot.bottom() - (y - yr.lo) / (yr.hi - yr.lo) * plot.height();
    }
    // Where a point is drawn (y clamped to the range).
    QPointF at(double x, double y) const { return {X(x), Y(std::clamp(y, yr.lo, yr.hi))}; }
};

Frame frameOf(const QRectF& box, Range xr, Range yr, double fs) {
    Frame f;
    // Right: room for half of the last x tick label ("100"), which is centred on the edge.
    f.plot = QRectF(box.left() + fs * 4, box.top() + fs * 2, box.width() - fs * 5.4,
                    box.height() - fs * 4.4);
    if (f.plot.width() < 4 || f.plot.height() < 4 || xr.empty() || yr.empty()) return f;
    if (!(xr.hi > xr.lo)) xr.hi = xr.lo + 1;
    f.xr = xr, f.yr = yr, f.valid = true;
    return f;
}

// The radius of a series' dots.
double dotRadius(const ChartSeries& se, double fs) {
    return se.line ? fs * 0.18 : fs * 0.3;  // dots alone: large enough to tell their colour
}

void paintChart(QPainter& p, const Chart& c, const QRectF& box, Range xr, Range yr,
                const ChartGrid& g, const FigureStyle& s) {
    const double fs = s.fontSize;
    p.setPen(Qt::black);
    p.setFont(figureFont(s.fontFamily, fs, true));
    p.drawText(QRectF(box.left(), box.top(), box.width(), fs * 1.6), Qt::AlignCenter,
               QFontMetricsF(p.font()).elidedText(qt(c.title), Qt::ElideRight, box.width()));
    const Frame f = frameOf(box, xr, yr, fs);
    if (!f.valid) return;
    const QRectF plot = f.plot;
    xr = f.xr;
    auto X = [&](double x) { return f.X(x); };
    auto Y = [&](double y) { return f.Y(y); };
    p.setFont(figureFont(s.fontFamily, fs * 0.85));
    p.setPen(QPen(QColor(225, 225, 225), 0.5));
    for (double t : ticks(yr.lo, yr.hi))
        p.drawLine(QPointF(plot.left(), Y(t)), QPointF(plot.right(), Y(t)));
    if (g.markZero && xr.lo <= 0 && xr.hi >= 0) {
        p.setPen(QPen(QColor(160, 160, 160), 0.6, Qt::DotLine));
        p.drawLine(QPointF(X(0), plot.top()), QPointF(X(0), plot.bottom()));
    }
    p.setPen(QPen(Qt::black, 0.6));
    p.drawLine(plot.bottomLeft(), plot.bottomRight());
    p.drawLine(plot.bottomLeft(), plot.topLeft());
    for (double t : ticks(yr.lo, yr.hi))
        p.drawText(QRectF(box.left(), Y(t) - fs, fs * 3.7, 2 * fs),
                   Qt::AlignRight | Qt::AlignVCenter, QString::number(t, 'g', 3));
    for (double t : ticks(xr.lo, xr.hi))
        if (!g.integerX || t == std::round(t))
            p.drawText(QRectF(X(t) - fs * 2, plot.bottom() + 1, fs * 4, fs * 1.4), Qt::AlignCenter,
                       QString::number(t, 'g', 3));
    p.setRenderHint(QPainter::Antialiasing, true);
    // Reference lines first: the data is drawn over them.
    std::vector<const ChartSeries*> order;
    for (const bool reference : {true, false})
        for (const auto& se : c.series)
            if (se.reference == reference) order.push_back(&se);
    for (const ChartSeries* s : order) {
        const ChartSeries& se = *s;
        QPainterPath path;
        bool started = false;
        for (size_t i = 0; i < se.x.size() && i < se.y.size(); ++i) {
            if (!std::isfinite(se.y[i])) {  // no data: a gap in the line
                started = false;
                continue;
            }
            const QPointF pt = f.at(se.x[i], se.y[i]);
            started ? path.lineTo(pt) : path.moveTo(pt);
            started = true;
        }
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(seriesColor(se), 1.1, seriesStyle(se)));
        if (se.line) p.drawPath(path);
        if (se.markers) {
            p.setBrush(seriesColor(se));
            p.setPen(Qt::NoPen);
            const double r = dotRadius(se, fs);
            for (size_t i = 0; i < se.x.size() && i < se.y.size(); ++i)
                if (std::isfinite(se.y[i])) p.drawEllipse(f.at(se.x[i], se.y[i]), r, r);
        }
    }
    p.setRenderHint(QPainter::Antialiasing, false);
}

// Where paintCharts puts the title, the legend and each chart on a page.
struct Layout {
    QString title;
    double titleTop = 0;
    struct Entry {
        const ChartSeries* series;
        QString name;
        QPointF at;    // the entry's top left
        double width;  // of its name
    };
    std::vector<Entry> legend;
    std::vector<QRectF> boxes;  // per chart
    Range xr, yr;               // every chart's x range; their y range
    Range yRange(const ChartGrid& g, size_t k) const {
        return g.sharedY ? yr : render::yRange(g.charts[k], g.yMin);
    }
};

Layout layOut(const ChartGrid& g, const FigureStyle& s, const QRectF& page) {
    const double fs = s.fontSize;
    Layout l;
    double top = page.top() + fs * 0.5;
    l.title = s.title.isEmpty() ? qt(g.title) : s.title;
    if (!l.title.isEmpty()) {
        l.titleTop = top;
        top += fs * 2.4;
    }
    // The legend: every series name once, in order of first appearance, wrapped onto as many
    // lines as it needs: an entry for every series, none cut at the edge.
    const QFontMetricsF metrics(figureFont(s.fontFamily, fs));
    const double left = page.left() + fs * 4;
    double lx = left;
    for (const auto& c : g.charts)
        for (const auto& se : c.series) {
            const QString name = qt(se.name);
            if (std::any_of(l.legend.begin(), l.legend.end(),
                            [&](const Layout::Entry& e) { return e.name == name; }))
                continue;
            const double w = metrics.horizontalAdvance(name);
            if (lx > left && lx + w + fs * 3.4 > page.right()) lx = left, top += fs * 1.6;
            l.legend.push_back({&se, name, QPointF(lx, top), w});
            lx += w + fs * 4.5;
        }
    top += fs * 2;
    const QRectF area(page.left(), top, page.width(), page.bottom() - top - fs * 1.8);
    const int n = int(g.charts.size());
    int cols =
        g.columns > 0 ? g.columns : int(std::ceil(std::sqrt(n * area.width() / area.height())));
    cols = std::clamp(cols, 1, std::max(1, n));
    const int rows = (n + cols - 1) / cols;
    const double cw = area.width() / cols, ch = area.height() / std::max(1, rows);
    for (const auto& c : g.charts) {
        const Range a = xRange(c), b = yRange(c, g.yMin);
        if (!a.empty()) l.xr.add(a.lo), l.xr.add(a.hi);
        if (!b.empty()) l.yr.add(b.lo), l.yr.add(b.hi);
    }
    for (int k = 0; k < n; ++k)
        l.boxes.emplace_back(area.left() + (k % cols) * cw, area.top() + (k / cols) * ch, cw, ch);
    return l;
}

}  // namespace

void paintCharts(QPainter& p, const ChartGrid& g, const FigureStyle& s, const QRectF& page) {
    const double fs = s.fontSize;
    QPainterPath bg;
    bg.addRect(page);
    p.fillPath(bg, Qt::white);
    const Layout l = layOut(g, s, page);
    p.setPen(Qt::black);
    if (!l.title.isEmpty()) {
        p.setFont(figureFont(s.fontFamily, fs * 1.3, true));
        p.drawText(QRectF(page.left(), l.titleTop, page.width(), fs * 2), Qt::AlignCenter,
                   QFontMetricsF(p.font()).elidedText(l.title, Qt::ElideRight, page.width()));
    }
    p.setFont(figureFont(s.fontFamily, fs));
    for (const Layout::Entry& e : l.legend) {
        const double lx = e.at.x(), top = e.at.y();
        p.setPen(QPen(seriesColor(*e.series), 1.4, seriesStyle(*e.series)));
        if (e.series->line) {
            p.drawLine(QPointF(lx, top + fs * 0.7), QPointF(lx + fs * 2, top + fs * 0.7));
        } else {
            p.setBrush(seriesColor(*e.series));
            p.drawEllipse(QPointF(lx + fs, top + fs * 0.7), fs * 0.3, fs * 0.3);
            p.setBrush(Qt::NoBrush);
        }
        p.setPen(Qt::black);
        p.drawText(QRectF(lx + fs * 2.4, top, e.width + fs, fs * 1.4),
                   Qt::AlignLeft | Qt::AlignVCenter, e.name);
    }
    for (size_t k = 0; k < g.charts.size(); ++k)
        paintChart(p, g.charts[k], l.boxes[k], l.xr, l.yRange(g, k), g, s);
    p.setPen(Qt::black);
    p.setFont(figureFont(s.fontFamily, fs));
    p.drawText(QRectF(page.left(), page.bottom() - fs * 1.7, page.width(), fs * 1.5),
               Qt::AlignCenter, qt(g.xLabel) + (g.yLabel.empty() ? "" : "   ·   " + qt(g.yLabel)));
}

std::vector<ChartPoint> chartPoints(const ChartGrid& g, const FigureStyle& s, const QRectF& page) {
    const Layout l = layOut(g, s, page);
    std::vector<ChartPoint> points;
    for (size_t k = 0; k < g.charts.size(); ++k) {
        const Frame f = frameOf(l.boxes[k], l.xr, l.yRange(g, k), s.fontSize);
        if (!f.valid) continue;
        const auto& series = g.charts[k].series;
        for (size_t i = 0; i < series.size(); ++i)
            for (size_t j = 0; j < series[i].x.size() && j < series[i].y.size(); ++j)
                if (std::isfinite(series[i].y[j]))
                    points.push_back({k, i, j, f.at(series[i].x[j], series[i].y[j])});
    }
    return points;
}

QColor seriesColor(const ChartSeries& s) {
    return s.reference ? QColor(128, 128, 128) : lineColor(s.look);
}

Qt::PenStyle seriesStyle(const ChartSeries& s) {
    return s.reference ? Qt::DashLine : lineStyle(s.look);
}

ChartGrid offsetProfileCharts(const std::vector<ModelRuns>& models, BlockKind kind, int layer,
                              int maxOffset, std::string* error, const Words& words,
                              const FitOf& fitOf) {
    ChartGrid g;
    auto say = [](const QString& s) { return s.toStdString(); };
    const Wording wording = render::wording(words.language());
    g.xLabel = say(words.translate("Chart", "offset j − i (key position minus query position)"));
    g.markZero = true;
    size_t sentences = 0;
    for (const auto& m : models) sentences = std::max(sentences, m.runs.size());
    const QString where = QString::fromStdString(wording.block(kind) + " L" + counted(layer));
    //: %1 block and layer, %2 how many sentences
    g.title =
        say(sentences == 1
                ? words.translate("Chart", "Mean weight at each offset, %1, 1 sentence").arg(where)
                : words.translate("Chart", "Mean weight at each offset, %1, %2 sentences")
                      .arg(where)
                      .arg(sentences));
    std::vector<double> x;
    for (int k = -maxOffset; k <= maxOffset; ++k) x.push_back(k);
    int columns = 1;
    for (size_t mi = 0; mi < models.size(); ++mi) {
        const ModelRuns& m = models[mi];
        int index = -1;
        if (!m.runs.empty())
            for (size_t k = 0; k < m.runs[0]->blocks.size(); ++k)
                if (m.runs[0]->blocks[k].kind == kind && m.runs[0]->blocks[k].layer == layer)
                    index = int(k);
        if (index < 0) {
            if (error && error->empty())
                *error = m.name + " has no " + blockLabel(kind) + " block in layer " +
                         std::to_string(layer);
            continue;
        }
        const int heads = m.runs[0]->blocks[size_t(index)].heads;
        columns = std::max(columns, heads);
        for (int h = 0; h < heads; ++h) {
            const std::vector<HeadTable> tables = headTables(m.runs, size_t(index), h);
            const GaussianFit fit = fitOf ? fitOf(mi, size_t(index), h) : fitGaussian(tables);
            char title[200];
            std::snprintf(title, sizeof title, "%s · %s (μ %.2g, σ %.2g, R² %.2f)", m.name.c_str(),
                          fill(wording.head, counted(h)).c_str(), fit.offset, fit.sigma, fit.r2);
            // Offsets no row can reach (beyond the sentence, or ahead of a causal query) are
            // gaps, not zeros.
            std::vector<bool> reach(x.size(), false);
            for (const auto& t : tables)
                for (int i = 0; i < int(t.weights->rows()); ++i) {
                    const int keys =
                        t.causal ? std::min(int(t.weights->cols()), i + 1) : int(t.weights->cols());
                    for (int k = -maxOffset; k <= maxOffset; ++k)
                        if (i + k >= 0 && i + k < keys) reach[size_t(k + maxOffset)] = true;
                }
            auto gaps = [&](std::vector<double> y) {
                for (size_t k = 0; k < y.size(); ++k)
                    if (!reach[k]) y[k] = std::numeric_limits<double>::quiet_NaN();
                return y;
            };
            Chart c;
            c.title = title;
            c.series.push_back({say(words.translate("Chart", "the head's mean weight")), x,
                                gaps(offsetProfile(tables, maxOffset)), 0, true});
            c.series.push_back({say(words.translate("Chart", "its Gaussian fit")), x,
                                gaps(gaussianOffsetProfile(tables, fit, maxOffset)), 1, false});
            g.charts.push_back(std::move(c));
        }
    }
    g.columns = columns;
    return g;
}

ChartGrid pruningCharts(const PruneCurves& curves, const std::string& modelName,
                        const Words& words) {
    ChartGrid g;
    auto say = [](const QString& s) { return s.toStdString(); };
    //: %1 a model's name, %2 how many sentences
    g.title = say(words.translate("Chart", "Pruning the heads of %1 (%2 sentences)")
                      .arg(QString::fromStdString(modelName))
                      .arg(curves.sentences));
    g.xLabel = say(words.translate("Chart", "heads removed"));
    g.sharedY = false;
    for (const bool bleu : {true, false}) {
        Chart c;
        c.title = bleu ? "BLEU" : say(words.translate("Chart", "loss (cross-entropy, nats)"));
        int look = 0;
        for (const auto* curve : {&curves.byImportance, &curves.random}) {
            ChartSeries se;
            se.name =
                say(curve == &curves.random ? words.translate("Chart", "random order")
                                            : words.translate("Chart", "least important first"));
            se.look = look++;
            se.markers = true;
            for (const PrunePoint& pt : *curve) {
                const std::optional<double> y = bleu ? pt.bleu : std::optional(pt.loss);
                if (!y || !std::isfinite(*y)) continue;
                se.x.push_back(pt.removed);
                se.y.push_back(*y);
            }
            if (!se.x.empty()) c.series.push_back(std::move(se));
        }
        if (!c.series.empty()) g.charts.push_back(std::move(c));
    }
    return g;
}

ChartGrid distanceByLayerChart(const std::vector<ModelDistances>& models, double uniformPx,
                               int images, const Words& words) {
    auto say = [](const QString& s) { return s.toStdString(); };
    ChartGrid g;
    //: The distance-by-layer chart's title: %1 how many images the means are over
    g.title =
        say(words.translate("Chart", "Mean attention distance by layer (%1 images)").arg(images));
    g.xLabel = say(words.translate("Chart", "layer"));
    g.yLabel = say(words.translate("Chart", "mean attention distance (pixels), a dot per head"));
    g.integerX = true;
    Chart c;
    size_t layers = 1;
    const double width = 0.5 / double(std::max<size_t>(1, models.size()));
    const Wording wording = render::wording(words.language());
    for (size_t m = 0; m < models.size(); ++m) {
        ChartSeries se;  // dots only
        se.name = models[m].name;
        se.look = models[m].look >= 0 ? models[m].look : int(m);
        se.markers = true;
        se.line = false;
        const double dx = (double(m) - (double(models.size()) - 1) / 2) * width;
        layers = std::max(layers, models[m].perHead.size());
        for (size_t l = 0; l < models[m].perHead.size(); ++l)
            for (size_t h = 0; h < models[m].perHead[l].size(); ++h) {
                const AttentionDistance& d = models[m].perHead[l][h];
                if (d.rows == 0) continue;
                se.x.push_back(double(l) + 1 + dx);
                se.y.push_back(d.px);
                //: A dot of the distance chart: %1 the model, %2 the layer, %3 the head (e.g.
                //: "head 3"), %4 its mean attention distance in pixels
                se.notes.push_back(say(words.translate("Chart", "%1 · layer %2 · %3 · %4 px")
                                           .arg(qt(models[m].name), qt(counted(int(l))),
                                                qt(fill(wording.head, counted(int(h)))),
                                                QString::number(d.px, 'f', 1))));
            }
        c.series.push_back(std::move(se));
    }
    //: The reference line of the distance chart: %1 its value in pixels
    ChartSeries uniform{say(words.translate("Chart", "uniform attention (%1 px)")
                                .arg(QString::number(uniformPx, 'f', 1))),
                        {0.5, double(layers) + 0.5},
                        {uniformPx, uniformPx}};
    uniform.reference = true;
    c.series.push_back(std::move(uniform));
    g.charts.push_back(std::move(c));
    g.columns = 1;
    return g;
}

FigurePainter chartPainter(const ChartGrid& g, const FigureStyle& style, QString* error) {
    if (g.charts.empty()) {
        if (error) *error = "nothing to draw";
        return {};
    }
    auto grid = std::make_shared<ChartGrid>(g);
    return [grid, style = withFont(style)](QPainter& p, const QRectF& r) {
        paintCharts(p, *grid, style, r);
    };
}

}  // namespace attnviz::render
