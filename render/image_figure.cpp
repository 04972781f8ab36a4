// SPDX-License-Identifier: GPL-3.0-or-later
#include "image_figure.h"

#include <QImage>
#include <QPaintEngine>
#include <QPainterPath>
#include <algorithm>
#include <cmath>

#include "colormaps.h"
#include "core/error.h"
#include "core/export.h"
#include "core/input_limits.h"
#include "words.h"

namespace attnviz::render {
namespace {

QString qt(const std::string& s) {
    return QString::fromStdString(s);
}

// The image the model saw, [S, S] grayscale or [S, S, 3] RGB.
QImage modelImage(const ImageOverlay& o) {
    const int s = o.imageSize;
    const size_t row = size_t(s) * size_t(o.channels);
    QImage img(s, s, o.channels == 3 ? QImage::Format_RGB888 : QImage::Format_Grayscale8);
    for (int y = 0; y < s; ++y)
        std::copy_n(o.pixels.data() + size_t(y) * row, row, img.scanLine(y));
    return img;
}

// The image upscaled by a whole factor with nearest neighbour, at least 224 pixels a side:
// an SVG or PDF viewer that smooths images scales this copy little.
QImage pixelImage(const ImageOverlay& o) {
    const int s = o.imageSize, k = std::max(1, (224 + s - 1) / s);
    return modelImage(o).scaled(s * k, s * k, Qt::IgnoreAspectRatio, Qt::FastTransformation);
}

QColor overlayColor(const ColorMap& map, double w, const OverlayStyle& s) {
    QColor c = cellColor(map, w, s.scaleMax, s.scaling);
    c.setAlphaF(float(std::clamp(s.opacity, 0.0, 1.0)));
    return c;
}

QRgb over(QRgb src, QRgb dst) {  // premultiplied source over destination
    const int keep = 255 - qAlpha(src);
    auto mix = [&](int a, int b) { return a + (b * keep + 127) / 255; };
    return qRgba(mix(qRed(src), qRed(dst)), mix(qGreen(src), qGreen(dst)),
                 mix(qBlue(src), qBlue(dst)), mix(qAlpha(src), qAlpha(dst)));
}

// On pixels: the cells and the faint patch grid (lines `line` pixels wide) as one image `px`
// pixels a side, drawn unscaled over the image. Qt's raster engine hands every fill of more
// than ~96 rows (a grid line, a scaled cell image) to its thread pool, and waking the pool
// cost more than the drawing: a third of choosing an image (issue 28). One blit does not.
QImage overlayLayer(const ImageOverlay& o, const ColorMap& map, const OverlayStyle& s, int px,
                    int line) {
    const int g = o.grid.grid;
    std::vector<QRgb> cells(size_t(g) * size_t(g), 0);  // premultiplied; 0: no weight
    for (size_t t = 0; t < cells.size() && t < o.weights.patches.size(); ++t)
        cells[t] = qPremultiply(overlayColor(map, o.weights.patches[t], s).rgba());
    std::vector<int> lines(size_t(px), 0);  // how many grid lines cover pixel column (row) k
    for (int k = 1; k < g; ++k) {
        const int at = int(std::lround(double(k) * px / g));
        for (int d = 0; d < line; ++d)
            if (at + d >= 0 && at + d < px) lines[size_t(at + d)] = 1;
    }
    const QRgb white = qPremultiply(qRgba(255, 255, 255, 90));
    QImage out(px, px, QImage::Format_ARGB32_Premultiplied);
    for (int y = 0; y < px; ++y) {
        auto* row = reinterpret_cast<QRgb*>(out.scanLine(y));
        const size_t r = size_t(std::min(g - 1, y * g / px));
        for (int x = 0; x < px; ++x) {
            QRgb c = cells[r * size_t(g) + size_t(std::min(g - 1, x * g / px))];
            for (int n = lines[size_t(x)] + lines[size_t(y)]; n > 0; --n) c = over(white, c);
            row[x] = c;
        }
    }
    return out;
}

// The faint patch grid: lines, not rectangles (rectangles are the cells).
// In vector files, thin in proportion to the figure (on pixels, overlayLayer draws it).
void paintGrid(QPainter& p, const QRectF& sq, int g) {
    const double width = std::max(0.25, sq.width() / 600);
    p.setPen(QPen(QColor(255, 255, 255, 90), width));
    const double step = sq.width() / g;
    for (int k = 1; k < g; ++k) {
        p.drawLine(QPointF(sq.left() + k * step, sq.top()),
                   QPointF(sq.left() + k * step, sq.bottom()));
        p.drawLine(QPointF(sq.left(), sq.top() + k * step),
                   QPointF(sq.right(), sq.top() + k * step));
    }
}

// The query patch: a white line inside a black one, visible on any colour.
void paintQueryOutline(QPainter& p, const QRectF& sq, const ImageOverlay& o) {
    if (o.query.kind != ImageQuery::Kind::Patch) return;
    const double step = sq.width() / o.grid.grid, w = std::max(0.6, step / 14);
    const QRectF cell(sq.left() + o.query.col * step, sq.top() + o.query.row * step, step, step);
    QPainterPath path;  // a path: rectangles are the cells
    path.addRect(cell.adjusted(w, w, -w, -w));
    p.strokePath(path, QPen(Qt::black, 2 * w));
    p.strokePath(path, QPen(Qt::white, w));
}

}  // namespace

QRectF paintImageOverlay(QPainter& p, const QRectF& box, const ImageOverlay& o,
                         const OverlayStyle& s) {
    const double side = std::min(box.width(), box.height());
    const QRectF sq(box.center().x() - side / 2, box.center().y() - side / 2, side, side);
    const int g = o.grid.grid;
    if (side <= 0 || g <= 0 || (o.channels != 1 && o.channels != 3) ||
        o.pixels.size() != size_t(o.imageSize) * size_t(o.imageSize) * size_t(o.channels))
        return sq;
    p.save();
    p.setRenderHint(QPainter::SmoothPixmapTransform, false);
    p.setRenderHint(QPainter::Antialiasing, false);
    const ColorMap map = ColorMap::named(s.colormap);
    // On pixels (the screen, PNG) the image and the cells are two images scaled with nearest
    // neighbour, one drawImage each; in vector files the cells are rectangles and the image is
    // upscaled first (pixelImage). The same picture, at a fraction of the cost on screen.
    const auto* engine = p.paintEngine();
    const bool raster = engine && engine->type() == QPaintEngine::Raster;
    if (raster) {
        // The cells and the grid at the device's pixels (lines as thin as in paintGrid).
        const qreal dpr = p.device() ? p.device()->devicePixelRatio() : 1.0;
        const int px = std::max(1, int(std::lround(side * dpr)));
        const double width = std::max(0.25, side / 600) * dpr;
        QImage layer = overlayLayer(o, map, s, px, std::max(1, int(std::lround(width))));
        layer.setDevicePixelRatio(dpr);
        p.drawImage(sq, modelImage(o));
        p.drawImage(sq, layer);
    } else {
        p.drawImage(sq, pixelImage(o));
        const double step = side / g;
        for (int r = 0; r < g; ++r)
            for (int c = 0; c < g; ++c) {
                const size_t t = size_t(r * g + c);
                if (t < o.weights.patches.size())
                    p.fillRect(QRectF(sq.left() + c * step, sq.top() + r * step, step, step),
                               overlayColor(map, o.weights.patches[t], s));
            }
    }
    if (!raster) paintGrid(p, sq, g);
    if (s.outlineQuery) paintQueryOutline(p, sq, o);
    p.restore();
    return sq;
}

void paintClassTokenSwatch(QPainter& p, const QRectF& box, double weight, const OverlayStyle& s,
                           const QFont& font) {
    const double h = box.height();
    const QRectF sw(box.left(), box.top(), h, h);
    p.save();
    p.fillRect(sw, cellColor(ColorMap::named(s.colormap), weight, s.scaleMax, s.scaling));
    QPainterPath frame;
    frame.addRect(sw);
    p.strokePath(frame, QPen(Qt::black, 0.4));
    p.setFont(font);
    p.setPen(Qt::black);
    p.drawText(QRectF(sw.right() + h * 0.3, box.top(), box.width() - h * 1.3, h),
               Qt::AlignLeft | Qt::AlignVCenter, "cls " + QString::number(weight, 'f', 3));
    p.restore();
}

}  // namespace attnviz::render

namespace attnviz::render {
namespace {

// Where the panels go: each model's panels in a block of `span` grid columns under its
// header (heads down, wrapping when that gives larger images), models side by side.
struct ImageLayout {
    QRectF title, caption, note, grid, colorbar;
    int span = 1, rows = 1;  // grid columns per model, grid rows
    double columnWidth = 0, rowHeight = 0, headerHeight = 0;
};

struct PanelMetrics {
    double title, swatch, bar;  // heights of the title and swatch rows, the own bar's width
};

PanelMetrics panelMetrics(const ImageFigure& f) {
    const double fs = f.style.fontSize;
    bool cls = false;
    for (const auto& c : f.columns)
        for (const auto& pl : c.panels) cls = cls || pl.overlay.weights.classToken.has_value();
    const bool ownBar = f.style.colorbar && !f.style.shared;
    return {fs * 1.6, cls ? fs * 1.6 : 0, ownBar ? fs * 4.5 : 0};
}

// The image side of a panel of w × h.
double imageSide(const PanelMetrics& m, double w, double h, double fs) {
    return std::max(0.0, std::min(w - m.bar - fs * 0.6, h - m.title - m.swatch - fs * 0.4));
}

int mostPanels(const ImageFigure& f) {
    size_t n = 1;
    for (const auto& c : f.columns) n = std::max(n, c.panels.size());
    return int(n);
}

void placeGrid(const ImageFigure& f, ImageLayout& L) {
    const double fs = f.style.fontSize;
    const PanelMetrics m = panelMetrics(f);
    const int models = std::max<int>(1, int(f.columns.size())), R = mostPanels(f);
    L.headerHeight = fs * 3.4;
    double best = -1;
    for (int a = 1; a <= R; ++a) {
        const int rows = (R + a - 1) / a;
        if (a > 1 && (R + rows - 1) / rows != a) continue;  // the same rows with fewer columns
        const double w = L.grid.width() / (models * a);
        const double h = (L.grid.height() - L.headerHeight) / rows;
        const double side = imageSide(m, w, h, fs);
        if (side > best * 1.05) {
            best = side;
            L.span = a;
            L.rows = rows;
            L.columnWidth = w;
            L.rowHeight = h;
        }
    }
    // Rows as tall as their panels need; the height left shared above and below.
    const double need = m.title + best + m.swatch + fs * 0.6;
    if (best > 0 && need < L.rowHeight) {
        L.grid.translate(0, (L.rowHeight - need) * L.rows / 2);
        L.rowHeight = need;
    }
}

QString queryNote(const ImageFigure& f) {
    const Words w(f.style.language);
    if (f.columns.empty() || f.columns[0].panels.empty()) return {};
    const ImageQuery& q = f.columns[0].panels[0].overlay.query;
    switch (q.kind) {
        case ImageQuery::Kind::Patch:
            // Counted from 1 for people, as layers and heads are (core/selection.h counted()).
            //: A figure's footnote: %1 and %2 the query patch's grid row and column, from 1
            return (f.style.outlineQuery
                        ? w.translate("Figure", "Query: patch (row %1, column %2), outlined.")
                        //: A figure's footnote when the query patch is not framed
                        : w.translate("Figure", "Query: patch (row %1, column %2)."))
                .arg(q.row + 1)
                .arg(q.col + 1);
        case ImageQuery::Kind::ClassToken:
            return w.translate("Figure", "Query: the class token.");
        case ImageQuery::Kind::Pooled:
            break;
    }
    return w.translate("Figure",
                       "Query: what the classifier reads: the class token (pool cls) or the "
                       "mean of the patch rows (pool mean).");
}

ImageLayout layoutImageFigure(const ImageFigure& f, const QRectF& page) {
    const FigureStyle& s = f.style;
    const double fs = s.fontSize;
    ImageLayout L;
    QRectF area = placeTitleAndCaption(s, page, &L.title, &L.caption);
    L.note = QRectF(area.left(), area.bottom() - fs * 1.6, area.width(), fs * 1.6);
    area.setBottom(L.note.top());
    const bool bar = s.colorbar && s.shared;
    L.grid = area.adjusted(0, 0, bar ? -fs * 6 : 0, 0);
    placeGrid(f, L);
    if (bar)
        L.colorbar = QRectF(area.right() - fs * 5, L.grid.top() + L.headerHeight, fs * 1.2,
                            std::max(fs * 4, std::min(L.rows * L.rowHeight - fs, fs * 30)));
    return L;
}

// The largest patch weight of the panels (of one panel with `only`): the top of a scale.
double topWeight(const ImageFigure& f, const ImagePanel* only) {
    double top = 0;
    for (const auto& c : f.columns)
        for (const auto& pl : c.panels)
            if (!only || only == &pl)
                for (double w : pl.overlay.weights.patches) top = std::max(top, w);
    return top > 0 ? top : 1;
}

void drawText(QPainter& p, const FigureStyle& s, const QRectF& box, const QString& text,
              double size, bool bold) {
    QFont font = figureFont(s.fontFamily, size, bold);
    while (font.pointSizeF() > 3 && QFontMetricsF(font).horizontalAdvance(text) > box.width())
        font.setPointSizeF(font.pointSizeF() * 0.9);
    p.setFont(font);
    p.setPen(Qt::black);
    p.drawText(box, Qt::AlignCenter, text);
}

void paintPanel(QPainter& p, const ImageFigure& f, const ImagePanel& pl, const QRectF& box,
                double sharedTop) {
    const FigureStyle& st = f.style;
    const double fs = st.fontSize;
    const PanelMetrics m = panelMetrics(f);
    drawText(p, st, QRectF(box.left(), box.top(), box.width(), m.title), qt(pl.where), fs, false);
    const OverlayStyle os{st.colormap, st.scaling, f.opacity,
                          st.shared ? sharedTop : topWeight(f, &pl), st.outlineQuery};
    const double side = imageSide(m, box.width(), box.height(), fs);
    const QRectF img(box.left() + (box.width() - m.bar - side) / 2, box.top() + m.title, side,
                     side);
    paintImageOverlay(p, img, pl.overlay, os);
    if (pl.overlay.weights.classToken)
        paintClassTokenSwatch(p, QRectF(img.left(), img.bottom() + fs * 0.3, img.width(), fs),
                              *pl.overlay.weights.classToken, os,
                              figureFont(st.fontFamily, fs * 0.9));
    if (m.bar > 0)
        paintColorBar(p, QRectF(img.right() + fs * 0.5, img.top(), fs * 0.8, img.height()), st,
                      os.scaleMax);
}

void paintHeader(QPainter& p, const ImageFigure& f, const ImageColumn& c, const QRectF& box) {
    const double fs = f.style.fontSize;
    drawText(p, f.style, QRectF(box.left(), box.top(), box.width(), fs * 1.8), qt(c.title),
             fs * 1.15, true);
    drawText(p, f.style, QRectF(box.left(), box.top() + fs * 1.7, box.width(), fs * 1.5),
             qt(c.prediction), fs, false);
}

}  // namespace

void paintImageFigure(QPainter& p, const ImageFigure& f, const QRectF& page) {
    const FigureStyle& s = f.style;
    QPainterPath bg;  // a path, not a rectangle: rectangles are the cells
    bg.addRect(page);
    p.fillPath(bg, Qt::white);
    const ImageLayout L = layoutImageFigure(f, page);
    if (!L.title.isEmpty()) drawText(p, s, L.title, s.title, s.fontSize * 1.4, true);
    const QStringList caption = captionLines(s, L.caption.width());
    const double lineH = captionLineHeight(s);
    for (int i = 0; !L.caption.isEmpty() && i < caption.size(); ++i)
        drawText(p, s,
                 QRectF(L.caption.left(), L.caption.top() + i * lineH, L.caption.width(), lineH),
                 caption[i], s.fontSize * 1.3, false);
    const double top = topWeight(f, nullptr);
    for (size_t c = 0; c < f.columns.size(); ++c) {
        const double x0 = L.grid.left() + double(c) * L.span * L.columnWidth;
        paintHeader(p, f, f.columns[c],
                    QRectF(x0, L.grid.top(), L.span * L.columnWidth, L.headerHeight));
        for (size_t k = 0; k < f.columns[c].panels.size(); ++k)
            paintPanel(
                p, f, f.columns[c].panels[k],
                QRectF(x0 + double(k % size_t(L.span)) * L.columnWidth,
                       L.grid.top() + L.headerHeight + double(k / size_t(L.span)) * L.rowHeight,
                       L.columnWidth, L.rowHeight),
                top);
    }
    if (!L.colorbar.isEmpty()) paintColorBar(p, L.colorbar, s, top);
    drawText(p, s, L.note, queryNote(f), s.fontSize, false);
}

FigurePainter imageFigurePainter(const ImageFigure& f, QString* error) {
    bool any = false;
    for (const auto& c : f.columns) any = any || !c.panels.empty();
    if (!any) {
        if (error) *error = "nothing to draw";
        return {};
    }
    auto fig = std::make_shared<ImageFigure>(f);
    fig->style = withFont(fig->style);
    return [fig](QPainter& p, const QRectF& r) { paintImageFigure(p, *fig, r); };
}

}  // namespace attnviz::render
