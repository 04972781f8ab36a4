// SPDX-License-Identifier: GPL-3.0-or-later
#include "figure.h"

#include <QBuffer>
#include <QFileInfo>
#include <QFontDatabase>
#include <QImage>
#include <QPageSize>
#include <QPainterPath>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <cmath>

#include "colormaps.h"
#include "core/dump.h"
#include "core/error.h"
#include "core/safetensors.h"

namespace attnviz::ui {
namespace {

std::vector<std::string> toStd(const QStringList& l) {
    std::vector<std::string> v;
    for (const auto& s : l) v.push_back(s.toStdString());
    return v;
}

// Colour of weight w in [0, hi] under the style's scaling. (QCPColorGradient::color builds
// its lookup table on first use, hence the non-const gradient, shared by all cells.)
QColor cellColor(QCPColorGradient& g, double w, double hi, Scaling s) {
    double t = hi > 0 ? w / hi : 0;
    if (s == Scaling::Power) t = std::sqrt(std::max(0.0, t));
    if (s == Scaling::Log) t = w <= 1e-4 * hi ? 0 : (std::log10(w / hi) + 4) / 4;
    return QColor::fromRgba(g.color(std::clamp(t, 0.0, 1.0), QCPRange(0, 1)));
}

QFont figureFont(const FigureStyle& s, double size, bool bold = false) {
    QFont f(s.fontFamily.isEmpty() ? figureFontFamily() : s.fontFamily);
    f.setPointSizeF(std::max(1.0, size));
    f.setBold(bold);
    return f;
}

}  // namespace

QString figureFontFamily() {
    for (const char* f : {"Noto Sans CJK SC", "Noto Sans CJK JP", "Noto Sans"})
        if (QFontDatabase::families().contains(f)) return f;
    return QFont().family();
}

std::vector<std::vector<WeightTable>> selectTables(const Results& res, const ViewState& v,
                                                   const QString& heads, QString* error) {
    std::vector<std::vector<WeightTable>> out;
    for (auto [c, layer] : columnPlan(res, v)) {
        const ColumnResult& r = res[size_t(c)];
        if (!r.error.isEmpty()) {
            if (error) *error = r.name + ": " + r.error;
            return {};
        }
        const CapturedBlock* b = findBlock(r.analysis, v.kind, layer);
        if (!b) {
            if (error)
                *error = QString("%1 has no %2 block in layer %3")
                             .arg(r.name, kindLabel(v.kind))
                             .arg(layer);
            return {};
        }
        WeightTable base;
        base.model = r.name.toStdString();
        base.block = blockKindName(v.kind);
        base.layer = layer;
        base.queries = toStd(queryTokens(r.analysis, v.kind));
        base.keys = toStd(keyTokens(r.analysis, v.kind));
        std::vector<WeightTable> col;
        if (heads == "mean" || v.meanHeads) {
            WeightTable t = base;
            t.head = "mean";
            t.weights = headMean(*b);
            col.push_back(t);
        } else if (heads.isEmpty() || heads == "all") {
            for (int h = 0; h < b->heads; ++h) {
                WeightTable t = base;
                t.head = std::to_string(h);
                t.weights = b->weights[size_t(h)];
                col.push_back(t);
            }
        } else {
            for (const QString& part : heads.split(',', Qt::SkipEmptyParts)) {
                bool ok = false;
                const int h = part.trimmed().toInt(&ok);
                if (!ok || h < 0 || h >= b->heads) {
                    if (error)
                        *error = QString(
                                     "head '%1' does not exist in %2 (%3 heads; use all, mean or "
                                     "e.g. 0,2)")
                                     .arg(part.trimmed(), r.name)
                                     .arg(b->heads);
                    return {};
                }
                WeightTable t = base;
                t.head = std::to_string(h);
                t.weights = b->weights[size_t(h)];
                col.push_back(t);
            }
        }
        out.push_back(std::move(col));
    }
    if (out.empty() && error) *error = "no model to show";
    return out;
}

Figure gridFigure(const Results& res, const ViewState& v, const QString& heads,
                  const FigureStyle& style, QString* error) {
    Figure f;
    f.style = style;
    f.columns = selectTables(res, v, heads, error);
    for (const auto& col : f.columns) {
        const auto& t = col.front();
        f.columnTitles.push_back(
            v.allLayersOf >= 0
                ? QString("%1 · layer %2").arg(QString::fromStdString(t.model)).arg(t.layer)
                : QString::fromStdString(t.model));
    }
    return f;
}

void paintFigure(QPainter& p, const Figure& f, const QRectF& page) {
    const FigureStyle& s = f.style;
    const double fs = s.fontSize;
    QPainterPath bg;
    bg.addRect(page);
    p.fillPath(bg, Qt::white);  // a path, not a rectangle: rectangles are the cells
    p.setRenderHint(QPainter::Antialiasing, false);
    QRectF area = page.adjusted(fs, fs, -fs, -fs);
    if (!s.title.isEmpty()) {
        p.setFont(figureFont(s, fs * 1.4, true));
        p.setPen(Qt::black);
        const double h = fs * 2.2;
        p.drawText(QRectF(area.left(), area.top(), area.width(), h), Qt::AlignCenter, s.title);
        area.setTop(area.top() + h);
    }
    const int M = int(f.columns.size());
    int R = 0;
    Scalar globalMax = 0;
    for (const auto& col : f.columns) {
        R = std::max(R, int(col.size()));
        for (const auto& t : col)
            globalMax = std::max(globalMax, t.weights.size() ? t.weights.maxCoeff() : Scalar(0));
    }
    if (M == 0 || R == 0) return;
    const bool bar = s.colorbar && s.shared;
    const double barW = bar ? fs * 6 : 0;
    QRectF grid = area.adjusted(0, 0, -barW, 0);
    // Layout: models as columns and heads as rows; the transpose; or, with a single row or
    // column of panels, the panels wrapped into rows; whichever gives the largest panels.
    const double colTitleH = fs * 2;
    std::vector<std::pair<int, int>> flat;  // (column, row) of every panel, model-major
    for (int c = 0; c < M; ++c)
        for (int r = 0; r < int(f.columns[size_t(c)].size()); ++r) flat.emplace_back(c, r);
    struct Layout {
        int nc, nr;
        bool columnTitles;
        std::function<QPoint(int c, int r, int i)> at;
    };
    std::vector<Layout> layouts{{M, R, true, [](int c, int r, int) { return QPoint(c, r); }},
                                {R, M, false, [](int c, int r, int) { return QPoint(r, c); }}};
    if (M == 1 || R == 1) {
        const int n = int(flat.size());
        for (int k = 2; k < n; ++k) {
            const int nc = (n + k - 1) / k;
            layouts.push_back(
                {nc, k, false, [nc](int, int, int i) { return QPoint(i % nc, i / nc); }});
        }
    }
    auto sideOf = [&](const Layout& l) {
        return std::min(grid.width() / l.nc,
                        (grid.height() - (l.columnTitles ? colTitleH : 0)) / l.nr);
    };
    size_t best = 0;
    for (size_t k = 1; k < layouts.size(); ++k)
        if (sideOf(layouts[k]) > sideOf(layouts[best]) * 1.15) best = k;
    const Layout& L = layouts[best];
    if (L.columnTitles) grid.setTop(grid.top() + colTitleH);
    const double side = sideOf(L);
    const double cw = grid.width() / L.nc, ch = std::min(grid.height() / L.nr, side * 1.25);
    QCPColorGradient gradient = colormap(s.colormap);
    // Text shrunk until it fits its box.
    auto fitted = [&](const QRectF& box, const QString& text, double size, bool bold) {
        QFont font = figureFont(s, size, bold);
        while (font.pointSizeF() > 3 && QFontMetricsF(font).horizontalAdvance(text) > box.width())
            font.setPointSizeF(font.pointSizeF() * 0.9);
        p.setFont(font);
        p.setPen(Qt::black);
        p.drawText(box, Qt::AlignCenter, text);
    };
    for (size_t i = 0; i < flat.size(); ++i) {
        const auto [c, r] = flat[i];
        const QPoint g = L.at(c, r, int(i));
        if (L.columnTitles && r == 0)
            fitted(QRectF(grid.left() + c * cw, grid.top() - colTitleH, cw, colTitleH),
                   f.columnTitles[size_t(c)], fs * 1.15, true);
        {
            const WeightTable& t = f.columns[size_t(c)][size_t(r)];
            const QRectF box(grid.left() + g.x() * cw, grid.top() + g.y() * ch, cw, ch);
            const double titleH = fs * 1.6;
            const QString block = kindLabel(t.block);
            const QString head = t.head == "mean" ? QString("mean of heads")
                                                  : "head " + QString::fromStdString(t.head);
            const QString where = QString("%1 L%2 · %3").arg(block).arg(t.layer).arg(head);
            fitted(QRectF(box.left(), box.top(), box.width(), titleH),
                   L.columnTitles ? where : f.columnTitles[size_t(c)] + " · " + where, fs,
                   !L.columnTitles);
            // Labels: shrink the font until the labels leave room for the cells.
            const int nq = int(t.weights.rows()), nk = int(t.weights.cols());
            double lf = fs;
            double labelW = 0, cell = 0;
            QRectF inner;
            for (int tries = 0; tries < 8; ++tries, lf *= 0.85) {
                const QFontMetricsF fm(figureFont(s, lf));
                labelW = 0;
                for (const auto& q : t.queries)
                    labelW = std::max(labelW, fm.horizontalAdvance(QString::fromStdString(q)));
                for (const auto& k : t.keys)
                    labelW = std::max(labelW, fm.horizontalAdvance(QString::fromStdString(k)));
                inner = QRectF(box.left() + labelW + 3, box.top() + titleH,
                               box.width() - labelW - 6, box.height() - titleH - labelW - 4);
                cell = std::min(inner.width() / std::max(1, nk), inner.height() / std::max(1, nq));
                if (cell >= fm.height() * 0.9 || inner.width() <= 0) break;
            }
            if (cell <= 0) continue;
            const double x0 = inner.left() + (inner.width() - cell * nk) / 2, y0 = inner.top();
            const double hi = s.shared ? globalMax : (t.weights.size() ? t.weights.maxCoeff() : 1);
            for (int i = 0; i < nq; ++i)
                for (int j = 0; j < nk; ++j)
                    p.fillRect(QRectF(x0 + j * cell, y0 + i * cell, cell, cell),
                               cellColor(gradient, t.weights(i, j), hi, s.scaling));
            p.setFont(figureFont(s, lf));
            p.setPen(Qt::black);
            for (int i = 0; i < nq; ++i)
                p.drawText(QRectF(box.left(), y0 + i * cell, x0 - box.left() - 2, cell),
                           Qt::AlignRight | Qt::AlignVCenter,
                           QString::fromStdString(t.queries[size_t(i)]));
            // Key labels under their column: upright when every word fits its cell (e.g. CJK
            // characters; specials such as <eos> may still read upwards), else all upwards.
            const QFontMetricsF keyMetrics(p.font());
            auto fits = [&](const QString& k) {
                return keyMetrics.horizontalAdvance(k) <= cell * 0.95;
            };
            bool upright = true;
            for (const auto& k : t.keys)
                if (k.empty() || k[0] != '<') upright = upright && fits(QString::fromStdString(k));
            for (int j = 0; j < nk; ++j) {
                const QString key = QString::fromStdString(t.keys[size_t(j)]);
                if (upright && fits(key)) {
                    p.drawText(QRectF(x0 + j * cell, y0 + nq * cell + 1, cell, keyMetrics.height()),
                               Qt::AlignHCenter | Qt::AlignTop, key);
                    continue;
                }
                p.save();
                p.translate(x0 + (j + 0.5) * cell, y0 + nq * cell + 2);
                p.rotate(-90);
                p.drawText(QRectF(-labelW - 2, -cell / 2, labelW + 2, cell),
                           Qt::AlignRight | Qt::AlignVCenter, key);
                p.restore();
            }
        }
    }
    if (bar) {  // colour bar: a gradient path and tick labels, as tall as the panels
        const double used = std::min(grid.height(), ch * L.nr);
        const QRectF b(page.right() - fs - barW + fs, grid.top() + fs, fs * 1.2,
                       std::max(fs * 4, std::min(used - 2 * fs, fs * 30)));
        QLinearGradient lg(b.bottomLeft(), b.topLeft());
        for (int k = 0; k <= 10; ++k)
            lg.setColorAt(k / 10.0,
                          cellColor(gradient, globalMax * k / 10.0, globalMax, Scaling::Linear));
        QPainterPath path;
        path.addRect(b);
        p.fillPath(path, lg);
        p.setFont(figureFont(s, fs * 0.9));
        for (int k = 0; k <= 4; ++k) {
            double frac = k / 4.0, value = globalMax * frac;
            if (s.scaling == Scaling::Power) value = globalMax * frac * frac;
            if (s.scaling == Scaling::Log) value = globalMax * std::pow(10.0, 4 * (frac - 1));
            const double y = b.bottom() - frac * b.height();
            p.drawText(QRectF(b.right() + 2, y - fs, fs * 4, 2 * fs),
                       Qt::AlignLeft | Qt::AlignVCenter, QString::number(value, 'g', 2));
        }
    }
}

ProfileFigure profileFigure(const Results& res, const ViewState& v, int column,
                            const FigureStyle& style, QString* error) {
    ProfileFigure f;
    f.style = style;
    QString& query = f.query;
    for (int c = 0; c < int(res.size()); ++c) {
        if (column >= 0 && c != column) continue;
        const ColumnResult& r = res[size_t(c)];
        const CapturedBlock* b =
            r.error.isEmpty() ? findBlock(r.analysis, v.kind, v.layer) : nullptr;
        if (!b) continue;
        const QStringList q = queryTokens(r.analysis, v.kind);
        if (v.query < 0 || v.query >= q.size()) continue;
        if (query.isEmpty()) query = q[v.query];
        const QStringList k = keyTokens(r.analysis, v.kind);
        if (k.size() > f.keys.size()) f.keys = k;
        auto line = [&](const QString& name, const Mat& w) {
            std::vector<double> y;
            for (Eigen::Index j = 0; j < w.cols(); ++j) y.push_back(w(v.query, j));
            f.lines.emplace_back(name, y);
        };
        if (column < 0) {
            line(r.name, headMean(*b));
        } else {
            for (int h = 0; h < b->heads; ++h)
                line(QString("head %1").arg(h), b->weights[size_t(h)]);
        }
    }
    if (f.lines.empty() && error) *error = "no model has this query in this block";
    f.title = style.title.isEmpty() ? QString("Weights of query %1 \"%2\" · %3 L%4")
                                          .arg(v.query)
                                          .arg(query, kindLabel(v.kind))
                                          .arg(v.layer)
                                    : style.title;
    return f;
}

void paintProfile(QPainter& p, const ProfileFigure& f, const QRectF& page) {
    const double fs = f.style.fontSize;
    QPainterPath bg;
    bg.addRect(page);
    p.fillPath(bg, Qt::white);
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setPen(Qt::black);
    p.setFont(figureFont(f.style, fs * 1.3, true));
    p.drawText(QRectF(page.left(), page.top() + fs * 0.5, page.width(), fs * 2), Qt::AlignCenter,
               f.title);
    const QFontMetricsF fm(figureFont(f.style, fs));
    double labelH = 0;
    for (const auto& k : f.keys) labelH = std::max(labelH, fm.horizontalAdvance(k));
    double legendW = fs * 4;
    for (const auto& line : f.lines)
        legendW = std::max(legendW, fm.horizontalAdvance(line.first) + fs * 4);
    const QRectF plot(page.left() + fs * 5, page.top() + fs * 3, page.width() - fs * 6 - legendW,
                      page.height() - fs * 4 - labelH);
    double top = 0;
    for (const auto& [n, y] : f.lines)
        for (double x : y) top = std::max(top, x);
    top = top > 0 ? top * 1.1 : 1;
    const int nk = std::max(1, int(f.keys.size()));
    auto X = [&](double j) { return plot.left() + (j + 0.5) * plot.width() / nk; };
    auto Y = [&](double w) { return plot.bottom() - w / top * plot.height(); };
    p.setFont(figureFont(f.style, fs));
    p.setPen(QPen(Qt::black, 0.6));
    p.drawLine(plot.bottomLeft(), plot.bottomRight());
    p.drawLine(plot.bottomLeft(), plot.topLeft());
    for (int k = 0; k <= 4; ++k) {
        const double w = top * k / 4;
        p.drawText(QRectF(page.left(), Y(w) - fs, fs * 4.6, 2 * fs),
                   Qt::AlignRight | Qt::AlignVCenter, QString::number(w, 'f', 2));
    }
    for (int j = 0; j < int(f.keys.size()); ++j) {
        p.save();
        p.translate(X(j), plot.bottom() + 3);
        p.rotate(-90);
        p.drawText(QRectF(-labelH - 2, -fs, labelH + 2, 2 * fs), Qt::AlignRight | Qt::AlignVCenter,
                   f.keys[j]);
        p.restore();
    }
    for (size_t l = 0; l < f.lines.size(); ++l) {
        const QColor c = lineColor(int(l));
        QPainterPath path;
        const auto& y = f.lines[l].second;
        for (size_t j = 0; j < y.size(); ++j) {
            if (j == 0) {
                path.moveTo(X(0), Y(y[0]));
            } else {
                path.lineTo(X(double(j)), Y(y[j]));
            }
        }
        // Dash patterns differ too, so identical lines (e.g. heads with the same offset) show.
        static const Qt::PenStyle styles[] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine,
                                              Qt::DashDotLine};
        p.setPen(QPen(c, 1.2, styles[l % 4]));
        p.setBrush(Qt::NoBrush);
        p.drawPath(path);
        const double ly = plot.top() + l * fs * 1.5;
        p.drawLine(QPointF(plot.right() + fs, ly), QPointF(plot.right() + fs * 2.5, ly));
        p.setPen(Qt::black);
        p.drawText(QRectF(plot.right() + fs * 3, ly - fs, legendW - fs * 3, 2 * fs),
                   Qt::AlignLeft | Qt::AlignVCenter, f.lines[l].first);
    }
}

FigureStyle styleOf(const ViewState& v) {
    FigureStyle s;
    s.colormap = v.colormap;
    s.scaling = v.scaling;
    s.shared = v.shared;
    return s;
}

FigurePainter gridPainter(const Results& res, const ViewState& v, const QString& heads,
                          const FigureStyle& style, QString* error) {
    QString e;
    auto fig = std::make_shared<Figure>(gridFigure(res, v, heads, style, &e));
    if (!e.isEmpty()) {
        if (error) *error = e;
        return {};
    }
    return [fig](QPainter& p, const QRectF& r) { paintFigure(p, *fig, r); };
}

FigurePainter profilePainter(const Results& res, const ViewState& v, int column,
                             const FigureStyle& style, QString* error) {
    QString e;
    auto fig = std::make_shared<ProfileFigure>(profileFigure(res, v, column, style, &e));
    if (!e.isEmpty()) {
        if (error) *error = e;
        return {};
    }
    return [fig](QPainter& p, const QRectF& r) { paintProfile(p, *fig, r); };
}

std::string exportDataBytes(const Results& res, const std::vector<ModelColumn>& columns,
                            const ViewState& v, const QString& heads, const QString& ext) {
    if (res.empty() || res.size() != columns.size())
        throw Error("nothing to export yet (the analysis is still running)");
    if (ext == "json") {
        FloatJson j = FloatJson::array();
        for (size_t c = 0; c < res.size(); ++c) {
            const ModelColumn& m = columns[c];
            j.push_back(attentionDump((m.path.isEmpty() ? m.name : m.path).toStdString(),
                                      m.model->config(), res[c].analysis));
        }
        return (res.size() == 1 ? j[0] : j).dump() + "\n";
    }
    if (ext != "csv" && ext != "npy")
        throw Error("the data format comes from the extension: .csv, .json or .npy");
    QString e;
    std::vector<WeightTable> tables;
    for (auto& col : selectTables(res, v, heads, &e))
        for (auto& t : col) tables.push_back(std::move(t));
    if (!e.isEmpty()) throw Error(e.toStdString());
    return ext == "csv" ? weightsCsv(tables) : weightsNpy(tables);
}

bool parseFigureSize(const QString& text, QSizeF* size, bool* named, QString* error) {
    *named = true;
    if (text == "slide") {
        *size = QSizeF(960, 540);
    } else if (text == "column") {
        *size = QSizeF(252, 189);
    } else if (text == "page") {
        *size = QSizeF(504, 360);
    } else {
        *named = false;
        const QStringList wh = text.split('x');
        bool okW = false, okH = false;
        const double w = wh.value(0).toDouble(&okW), h = wh.value(1).toDouble(&okH);
        if (wh.size() != 2 || !okW || !okH || w < 16 || h < 16 || w > 20000 || h > 20000) {
            if (error)
                *error = QString("size '%1' must be slide, column, page or WxH (16 to 20000 each)")
                             .arg(text);
            return false;
        }
        *size = QSizeF(w, h);
    }
    return true;
}

bool writeFigure(const QString& path, QSizeF size, bool named, int dpi, const FigurePainter& paint,
                 QString* error) {
    const QString ext = QFileInfo(path).suffix().toLower();
    if (ext != "svg" && ext != "pdf" && ext != "png") {
        if (error)
            *error = QString("'%1': the figure format comes from the extension: .svg, .pdf or .png")
                         .arg(path);
        return false;
    }
    if (dpi < 36 || dpi > 2400) {
        if (error) *error = QString("dpi %1 is out of range (36 to 2400)").arg(dpi);
        return false;
    }
    // Rendered in memory, then written by the engine's atomic writer, which checks every
    // write (QSaveFile's buffered flush can hide a full disk).
    QBuffer file;
    file.open(QIODevice::WriteOnly);
    bool ok = true;
    if (ext == "svg") {
        QSvgGenerator svg;
        svg.setOutputDevice(&file);
        svg.setSize(size.toSize());
        svg.setViewBox(QRectF(QPointF(0, 0), size));
        svg.setResolution(72);  // 1 unit = 1 point
        svg.setTitle("attnviz figure");
        QPainter p(&svg);
        paint(p, QRectF(QPointF(0, 0), size));
        ok = p.end();
    } else if (ext == "pdf") {
        QPdfWriter pdf(&file);
        pdf.setPageSize(QPageSize(size, QPageSize::Point));
        pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
        pdf.setResolution(72);
        pdf.setCreator("attnviz");
        QPainter p(&pdf);
        paint(p, QRectF(QPointF(0, 0), size));
        ok = p.end();
    } else {
        const QSize px = named ? (size * dpi / 72.0).toSize() : size.toSize();
        QImage img(px, QImage::Format_ARGB32);
        // Paint at 72 dpi so that a point is a painter unit, then record the real DPI.
        img.setDotsPerMeterX(int(std::lround(72 / 0.0254)));
        img.setDotsPerMeterY(int(std::lround(72 / 0.0254)));
        img.fill(Qt::white);
        {
            QPainter p(&img);
            // Paint in points: fonts and lines keep their size relative to the page.
            const double scale = dpi / 72.0;
            const QSizeF pt = named ? size : QSizeF(px.width() / scale, px.height() / scale);
            p.scale(double(px.width()) / pt.width(), double(px.height()) / pt.height());
            paint(p, QRectF(QPointF(0, 0), pt));
        }
        img.setDotsPerMeterX(int(std::lround(dpi / 0.0254)));
        img.setDotsPerMeterY(int(std::lround(dpi / 0.0254)));
        ok = img.save(&file, "PNG");
    }
    if (!ok) {
        if (error) *error = QString("cannot render '%1'").arg(path);
        return false;
    }
    try {
        writeFileAtomically(path.toStdString(), file.data().toStdString());
    } catch (const std::exception& e) {
        if (error) *error = QString::fromUtf8(e.what());
        return false;
    }
    return true;
}

}  // namespace attnviz::ui
