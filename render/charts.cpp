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

void paintChart(QPainter& p, const Chart& c, const QRectF& box, Range xr, Range yr,
                const ChartGrid& g, const FigureStyle& s) {
    const double fs = s.fontSize;
    p.setPen(Qt::black);
    p.setFont(figureFont(s.fontFamily, fs, true));
    p.drawText(QRectF(box.left(), box.top(), box.width(), fs * 1.6), Qt::AlignCenter,
               QFontMetricsF(p.font()).elidedText(qt(c.title), Qt::ElideRight, box.width()));
    const QRectF plot(box.left() + fs * 4, box.top() + fs * 2, box.width() - fs * 4.6,
                      box.height() - fs * 4.4);
    if (plot.width() < 4 || plot.height() < 4 || xr.empty() || yr.empty()) return;
    if (!(xr.hi > xr.lo)) xr.hi = xr.lo + 1;
    auto X = [&](double x) { return plot.left() + (x - xr.lo) / (xr.hi - xr.lo) * plot.width(); };
    auto Y = [&](double y) {
        return plot.bottom() - (y - yr.lo) / (yr.hi - yr.lo) * plot.height();
    };
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
    for (const auto& se : c.series) {
        QPainterPath path;
        bool started = false;
        for (size_t i = 0; i < se.x.size() && i < se.y.size(); ++i) {
            if (!std::isfinite(se.y[i])) {  // no data: a gap in the line
                started = false;
                continue;
            }
            const QPointF pt(X(se.x[i]), Y(std::clamp(se.y[i], yr.lo, yr.hi)));
            started ? path.lineTo(pt) : path.moveTo(pt);
            started = true;
        }
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(lineColor(se.look), 1.1, lineStyle(se.look)));
        if (se.line) p.drawPath(path);
        if (se.markers) {
            p.setBrush(lineColor(se.look));
            p.setPen(Qt::NoPen);
            for (size_t i = 0; i < se.x.size() && i < se.y.size(); ++i)
                if (std::isfinite(se.y[i]))
                    p.drawEllipse(QPointF(X(se.x[i]), Y(std::clamp(se.y[i], yr.lo, yr.hi))),
                                  fs * 0.18, fs * 0.18);
        }
    }
    p.setRenderHint(QPainter::Antialiasing, false);
}

}  // namespace

void paintCharts(QPainter& p, const ChartGrid& g, const FigureStyle& s, const QRectF& page) {
    const double fs = s.fontSize;
    QPainterPath bg;
    bg.addRect(page);
    p.fillPath(bg, Qt::white);
    double top = page.top() + fs * 0.5;
    p.setPen(Qt::black);
    const QString title = s.title.isEmpty() ? qt(g.title) : s.title;
    if (!title.isEmpty()) {
        p.setFont(figureFont(s.fontFamily, fs * 1.3, true));
        p.drawText(QRectF(page.left(), top, page.width(), fs * 2), Qt::AlignCenter,
                   QFontMetricsF(p.font()).elidedText(title, Qt::ElideRight, page.width()));
        top += fs * 2.4;
    }
    // The legend: every series name once, in order of first appearance.
    std::vector<std::pair<std::string, const ChartSeries*>> legend;
    for (const auto& c : g.charts)
        for (const auto& se : c.series)
            if (std::none_of(legend.begin(), legend.end(),
                             [&](const auto& l) { return l.first == se.name; }))
                legend.emplace_back(se.name, &se);
    // Wrapped onto as many lines as it needs: an entry for every series, none cut at the edge.
    p.setFont(figureFont(s.fontFamily, fs));
    const double left = page.left() + fs * 4;
    double lx = left;
    for (const auto& [name, se] : legend) {
        const double w = QFontMetricsF(p.font()).horizontalAdvance(qt(name));
        if (lx > left && lx + w + fs * 3.4 > page.right()) lx = left, top += fs * 1.6;
        p.setPen(QPen(lineColor(se->look), 1.4, lineStyle(se->look)));
        if (se->line) {
            p.drawLine(QPointF(lx, top + fs * 0.7), QPointF(lx + fs * 2, top + fs * 0.7));
        } else {
            p.setBrush(lineColor(se->look));
            p.drawEllipse(QPointF(lx + fs, top + fs * 0.7), fs * 0.25, fs * 0.25);
            p.setBrush(Qt::NoBrush);
        }
        p.setPen(Qt::black);
        p.drawText(QRectF(lx + fs * 2.4, top, w + fs, fs * 1.4), Qt::AlignLeft | Qt::AlignVCenter,
                   qt(name));
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
    Range xr, yr;
    for (const auto& c : g.charts) {
        const Range a = xRange(c), b = yRange(c, g.yMin);
        if (!a.empty()) xr.add(a.lo), xr.add(a.hi);
        if (!b.empty()) yr.add(b.lo), yr.add(b.hi);
    }
    for (int k = 0; k < n; ++k) {
        const QRectF box(area.left() + (k % cols) * cw, area.top() + (k / cols) * ch, cw, ch);
        paintChart(p, g.charts[size_t(k)], box, xr,
                   g.sharedY ? yr : yRange(g.charts[size_t(k)], g.yMin), g, s);
    }
    p.setPen(Qt::black);
    p.setFont(figureFont(s.fontFamily, fs));
    p.drawText(QRectF(page.left(), page.bottom() - fs * 1.7, page.width(), fs * 1.5),
               Qt::AlignCenter, qt(g.xLabel) + (g.yLabel.empty() ? "" : "   ·   " + qt(g.yLabel)));
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
    for (size_t m = 0; m < models.size(); ++m) {
        ChartSeries se{models[m].name, {}, {}, int(m), true, false};
        const double dx = (double(m) - (double(models.size()) - 1) / 2) * width;
        layers = std::max(layers, models[m].perHead.size());
        for (size_t l = 0; l < models[m].perHead.size(); ++l)
            for (const AttentionDistance& d : models[m].perHead[l])
                if (d.rows > 0) se.x.push_back(double(l) + 1 + dx), se.y.push_back(d.px);
        c.series.push_back(std::move(se));
    }
    //: The reference line of the distance chart: %1 its value in pixels
    c.series.push_back({say(words.translate("Chart", "uniform attention (%1 px)")
                                .arg(QString::number(uniformPx, 'f', 1))),
                        {0.5, double(layers) + 0.5},
                        {uniformPx, uniformPx},
                        int(models.size()),
                        false,
                        true});
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
