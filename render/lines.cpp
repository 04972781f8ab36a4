// SPDX-License-Identifier: GPL-3.0-or-later
#include "lines.h"

#include <QFontMetricsF>
#include <QPainterPath>
#include <algorithm>

#include "fonts.h"

namespace attnviz::render {

namespace {

QFont linesFont(const LinesStyle& s, double size, bool bold = false) {
    return figureFont(s.fontFamily, size, bold);
}

QString qt(const std::string& s) {
    return QString::fromStdString(s);
}

}  // namespace

std::vector<DrawnLine> linesToDraw(const SelectedTable& t, const LinesStyle& s) {
    std::vector<DrawnLine> out;
    if (!t.weights || t.weights->size() == 0) return out;
    const Mat& w = *t.weights;
    const double top = t.scaleMax > 0 ? t.scaleMax : double(w.maxCoeff());
    if (!(top > 0)) return out;
    for (Eigen::Index i = 0; i < w.rows(); ++i) {
        if (s.focusQuery >= 0 && i != s.focusQuery) continue;
        for (Eigen::Index j = 0; j < w.cols(); ++j) {
            if (s.focusQuery < 0 && s.focusKey >= 0 && j != s.focusKey) continue;
            const double f = std::min(1.0, double(w(i, j)) / top);
            if (f >= s.minFraction) out.push_back({int(i), int(j), f});
        }
    }
    std::stable_sort(out.begin(), out.end(), [](const DrawnLine& a, const DrawnLine& b) {
        return a.strength < b.strength;
    });
    return out;
}

LinesLayout layoutLines(const SelectedTable& t, const LinesStyle& s, const QRectF& box) {
    LinesLayout l;
    const int nq = t.queries ? int(t.queries->size()) : 0;
    const int nk = t.keys ? int(t.keys->size()) : 0;
    QRectF area = box;
    if (s.title) {
        const double th = QFontMetricsF(linesFont(s, s.fontSize, true)).height() * 1.3;
        l.title = QRectF(box.left(), box.top(), box.width(), th);
        area.setTop(box.top() + th);
    }
    const int rows = std::max({1, nq, nk, s.rows});
    l.pitch = area.height() / rows;
    // Font: at most the style's size, at most 80 % of the pitch (points ~ pixels here: the
    // painter's units are used for both, as in the figures).
    const double fitHeight = QFontMetricsF(linesFont(s, s.fontSize)).height();
    l.fontSize = std::max(3.0, s.fontSize * std::min(1.0, 0.85 * l.pitch / fitHeight));
    const QFontMetricsF fm(linesFont(s, l.fontSize, true));
    double qw = 0, kw = 0;
    for (int i = 0; i < nq; ++i) qw = std::max(qw, fm.horizontalAdvance(qt((*t.queries)[i])));
    for (int j = 0; j < nk; ++j) kw = std::max(kw, fm.horizontalAdvance(qt((*t.keys)[j])));
    const double pad = fm.height() * 0.4;
    qw = std::min(qw + 2 * pad, area.width() * 0.35);
    kw = std::min(kw + 2 * pad, area.width() * 0.35);
    for (int i = 0; i < nq; ++i)
        l.queries.emplace_back(area.left(), area.top() + i * l.pitch, qw, l.pitch);
    for (int j = 0; j < nk; ++j)
        l.keys.emplace_back(area.right() - kw, area.top() + j * l.pitch, kw, l.pitch);
    l.lineLeft = area.left() + qw;
    l.lineRight = area.right() - kw;
    return l;
}

LinesHit hitLines(const LinesLayout& l, const QPointF& at) {
    for (size_t i = 0; i < l.queries.size(); ++i)
        if (l.queries[i].contains(at)) return {0, int(i)};
    for (size_t j = 0; j < l.keys.size(); ++j)
        if (l.keys[j].contains(at)) return {1, int(j)};
    return {};
}

void paintLines(QPainter& p, const SelectedTable& t, const LinesStyle& s, const QRectF& box) {
    const LinesLayout l = layoutLines(t, s, box);
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true);
    if (s.title) {
        p.setPen(Qt::black);
        p.setFont(linesFont(s, s.fontSize, true));
        p.drawText(
            l.title, Qt::AlignCenter,
            QFontMetricsF(p.font()).elidedText(qt(t.where), Qt::ElideRight, l.title.width()));
    }
    // Lines, lightest first so that strong ones are on top.
    for (const DrawnLine& d : linesToDraw(t, s)) {
        QColor c = s.color;
        c.setAlphaF(0.04 + 0.96 * d.strength);
        QPen pen(c, std::max(0.3, l.pitch * 0.06) + l.pitch * 0.18 * d.strength);
        pen.setCapStyle(Qt::FlatCap);
        p.setPen(pen);
        const double y0 = l.queries[size_t(d.query)].center().y();
        const double y1 = l.keys[size_t(d.key)].center().y();
        QPainterPath path;
        path.moveTo(l.lineLeft, y0);
        path.lineTo(l.lineRight, y1);
        p.drawPath(path);
    }
    // Labels: queries right-aligned against the lines, keys left-aligned; the focused token
    // on the lines' colour.
    auto label = [&](const QRectF& r, const QString& text, bool focused, Qt::Alignment a) {
        if (focused) {
            QColor bg = s.color;
            bg.setAlphaF(0.18);
            p.fillRect(r, bg);
        }
        p.setPen(Qt::black);
        p.setFont(linesFont(s, l.fontSize, focused));
        const QRectF inner = r.adjusted(l.pitch * 0.15, 0, -l.pitch * 0.15, 0);
        p.drawText(inner, a | Qt::AlignVCenter,
                   QFontMetricsF(p.font()).elidedText(text, Qt::ElideMiddle, inner.width()));
    };
    for (size_t i = 0; i < l.queries.size(); ++i)
        label(l.queries[i], qt((*t.queries)[i]), int(i) == s.focusQuery, Qt::AlignRight);
    for (size_t j = 0; j < l.keys.size(); ++j)
        label(l.keys[j], qt((*t.keys)[j]), s.focusQuery < 0 && int(j) == s.focusKey, Qt::AlignLeft);
    p.restore();
}

}  // namespace attnviz::render
