// SPDX-License-Identifier: GPL-3.0-or-later
#include "figure.h"

#include <QFontDatabase>
#include <QPainterPath>
#include <cmath>

#include "colormaps.h"
#include "lines.h"
#include "words.h"

namespace attnviz::render {
namespace {

QFont styleFont(const FigureStyle& s, double size, bool bold = false) {
    return figureFont(s.fontFamily, size, bold);
}

QString qt(const std::string& s) {
    return QString::fromStdString(s);
}

void fillBackground(QPainter& p, const QRectF& page) {
    QPainterPath bg;  // a path, not a rectangle: rectangles are the cells
    bg.addRect(page);
    p.fillPath(bg, Qt::white);
}

// Text shrunk until it fits its box.
void drawFitted(QPainter& p, const FigureStyle& s, const QRectF& box, const QString& text,
                double size, bool bold) {
    QFont font = styleFont(s, size, bold);
    while (font.pointSizeF() > 3 && QFontMetricsF(font).horizontalAdvance(text) > box.width())
        font.setPointSizeF(font.pointSizeF() * 0.9);
    p.setFont(font);
    p.setPen(Qt::black);
    p.drawText(box, Qt::AlignCenter, text);
}

// Panels placed as a grid of nc x nr; at(c, r, i) is the place of panel i, (column c, row r).
struct Arrangement {
    int nc, nr;
    bool columnTitles;
    std::function<QPoint(int c, int r, int i)> at;
    int span = 1;  // grid columns under one column title
};

// Models as columns and heads down, each model's heads possibly in a block of `a` columns (so
// that a wide page holds larger panels, models still side by side under their titles); the
// transpose; or, with a single row or column of panels, the panels wrapped into rows.
std::vector<Arrangement> arrangements(int M, int R, int panels, FigureStyle::Arrange how) {
    const Arrangement rows{R, M, false, [](int c, int r, int) { return QPoint(r, c); }};
    if (how == FigureStyle::Arrange::Rows) return {rows};
    std::vector<Arrangement> out;
    for (int a = 1; a <= R; ++a) {
        const int nr = (R + a - 1) / a;
        if (a > 1 && (R + nr - 1) / nr != a) continue;  // the same rows with fewer columns
        out.push_back(
            {M * a, nr, true, [a](int c, int r, int) { return QPoint(c * a + r % a, r / a); }, a});
    }
    if (how == FigureStyle::Arrange::Auto) out.push_back(rows);
    if (M == 1 || R == 1)
        for (int k = 2; k <= panels; ++k) {
            const int nc = (panels + k - 1) / k;
            out.push_back({nc, k, false, [nc](int, int, int i) { return QPoint(i % nc, i / nc); }});
        }
    return out;
}

// A colour bar beside each panel: the scales are per panel, and a figure always says what
// its colours mean.
bool perPanelColorBar(const FigureStyle& s) {
    return s.colorbar && !s.shared && !s.lines;
}

// Token labels, font shrunk until they leave room for the cells.
void placeCells(PanelPlace& pl, const SelectedTable& t, const FigureStyle& s, double titleH) {
    const int nq = int(t.weights->rows()), nk = int(t.weights->cols());
    const QRectF& box = pl.box;
    double lf = s.fontSize;
    QRectF inner;
    for (int tries = 0; tries < 8; ++tries, lf *= 0.85) {
        const QFontMetricsF fm(styleFont(s, lf));
        pl.labelWidth = 0;
        for (const auto& q : *t.queries)
            pl.labelWidth = std::max(pl.labelWidth, fm.horizontalAdvance(qt(q)));
        for (const auto& k : *t.keys)
            pl.labelWidth = std::max(pl.labelWidth, fm.horizontalAdvance(qt(k)));
        // Each panel's own colour bar (per-panel scales) takes a strip on the right.
        const double ownBar = perPanelColorBar(s) ? s.fontSize * 5 : 0;
        inner = QRectF(box.left() + pl.labelWidth + 3, box.top() + titleH,
                       box.width() - pl.labelWidth - 6 - ownBar,
                       box.height() - titleH - pl.labelWidth - 4);
        pl.cell = std::min(inner.width() / std::max(1, nk), inner.height() / std::max(1, nq));
        pl.labelFont = lf;
        if (pl.cell >= fm.height() * 0.9 || inner.width() <= 0) break;
    }
    pl.cell = std::max(0.0, pl.cell);
    pl.origin = QPointF(inner.left() + (inner.width() - pl.cell * nk) / 2, inner.top());
}

void paintLabels(QPainter& p, const PanelPlace& pl, const SelectedTable& t, const FigureStyle& s) {
    const int nq = int(t.weights->rows()), nk = int(t.weights->cols());
    const double x0 = pl.origin.x(), y0 = pl.origin.y(), cell = pl.cell;
    p.setFont(styleFont(s, pl.labelFont));
    p.setPen(Qt::black);
    for (int i = 0; i < nq; ++i)
        p.drawText(QRectF(pl.box.left(), y0 + i * cell, x0 - pl.box.left() - 2, cell),
                   Qt::AlignRight | Qt::AlignVCenter, qt((*t.queries)[size_t(i)]));
    // Key labels under their column: upright when every word fits its cell (e.g. CJK
    // characters; specials such as <eos> may still read upwards), else all upwards.
    const QFontMetricsF keyMetrics(p.font());
    auto fits = [&](const QString& k) { return keyMetrics.horizontalAdvance(k) <= cell * 0.95; };
    bool upright = true;
    for (const auto& k : *t.keys)
        if (k.empty() || k[0] != '<') upright = upright && fits(qt(k));
    for (int j = 0; j < nk; ++j) {
        const QString key = qt((*t.keys)[size_t(j)]);
        if (upright && fits(key)) {
            p.drawText(QRectF(x0 + j * cell, y0 + nq * cell + 1, cell, keyMetrics.height()),
                       Qt::AlignHCenter | Qt::AlignTop, key);
            continue;
        }
        p.save();
        p.translate(x0 + (j + 0.5) * cell, y0 + nq * cell + 2);
        p.rotate(-90);
        p.drawText(QRectF(-pl.labelWidth - 2, -cell / 2, pl.labelWidth + 2, cell),
                   Qt::AlignRight | Qt::AlignVCenter, key);
        p.restore();
    }
}

void paintPanel(QPainter& p, const Figure& f, const FigureLayout& L, const PanelPlace& pl,
                const ColorMap& map) {
    const FigureStyle& s = f.style;
    const SelectedColumn& col = f.selection.columns[size_t(pl.column)];
    const SelectedTable& t = col.tables[size_t(pl.row)];
    const QString where = qt(t.where);
    drawFitted(p, s, QRectF(pl.box.left(), pl.box.top(), pl.box.width(), s.fontSize * 1.6),
               L.columnTitles ? where : qt(col.title) + " · " + where, s.fontSize, !L.columnTitles);
    if (s.lines) {
        LinesStyle ls;
        ls.fontFamily = s.fontFamily;
        ls.fontSize = s.fontSize;
        ls.title = false;  // drawn above
        const double top = s.fontSize * 1.8;
        paintLines(p, t, ls, pl.box.adjusted(0, top, 0, 0));
        return;
    }
    if (pl.cell <= 0) {
        // No room for the cells beside the labels: say so rather than leave a blank panel.
        p.setPen(Qt::darkGray);
        p.setFont(styleFont(s, s.fontSize * 0.9));
        p.drawText(
            pl.box.adjusted(0, s.fontSize * 1.8, 0, 0), Qt::AlignCenter | Qt::TextWordWrap,
            Words(s.language)
                .translate("Figure", "%1 × %2 cells do not fit here: a larger page or fewer panels")
                .arg(t.weights->rows())
                .arg(t.weights->cols()));
        return;
    }
    const Mat& w = *t.weights;
    for (int i = 0; i < int(w.rows()); ++i)
        for (int j = 0; j < int(w.cols()); ++j)
            p.fillRect(
                QRectF(pl.origin.x() + j * pl.cell, pl.origin.y() + i * pl.cell, pl.cell, pl.cell),
                cellColor(map, w(i, j), t.scaleMax, s.scaling, t.diverging));
    paintLabels(p, pl, t, s);
    if (perPanelColorBar(s)) {
        const QRectF bar(pl.origin.x() + pl.cell * double(w.cols()) + s.fontSize * 0.6,
                         pl.origin.y(), s.fontSize * 0.8, pl.cell * double(w.rows()));
        paintColorBar(p, bar, s, t.scaleMax, t.diverging);
    }
}

// The colour bar of a figure: the shared scale's, as tall as the panels.
void paintColorbar(QPainter& p, const Figure& f, const QRectF& b, const ColorMap&) {
    paintColorBar(p, b, f.style, f.selection.maxWeight, f.selection.diverging);
}

}  // namespace

void paintColorBar(QPainter& p, const QRectF& b, const FigureStyle& s, double top, bool diverging) {
    const ColorMap map = tableColorMap(s.colormap, diverging);
    const double fs = s.fontSize;
    QLinearGradient lg(b.bottomLeft(), b.topLeft());
    for (int k = 0; k <= 10; ++k) lg.setColorAt(k / 10.0, QColor::fromRgb(map.rgb(k / 10.0)));
    QPainterPath path;
    path.addRect(b);
    p.fillPath(path, lg);
    p.setFont(styleFont(s, fs * 0.9));
    p.setPen(Qt::black);
    for (int k = 0; k <= 4; ++k) {
        const double frac = k / 4.0, value = diverging ? signedScaleValue(frac, top, s.scaling)
                                                       : scaleValue(frac, top, s.scaling);
        const double y = b.bottom() - frac * b.height();
        p.drawText(QRectF(b.right() + 2, y - fs, fs * 4, 2 * fs), Qt::AlignLeft | Qt::AlignVCenter,
                   QString::number(value, 'g', 2));
    }
}

QFont figureFont(const QString& family, double points, bool bold) {
    QFont f(family.isEmpty() ? figureFontFamily() : family);
    f.setPointSizeF(std::max(1.0, points));
    f.setBold(bold);
    return f;
}

QString figureFontFamily(const QString& language) {
    // Han characters drawn with the glyph shapes their readers expect: Taiwan's (TC) for
    // 繁體中文, mainland China's (SC) otherwise.
    const QStringList order =
        language == "zh_TW"
            ? QStringList{"Noto Sans CJK TC", "Noto Sans CJK SC", "Noto Sans CJK JP", "Noto Sans"}
            : QStringList{"Noto Sans CJK SC", "Noto Sans CJK JP", "Noto Sans"};
    const QStringList installed = QFontDatabase::families();
    for (const QString& f : order)
        if (installed.contains(f)) return f;
    return QFont().family();
}

FigureStyle withFont(FigureStyle s) {
    if (s.fontFamily.isEmpty()) s.fontFamily = figureFontFamily(s.language);
    return s;
}

// Whether a label of the selection marks a word unknown to its model ("fox⁇").
bool marksUnknownWords(const Selection& sel) {
    const std::string mark = "\u2047";
    for (const auto* t : tablesOf(sel))
        for (const auto* labels : {t->queries.get(), t->keys.get()})
            if (labels)
                for (const auto& l : *labels)
                    if (l.find(mark) != std::string::npos) return true;
    return false;
}

FigureLayout layoutFigure(const Figure& f, const QRectF& page) {
    const FigureStyle& s = f.style;
    const double fs = s.fontSize;
    FigureLayout L;
    QRectF area = page.adjusted(fs, fs, -fs, -fs);
    if (!s.title.isEmpty()) area.setTop(area.top() + fs * 2.2);
    if (marksUnknownWords(f.selection)) {
        L.note = QRectF(area.left(), area.bottom() - fs * 1.6, area.width(), fs * 1.6);
        area.setBottom(area.bottom() - fs * 1.8);
    }
    const auto& cols = f.selection.columns;
    const int M = int(cols.size()), R = f.selection.rows;
    if (M == 0 || R == 0) return L;
    const bool bar = s.colorbar && s.shared && !s.lines;  // lines carry no colour scale
    L.grid = area.adjusted(0, 0, bar ? -fs * 6 : 0, 0);
    std::vector<std::pair<int, int>> flat;  // (column, row) of every panel, model-major
    for (int c = 0; c < M; ++c)
        for (int r = 0; r < int(cols[size_t(c)].tables.size()); ++r) flat.emplace_back(c, r);
    const double colTitleH = fs * 2;
    const auto options = arrangements(M, R, int(flat.size()), s.arrange);
    auto sideOf = [&](const Arrangement& a) {
        return std::min(L.grid.width() / a.nc,
                        (L.grid.height() - (a.columnTitles ? colTitleH : 0)) / a.nr);
    };
    size_t best = 0;  // the largest panels
    for (size_t k = 1; k < options.size(); ++k)
        if (sideOf(options[k]) > sideOf(options[best]) * 1.15) best = k;
    const Arrangement& A = options[best];
    const double side = sideOf(A);
    L.columnTitles = A.columnTitles;
    L.columnSpan = A.span;
    L.columnTitleHeight = A.columnTitles ? colTitleH : 0;
    L.grid.setTop(L.grid.top() + L.columnTitleHeight);
    L.columnWidth = L.grid.width() / A.nc;
    const double ch = std::min(L.grid.height() / A.nr, side * 1.25);
    for (size_t i = 0; i < flat.size(); ++i) {
        const auto [c, r] = flat[i];
        const QPoint g = A.at(c, r, int(i));
        PanelPlace pl;
        pl.column = c;
        pl.row = r;
        pl.box = QRectF(L.grid.left() + g.x() * L.columnWidth, L.grid.top() + g.y() * ch,
                        L.columnWidth, ch);
        placeCells(pl, cols[size_t(c)].tables[size_t(r)], s, fs * 1.6);
        L.panels.push_back(pl);
    }
    if (bar) {
        const double used = std::min(L.grid.height(), ch * A.nr);
        L.colorbar = QRectF(page.right() - fs * 6, L.grid.top() + fs, fs * 1.2,
                            std::max(fs * 4, std::min(used - 2 * fs, fs * 30)));
    }
    return L;
}

void paintFigure(QPainter& p, const Figure& f, const QRectF& page) {
    const FigureStyle& s = f.style;
    const double fs = s.fontSize;
    fillBackground(p, page);
    p.setRenderHint(QPainter::Antialiasing, false);
    if (!s.title.isEmpty()) {
        p.setFont(styleFont(s, fs * 1.4, true));
        p.setPen(Qt::black);
        p.drawText(QRectF(page.left() + fs, page.top() + fs, page.width() - 2 * fs, fs * 2.2),
                   Qt::AlignCenter, s.title);
    }
    const FigureLayout L = layoutFigure(f, page);
    const ColorMap map = tableColorMap(s.colormap, f.selection.diverging);
    for (const PanelPlace& pl : L.panels) {
        if (L.columnTitles && pl.row == 0)
            drawFitted(p, s,
                       QRectF(L.grid.left() + pl.column * L.columnSpan * L.columnWidth,
                              L.grid.top() - L.columnTitleHeight, L.columnSpan * L.columnWidth,
                              L.columnTitleHeight),
                       qt(f.selection.columns[size_t(pl.column)].title), fs * 1.15, true);
        paintPanel(p, f, L, pl, map);
    }
    if (!L.colorbar.isEmpty()) paintColorbar(p, f, L.colorbar, map);
    if (!L.note.isEmpty()) {
        drawFitted(p, s, L.note,
                   Words(s.language)
                       .translate("Figure",
                                  "⁇ marks a word the model does not know: it reads <unk> there."),
                   fs, false);
    }
}

void paintProfile(QPainter& p, const ProfileFigure& f, const QRectF& page) {
    const double fs = f.style.fontSize;
    const Profile& pr = f.profile;
    fillBackground(p, page);
    p.setRenderHint(QPainter::Antialiasing, true);
    drawFitted(p, f.style, QRectF(page.left(), page.top() + fs * 0.5, page.width(), fs * 2),
               f.style.title.isEmpty() ? qt(pr.title) : f.style.title, fs * 1.3, true);
    const QFontMetricsF fm(styleFont(f.style, fs));
    double labelH = 0;
    for (const auto& k : pr.keys) labelH = std::max(labelH, fm.horizontalAdvance(qt(k)));
    double legendW = fs * 4;
    for (const auto& line : pr.lines)
        legendW = std::max(legendW, fm.horizontalAdvance(qt(line.first)) + fs * 4);
    const QRectF plot(page.left() + fs * 5, page.top() + fs * 3, page.width() - fs * 6 - legendW,
                      page.height() - fs * 4 - labelH);
    double top = 0;
    for (const auto& [n, y] : pr.lines)
        for (double x : y) top = std::max(top, x);
    top = top > 0 ? top * 1.1 : 1;
    const int nk = std::max(1, int(pr.keys.size()));
    auto X = [&](double j) { return plot.left() + (j + 0.5) * plot.width() / nk; };
    auto Y = [&](double w) { return plot.bottom() - w / top * plot.height(); };
    p.setFont(styleFont(f.style, fs));
    p.setPen(QPen(Qt::black, 0.6));
    p.drawLine(plot.bottomLeft(), plot.bottomRight());
    p.drawLine(plot.bottomLeft(), plot.topLeft());
    for (int k = 0; k <= 4; ++k)
        p.drawText(QRectF(page.left(), Y(top * k / 4) - fs, fs * 4.6, 2 * fs),
                   Qt::AlignRight | Qt::AlignVCenter, QString::number(top * k / 4, 'f', 2));
    for (int j = 0; j < int(pr.keys.size()); ++j) {
        p.save();
        p.translate(X(j), plot.bottom() + 3);
        p.rotate(-90);
        p.drawText(QRectF(-labelH - 2, -fs, labelH + 2, 2 * fs), Qt::AlignRight | Qt::AlignVCenter,
                   qt(pr.keys[size_t(j)]));
        p.restore();
    }
    // Dash patterns differ too, so identical lines (e.g. heads with the same offset) show.
    for (size_t l = 0; l < pr.lines.size(); ++l) {
        QPainterPath path;
        const auto& y = pr.lines[l].second;
        for (size_t j = 0; j < y.size(); ++j)
            j == 0 ? path.moveTo(X(0), Y(y[0])) : path.lineTo(X(double(j)), Y(y[j]));
        p.setPen(QPen(lineColor(int(l)), 1.2, lineStyle(int(l))));
        p.setBrush(Qt::NoBrush);
        p.drawPath(path);
        const double ly = plot.top() + l * fs * 1.5;
        p.drawLine(QPointF(plot.right() + fs, ly), QPointF(plot.right() + fs * 2.5, ly));
        p.setPen(Qt::black);
        p.drawText(QRectF(plot.right() + fs * 3, ly - fs, legendW - fs * 3, 2 * fs),
                   Qt::AlignLeft | Qt::AlignVCenter, qt(pr.lines[l].first));
    }
}

FigurePainter gridPainter(const Selection& selection, const FigureStyle& style, QString* error) {
    QString e = QString::fromStdString(selection.error);
    if (e.isEmpty() && (selection.columns.empty() || selection.rows == 0)) e = "nothing to draw";
    if (!e.isEmpty()) {
        if (error) *error = e;
        return {};
    }
    auto fig = std::make_shared<Figure>(Figure{selection, withFont(style)});
    // Lines draw weights as strokes; signed tables (differences) are drawn as heatmaps.
    if (selection.diverging) fig->style.lines = false;
    return [fig](QPainter& p, const QRectF& r) { paintFigure(p, *fig, r); };
}

FigurePainter profilePainter(const Profile& profile, const FigureStyle& style, QString* error) {
    if (profile.lines.empty()) {
        if (error) *error = QString::fromStdString(profile.error);
        return {};
    }
    auto fig = std::make_shared<ProfileFigure>(ProfileFigure{profile, withFont(style)});
    return [fig](QPainter& p, const QRectF& r) { paintProfile(p, *fig, r); };
}

}  // namespace attnviz::render
