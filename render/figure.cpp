// SPDX-License-Identifier: GPL-3.0-or-later
#include "figure.h"

#include <QFontDatabase>
#include <QPainterPath>
#include <algorithm>
#include <cmath>

#include "colormaps.h"
#include "lines.h"
#include "token_labels.h"
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
    int span = 1;   // grid columns under one column title
    int bands = 1;  // bands of models, one above the other, each under its column titles
};

// Models as columns and heads down, each model's heads possibly in a block of `a` columns (so
// that a wide page holds larger panels, models still side by side under their titles), the
// models possibly wrapped into bands one above the other (so that many models on a page
// less wide fill it rather than leave blank bands above and below); the transpose; or, with a
// single row or column of panels, the panels wrapped into rows.
std::vector<Arrangement> arrangements(int M, int R, int panels, FigureStyle::Arrange how) {
    const Arrangement rows{R, M, false, [](int c, int r, int) { return QPoint(r, c); }};
    if (how == FigureStyle::Arrange::Rows) return {rows};
    std::vector<Arrangement> out;
    for (int b = 1; b <= M; ++b) {
        const int perBand = (M + b - 1) / b;                      // models in a band
        if (b > 1 && (M + perBand - 1) / perBand != b) continue;  // the same with fewer bands
        for (int a = 1; a <= R; ++a) {
            const int nr = (R + a - 1) / a;
            if (a > 1 && (R + nr - 1) / nr != a) continue;  // the same rows with fewer columns
            out.push_back({perBand * a, nr * b, true,
                           [a, nr, perBand](int c, int r, int) {
                               return QPoint((c % perBand) * a + r % a, (c / perBand) * nr + r / a);
                           },
                           a, b});
        }
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

// The longest token label of a table at the style's size.
double labelWidthOf(const SelectedTable& t, const QFontMetricsF& fm) {
    double w = 0;
    for (const auto* labels : {t.queries.get(), t.keys.get()})
        if (labels)
            for (const auto& l : *labels) w = std::max(w, fm.horizontalAdvance(qt(l)));
    return w;
}

// A panel's cells in its slot: `cellsLeft` is where the cells may start (after the query
// labels' room, or a gap), and the slot holds `slotW` x `slotH` points of cells, each
// `stretch` times as tall as wide. The labels keep the style's size: where they are taller
// than a cell, every k-th token is labelled (labelStep) rather than every label shrunk.
void placeCells(PanelPlace& pl, const SelectedTable& t, const FigureStyle& s, double titleH,
                double cellsLeft, double slotW, double slotH, double labelW, double stretch) {
    const int nq = int(t.weights->rows()), nk = int(t.weights->cols());
    pl.labelFont = s.fontSize;
    pl.labelWidth = labelW;
    pl.cell = std::max(0.0, std::min(slotW / std::max(1, nk), slotH / stretch / std::max(1, nq)));
    pl.cellH = pl.cell * stretch;
    // A label needs about 0.9 of its size in height (capitals and descenders of Latin text).
    // (The lines view draws its own labels.)
    pl.labelStep = pl.cell > 0 && !s.lines
                       ? std::max(1, int(std::ceil(s.fontSize * 0.9 / pl.cell - 1e-9)))
                       : 1;
    pl.origin = QPointF(cellsLeft + (slotW - pl.cell * nk) / 2, pl.box.top() + titleH);
}

void paintLabels(QPainter& p, const PanelPlace& pl, const SelectedTable& t, const FigureStyle& s) {
    const int nq = int(t.weights->rows()), nk = int(t.weights->cols()), step = pl.labelStep;
    const double x0 = pl.origin.x(), y0 = pl.origin.y(), cell = pl.cell, cellH = pl.cellH;
    p.setFont(styleFont(s, pl.labelFont));
    p.setPen(Qt::black);
    // Every step-th query, and the selected one whatever the step (as on screen).
    for (int i = 0; pl.queryLabels && i < nq; ++i)
        if (i == s.query || (i % step == 0 && (s.query < 0 || std::abs(i - s.query) >= step)))
            p.drawText(QRectF(x0 - pl.labelWidth - 3, y0 + i * cellH, pl.labelWidth + 1, cellH),
                       Qt::AlignRight | Qt::AlignVCenter | Qt::TextDontClip,
                       qt((*t.queries)[size_t(i)]));
    // Key labels under their column: upright when every word fits its cell (e.g. CJK
    // characters; specials such as <eos> may still read upwards), else all upwards.
    const QFontMetricsF keyMetrics(p.font());
    auto fits = [&](const QString& k) {
        return keyMetrics.horizontalAdvance(k) <= cell * step * 0.95;
    };
    bool upright = true;
    for (int j = 0; j < nk; j += step) {
        const auto& k = (*t.keys)[size_t(j)];
        if (k.empty() || k[0] != '<') upright = upright && fits(qt(k));
    }
    for (int j = 0; pl.keyLabels && j < nk; j += step) {
        const QString key = qt((*t.keys)[size_t(j)]);
        if (upright && fits(key)) {
            p.drawText(QRectF(x0 + j * cell - cell * (step - 1) / 2.0, y0 + nq * cellH + 1,
                              cell * step, keyMetrics.height()),
                       Qt::AlignHCenter | Qt::AlignTop, key);
            continue;
        }
        p.save();
        p.translate(x0 + (j + 0.5) * cell, y0 + nq * cellH + 2);
        p.rotate(-90);
        p.drawText(QRectF(-pl.labelWidth - 2, -cell / 2, pl.labelWidth + 2, cell),
                   Qt::AlignRight | Qt::AlignVCenter | Qt::TextDontClip, key);
        p.restore();
    }
}

void paintPanel(QPainter& p, const Figure& f, const FigureLayout& L, const PanelPlace& pl,
                const ColorMap& map) {
    const FigureStyle& s = f.style;
    const SelectedColumn& col = f.selection.columns[size_t(pl.column)];
    const SelectedTable& t = col.tables[size_t(pl.row)];
    const QString where = qt(t.where);
    // The panel's title centred on its cells (its box may hold the row's labels too).
    const double mid = pl.cell > 0 && !s.lines
                           ? pl.origin.x() + pl.cell * double(t.weights->cols()) / 2
                           : pl.box.center().x();
    // As wide as the cells and the gap beside them: neighbours' titles never overlap.
    const double titleW =
        pl.cell > 0 && !s.lines
            ? std::min(pl.box.width(), pl.cell * double(t.weights->cols()) + s.fontSize * 0.8)
            : pl.box.width();
    drawFitted(p, s, QRectF(mid - titleW / 2, pl.box.top(), titleW, s.fontSize * 1.6),
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
        p.drawText(pl.box.adjusted(0, s.fontSize * 1.8, 0, 0), Qt::AlignCenter | Qt::TextWordWrap,
                   Words(s.language)
                       .translate("Figure",
                                  "%1 × %2 cells do not fit beside labels of %3 pt: a larger page, "
                                  "fewer panels or smaller labels")
                       .arg(t.weights->rows())
                       .arg(t.weights->cols())
                       .arg(s.fontSize));
        return;
    }
    const Mat& w = *t.weights;
    for (int i = 0; i < int(w.rows()); ++i)
        for (int j = 0; j < int(w.cols()); ++j)
            p.fillRect(QRectF(pl.origin.x() + j * pl.cell, pl.origin.y() + i * pl.cellH, pl.cell,
                              pl.cellH),
                       cellColor(map, w(i, j), t.scaleMax, s.scaling, t.diverging));
    paintLabels(p, pl, t, s);
    if (s.outlineQuery && s.query >= 0 && s.query < int(w.rows())) {
        // The selected query's row outlined as the app's panels do (heatmap_panel.cpp): a
        // red frame around the row, drawn as a path (rectangles are the cells).
        const double pen = std::max(0.75, std::min(2.0, pl.cell * 0.12));
        QPainterPath frame;
        frame.addRect(QRectF(pl.origin.x() + pen / 2, pl.origin.y() + s.query * pl.cellH + pen / 2,
                             pl.cell * double(w.cols()) - pen, pl.cellH - pen));
        p.strokePath(frame, QPen(QColor(kQueryOutline), pen));
    }
    if (perPanelColorBar(s)) {
        const QRectF bar(pl.origin.x() + pl.cell * double(w.cols()) + s.fontSize * 0.6,
                         pl.origin.y(), s.fontSize * 0.8, pl.cellH * double(w.rows()));
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

namespace {

// Whether every table of the selection has the same query (else key) labels.
bool sameLabels(const std::vector<SelectedColumn>& cols, bool queries) {
    const std::vector<std::string>* first = nullptr;
    for (const auto& c : cols)
        for (const auto& t : c.tables) {
            const auto* labels = queries ? t.queries.get() : t.keys.get();
            if (!labels) return false;
            if (!first)
                first = labels;
            else if (*labels != *first)
                return false;
        }
    return first != nullptr;
}

// The room a panel takes besides its cells (points).
struct Room {
    double labelW;      // the longest token label
    double titleH;      // the panel's title
    double gapX, gapY;  // between panels without labels between them
    double ownBar;      // a per-panel colour bar
};

// An arrangement's grid: each panel's place, which panels carry token labels (all of them,
// or with shared labels the first of each grid row and the lowest of each grid column in its
// band), and the room besides cells of each grid column and row.
struct Slots {
    std::vector<QPoint> at;
    std::vector<bool> queryLabels, keyLabels;  // per panel
    std::vector<bool> labelColumn;             // per grid column: holds query labels
    std::vector<double> overW, overH;          // per grid column, row
    double sumW = 0, sumH = 0;
};

Slots slotsOf(const Arrangement& a, const std::vector<std::pair<int, int>>& flat, bool shareQ,
              bool shareK, const Room& room) {
    Slots g;
    const int perBand = std::max(1, a.nr / a.bands);
    std::vector<int> firstX(size_t(a.nr), a.nc), lastY(size_t(a.nc * a.bands), -1);
    for (size_t i = 0; i < flat.size(); ++i) {
        const QPoint p = a.at(flat[i].first, flat[i].second, int(i));
        g.at.push_back(p);
        firstX[size_t(p.y())] = std::min(firstX[size_t(p.y())], p.x());
        int& low = lastY[size_t(p.y() / perBand * a.nc + p.x())];
        low = std::max(low, p.y());
    }
    g.labelColumn.assign(size_t(a.nc), false);
    std::vector<bool> labelRow(size_t(a.nr), false);
    for (const QPoint& p : g.at) {
        g.queryLabels.push_back(!shareQ || p.x() == firstX[size_t(p.y())]);
        g.keyLabels.push_back(!shareK || p.y() == lastY[size_t(p.y() / perBand * a.nc + p.x())]);
        if (g.queryLabels.back()) g.labelColumn[size_t(p.x())] = true;
        if (g.keyLabels.back()) labelRow[size_t(p.y())] = true;
    }
    for (int x = 0; x < a.nc; ++x) {
        g.overW.push_back((g.labelColumn[size_t(x)] ? room.labelW + 6 : room.gapX) + room.ownBar);
        g.sumW += g.overW.back();
    }
    for (int y = 0; y < a.nr; ++y) {
        g.overH.push_back(room.titleH + (labelRow[size_t(y)] ? room.labelW + 4 : 0) + room.gapY);
        g.sumH += g.overH.back();
    }
    return g;
}

// What an arrangement is judged by: its cell side beside labels of the style's size, and
// that side counted smaller when its panels' titles are wider than its cells, by the square
// root of the ratio (the titles would shrink; much larger maps still win).
struct GridFit {
    const std::vector<std::pair<int, int>>& flat;  // (column, row) of every panel
    bool shareQ, shareK;
    Room room;
    QRectF grid;
    double colTitleH;
    int nq, nk;         // the most queries and keys of any table
    double whereW = 0;  // the widest panel title under a column title
    double fullW = 0;   // the same with its model's name, in bold
    double cell(const Arrangement& a) const {
        const Slots g = slotsOf(a, flat, shareQ, shareK, room);
        const double h = grid.height() - (a.columnTitles ? colTitleH * a.bands : 0);
        return std::min((grid.width() - g.sumW) / (a.nc * nk), (h - g.sumH) / (a.nr * nq));
    }
    double score(const Arrangement& a) const {
        const double side = cell(a), width = side * nk + room.gapX;
        const double title = a.columnTitles ? whereW : fullW;
        return width < title && width > 0 ? side * std::sqrt(width / title) : side;
    }
};

// The widest panel title of the figure, as under a column title and as with its model's name.
void panelTitleWidths(const Figure& f, double* where, double* full) {
    const QFontMetricsF fm(styleFont(f.style, f.style.fontSize));
    const QFontMetricsF bold(styleFont(f.style, f.style.fontSize, true));
    for (const auto& c : f.selection.columns)
        for (const auto& t : c.tables) {
            *where = std::max(*where, fm.horizontalAdvance(qt(t.where)));
            *full = std::max(*full, bold.horizontalAdvance(qt(c.title) + " · " + qt(t.where)));
        }
}

// Each column's title above its first panels, centred on their cells, as wide as their
// boxes.
void placeColumnTitles(const Figure& f, FigureLayout& L) {
    L.columnTitleBoxes.assign(f.selection.columns.size(), QRectF());
    if (!L.columnTitles) return;
    std::vector<double> left, right, cellsL, cellsR, top;
    const size_t n = f.selection.columns.size();
    left.assign(n, 1e18), right.assign(n, -1e18), cellsL = left, cellsR = right, top = left;
    for (const PanelPlace& pl : L.panels) {
        const size_t c = size_t(pl.column);
        const auto& t = f.selection.columns[c].tables[size_t(pl.row)];
        left[c] = std::min(left[c], pl.box.left());
        right[c] = std::max(right[c], pl.box.right());
        cellsL[c] = std::min(cellsL[c], pl.origin.x());
        cellsR[c] = std::max(cellsR[c], pl.origin.x() + pl.cell * double(t.weights->cols()));
        top[c] = std::min(top[c], pl.box.top());
    }
    for (size_t c = 0; c < n; ++c) {
        if (right[c] < left[c]) continue;
        const double w = right[c] - left[c];
        const double mid = cellsR[c] > cellsL[c] ? (cellsL[c] + cellsR[c]) / 2 : left[c] + w / 2;
        L.columnTitleBoxes[c] =
            QRectF(mid - w / 2, top[c] - L.columnTitleHeight, w, L.columnTitleHeight);
    }
}

// The panels of `f` in `area` (the page without title, caption and footnote): the
// arrangement with the largest cells, the panels' height what their cells need, the block of
// panels centred in the height left.
void placePanels(const Figure& f, const QRectF& area, const QRectF& page, FigureLayout& L) {
    const FigureStyle& s = f.style;
    const double fs = s.fontSize, titleH = fs * 1.6;
    const auto& cols = f.selection.columns;
    const int M = int(cols.size()), R = f.selection.rows;
    L.panels.clear();
    const bool bar = s.colorbar && s.shared && !s.lines;  // lines carry no colour scale
    L.grid = area.adjusted(0, 0, bar ? -fs * 6 : 0, 0);
    std::vector<std::pair<int, int>> flat;  // (column, row) of every panel, model-major
    int nq = 1, nk = 1;                     // the most queries and keys of any table
    double labelW = 0;                      // the longest label of any table
    const QFontMetricsF fm(styleFont(s, fs));
    for (int c = 0; c < M; ++c)
        for (int r = 0; r < int(cols[size_t(c)].tables.size()); ++r) {
            flat.emplace_back(c, r);
            const SelectedTable& t = cols[size_t(c)].tables[size_t(r)];
            nq = std::max(nq, int(t.weights->rows()));
            nk = std::max(nk, int(t.weights->cols()));
            labelW = std::max(labelW, labelWidthOf(t, fm));
        }
    // Token labels once per row and per column of panels when every table has the same ones
    // (the lines view draws its own).
    const bool shareQ = !s.lines && sameLabels(cols, true);
    const bool shareK = !s.lines && sameLabels(cols, false);
    const Room room{labelW, titleH, fs * 0.8, fs * 0.5, perPanelColorBar(s) ? fs * 5 : 0};
    const double colTitleH = fs * 2;
    const auto options = arrangements(M, R, int(flat.size()), s.arrange);
    GridFit fit{flat, shareQ, shareK, room, L.grid, colTitleH, nq, nk};
    panelTitleWidths(f, &fit.whereW, &fit.fullW);
    size_t best = 0;  // the largest cells; an earlier arrangement unless clearly smaller (10 %)
    for (size_t k = 1; k < options.size(); ++k)
        if (fit.score(options[k]) > fit.score(options[best]) * 1.1) best = k;
    const Arrangement& A = options[best];
    const Slots g = slotsOf(A, flat, shareQ, shareK, room);
    L.columnTitles = A.columnTitles;
    L.columnSpan = A.span;
    L.columnTitleHeight = A.columnTitles ? colTitleH : 0;
    // Each grid column and row as wide and tall as its cells and labels need; with no room
    // for cells, an equal share of the page (the panels then say so).
    const double cell = std::max(0.0, fit.cell(A));
    const double H = L.grid.height() - L.columnTitleHeight * A.bands;
    // Bound by the width, the block would leave blank bands above and below: its cells grow
    // taller instead, up to kMaxCellStretch times their width (a 16:9 slide of four models).
    const double stretch = cell > 0 && !s.lines
                               ? std::clamp((H - g.sumH) / (cell * nq * A.nr), 1.0, kMaxCellStretch)
                               : 1.0;
    std::vector<double> colW(size_t(A.nc)), rowH(size_t(A.nr));
    for (int x = 0; x < A.nc; ++x)
        colW[size_t(x)] = cell > 0 ? g.overW[size_t(x)] + cell * nk : L.grid.width() / A.nc;
    for (int y = 0; y < A.nr; ++y)
        rowH[size_t(y)] = cell > 0 ? g.overH[size_t(y)] + cell * stretch * nq : H / A.nr;
    // The width left is shared by the columns (a table with fewer tokens than the most may
    // then have larger cells; the others are centred in theirs); the height left is shared
    // above and below the panels' block.
    std::vector<double> X(size_t(A.nc)), Y(size_t(A.nr));
    double extraW = L.grid.width();
    for (double w : colW) extraW -= w;
    const int perBand = A.nr / A.bands;
    for (int x = 0; x < A.nc; ++x) {
        if (cell > 0) colW[size_t(x)] += std::max(0.0, extraW) / A.nc;
        X[size_t(x)] = x == 0 ? L.grid.left() : X[size_t(x) - 1] + colW[size_t(x) - 1];
    }
    double extraH = H;
    for (double h : rowH) extraH -= h;
    for (int y = 0; y < A.nr; ++y)
        Y[size_t(y)] = (y == 0 ? L.grid.top() + std::max(0.0, extraH) / 2
                               : Y[size_t(y) - 1] + rowH[size_t(y) - 1]) +
                       (y % perBand == 0 ? L.columnTitleHeight : 0);
    L.columnWidth = L.grid.width() / A.nc;
    for (size_t i = 0; i < flat.size(); ++i) {
        const auto [c, r] = flat[i];
        const QPoint at = g.at[i];
        PanelPlace pl;
        pl.column = c;
        pl.row = r;
        pl.queryLabels = g.queryLabels[i];
        pl.keyLabels = g.keyLabels[i];
        pl.box = QRectF(X[size_t(at.x())], Y[size_t(at.y())], colW[size_t(at.x())],
                        rowH[size_t(at.y())]);
        const bool labelled = g.labelColumn[size_t(at.x())];
        const double left = labelled ? labelW + 3 : room.gapX / 2;
        placeCells(pl, cols[size_t(c)].tables[size_t(r)], s, titleH, pl.box.left() + left,
                   cell > 0 ? colW[size_t(at.x())] - g.overW[size_t(at.x())]
                            : pl.box.width() - left - room.ownBar,
                   cell > 0 ? cell * stretch * nq : pl.box.height() - titleH - labelW - 4, labelW,
                   stretch);
        L.panels.push_back(pl);
    }
    placeColumnTitles(f, L);
    QRectF block;
    for (const PanelPlace& pl : L.panels) block = block.united(pl.box);
    L.grid = block;
    if (bar)
        L.colorbar = QRectF(page.right() - fs * 6, L.grid.top() + fs, fs * 1.2,
                            std::max(fs * 4, std::min(L.grid.height() - 2 * fs, fs * 30)));
}

// What the page holds: every panel's cells and labels, and the column titles.
QRectF contentOf(const Figure& f, const FigureLayout& L) {
    QRectF box;
    for (const PanelPlace& pl : L.panels) {
        const SelectedTable& t = f.selection.columns[size_t(pl.column)].tables[size_t(pl.row)];
        QRectF b = pl.box;
        if (pl.cell > 0)
            b = QRectF(
                QPointF(pl.origin.x() - (pl.queryLabels ? pl.labelWidth + 3 : 0), pl.box.top()),
                QPointF(pl.origin.x() + pl.cell * double(t.weights->cols()),
                        pl.origin.y() + pl.cellH * double(t.weights->rows()) +
                            (pl.keyLabels ? pl.labelWidth + 2 : 0)));
        box = box.united(b);
    }
    for (const QRectF& t : L.columnTitleBoxes)
        if (!t.isEmpty()) box = box.united(QRectF(box.left(), t.top(), box.width(), 1));
    return box;
}

}  // namespace

QRectF placeTitleAndCaption(const FigureStyle& s, const QRectF& page, QRectF* title,
                            QRectF* caption) {
    const double fs = s.fontSize;
    QRectF area = page.adjusted(fs, fs, -fs, -fs);
    if (!s.title.isEmpty()) {
        *title = QRectF(area.left(), area.top(), area.width(), fs * 2.2);
        area.setTop(title->bottom());
    }
    if (!s.caption.isEmpty()) {
        *caption = QRectF(area.left(), area.top(), area.width(),
                          captionLines(s, area.width()).size() * captionLineHeight(s));
        area.setTop(caption->bottom() + fs * 0.4);
    }
    return area;
}

QStringList captionLines(const FigureStyle& s, double width) {
    const QStringList lines = s.caption.split('\n');
    const QString one = lines.join("   ");
    if (lines.size() > 1 &&
        QFontMetricsF(styleFont(s, s.fontSize * 1.3)).horizontalAdvance(one) <= width * 0.9)
        return {one};
    return lines;
}

FigureLayout layoutFigure(const Figure& f, const QRectF& page) {
    const FigureStyle& s = f.style;
    const double fs = s.fontSize;
    const Words words(s.language);
    FigureLayout L;
    QRectF area = placeTitleAndCaption(s, page, &L.title, &L.caption);
    if (marksUnknownWords(f.selection))
        L.notes << words.translate("Figure",
                                   "⁇ marks a word the model does not know: it reads <unk> there.");
    const auto& cols = f.selection.columns;
    if (cols.empty() || f.selection.rows == 0) return L;
    const QRectF withNote = area.adjusted(0, 0, 0, -fs * 1.8);
    placePanels(f, L.notes.isEmpty() ? area : withNote, page, L);
    for (const PanelPlace& pl : L.panels) L.labelStep = std::max(L.labelStep, pl.labelStep);
    if (L.labelStep > 1) {
        // Laid out again with room for the footnote that says so.
        if (L.notes.isEmpty()) placePanels(f, withNote, page, L);
        L.labelStep = 1;
        for (const PanelPlace& pl : L.panels) L.labelStep = std::max(L.labelStep, pl.labelStep);
        //: Footnote of a figure: %1 the labels' size in points, %2 how many tokens per label
        L.notes.prepend(words.translate("Figure", "Token labels at %1 pt: one in every %2 shown.")
                            .arg(fs)
                            .arg(L.labelStep));
    }
    if (!L.notes.isEmpty())
        L.note = QRectF(area.left(), area.bottom() - fs * 1.6, area.width(), fs * 1.6);
    L.content = contentOf(f, L);
    return L;
}

void paintFigure(QPainter& p, const Figure& f, const QRectF& page) {
    const FigureStyle& s = f.style;
    const double fs = s.fontSize;
    fillBackground(p, page);
    p.setRenderHint(QPainter::Antialiasing, false);
    const FigureLayout L = layoutFigure(f, page);
    if (!L.title.isEmpty()) {
        p.setFont(styleFont(s, fs * 1.4, true));
        p.setPen(Qt::black);
        p.drawText(L.title, Qt::AlignCenter, s.title);
    }
    const QStringList caption = captionLines(s, L.caption.width());
    const double lineH = captionLineHeight(s);
    for (int i = 0; !L.caption.isEmpty() && i < caption.size(); ++i)
        drawFitted(p, s,
                   QRectF(L.caption.left(), L.caption.top() + i * lineH, L.caption.width(), lineH),
                   caption[i], fs * 1.3, false);
    const ColorMap map = tableColorMap(s.colormap, f.selection.diverging);
    for (const PanelPlace& pl : L.panels) {
        paintPanel(p, f, L, pl, map);
    }
    for (size_t c = 0; c < L.columnTitleBoxes.size(); ++c)
        if (!L.columnTitleBoxes[c].isEmpty())
            drawFitted(p, s, L.columnTitleBoxes[c], qt(f.selection.columns[c].title), fs * 1.15,
                       true);
    if (!L.colorbar.isEmpty()) paintColorbar(p, f, L.colorbar, map);
    if (!L.note.isEmpty()) drawFitted(p, s, L.note, L.notes.join("  ·  "), fs, false);
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

// Sets f.style.fontSize to the largest label size from it down to style.fontSizeMin (in half
// points) at which every token of every panel is labelled on `page`; the least when none
// labels them all.
void fitLabelPoints(Figure& f, const QRectF& page) {
    const double top = f.style.fontSize, least = f.style.fontSizeMin;
    for (double s = top; s > least; s -= 0.5) {
        f.style.fontSize = s;
        if (layoutFigure(f, page).labelStep <= 1) return;
    }
    f.style.fontSize = least;
}

FigurePainter gridPainter(const Selection& selection, const FigureStyle& style, QString* error) {
    QString e = QString::fromStdString(selection.error);
    if (e.isEmpty() && (selection.columns.empty() || selection.rows == 0)) e = "nothing to draw";
    if (!e.isEmpty()) {
        if (error) *error = e;
        return {};
    }
    // Pieces that continue a word marked, as on screen (token_labels.h).
    auto fig = std::make_shared<Figure>(Figure{markPieces(selection), withFont(style)});
    // Lines draw weights as strokes; signed tables (differences) are drawn as heatmaps.
    if (selection.diverging) fig->style.lines = false;
    return [fig](QPainter& p, const QRectF& r) {
        if (!(fig->style.fontSizeMin > 0 && fig->style.fontSizeMin < fig->style.fontSize))
            return paintFigure(p, *fig, r);
        Figure f = *fig;  // the tables are shared, not copied
        fitLabelPoints(f, r);
        paintFigure(p, f, r);
    };
}

FigurePainter profilePainter(const Profile& unmarked, const FigureStyle& style, QString* error) {
    const Profile profile = markPieces(unmarked);  // as the grid's labels (token_labels.h)
    if (profile.lines.empty()) {
        if (error) *error = QString::fromStdString(profile.error);
        return {};
    }
    auto fig = std::make_shared<ProfileFigure>(ProfileFigure{profile, withFont(style)});
    return [fig](QPainter& p, const QRectF& r) { paintProfile(p, *fig, r); };
}

}  // namespace attnviz::render
