// SPDX-License-Identifier: GPL-3.0-or-later
#include "colormaps.h"

#include <algorithm>
#include <cmath>
#include <iterator>

namespace attnviz::render {
namespace {

// Nine evenly spaced samples of each matplotlib colour map (public-domain data).
const char* const kViridis[] = {"#440154", "#472c7a", "#3b518b", "#2c718e", "#21908d",
                                "#27ad81", "#5cc863", "#aadc32", "#fde725"};
const char* const kMagma[] = {"#000004", "#1c1044", "#4f127b", "#812581", "#b5367a",
                              "#e55064", "#fb8761", "#fec287", "#fcfdbf"};
const char* const kCividis[] = {"#00224e", "#123570", "#3b496c", "#575d6d", "#707173",
                                "#8a8678", "#a59c74", "#c3b369", "#fee838"};
// ColorBrewer's 9-class RdBu, reversed: blue (negative) to red (positive), white centre.
const char* const kRdBu[] = {"#2166ac", "#4393c3", "#92c5de", "#d1e5f0", "#f7f7f7",
                             "#fddbc7", "#f4a582", "#d6604d", "#b2182b"};
const char* const kGreys[] = {"#ffffff", "#f0f0f0", "#d9d9d9", "#bdbdbd", "#969696",
                              "#737373", "#525252", "#252525", "#000000"};

}  // namespace

ColorMap ColorMap::named(const QString& name) {
    const char* const* stops = kViridis;
    if (name == "magma") stops = kMagma;
    if (name == "cividis") stops = kCividis;
    if (name == "greys") stops = kGreys;
    if (name == "rdbu") stops = kRdBu;
    ColorMap m;
    const int last = int(m.m_levels.size()) - 1;
    for (int i = 0; i <= last; ++i) {
        // Level i sits at i/255; stop k at k/8; truncated like QCPColorGradient's levels.
        const double pos = i * (1.0 / last);
        const int hi = std::clamp(int(std::ceil(pos * 8)), 0, 8);
        const QColor h(stops[hi]), l(stops[std::max(0, hi - 1)]);
        const double t = hi == 0 ? 1 : (pos - (hi - 1) / 8.0) / (1 / 8.0);
        m.m_levels[size_t(i)] =
            qRgb(int((1 - t) * l.red() + t * h.red()), int((1 - t) * l.green() + t * h.green()),
                 int((1 - t) * l.blue() + t * h.blue()));
    }
    return m;
}

QRgb ColorMap::rgb(double t) const {
    const int last = int(m_levels.size()) - 1;
    const int i = std::clamp(int(t * last), 0, last);
    return m_levels[size_t(i)];
}

QStringList colormapNames() {
    return {"viridis", "magma", "cividis", "greys"};
}

QColor cellColor(const ColorMap& map, double w, double max, Scaling s, bool diverging) {
    return QColor::fromRgb(
        map.rgb(diverging ? signedScalePosition(w, max, s) : scalePosition(w, max, s)));
}

ColorMap tableColorMap(const QString& chosen, bool diverging) {
    return ColorMap::named(diverging ? QStringLiteral("rdbu") : chosen);
}

QColor lineColor(int i) {
    // 16 distinct colours: Okabe & Ito's colour-blind-safe set without its yellow (too pale
    // on white), then Paul Tol's "muted" set with brown and grey for its cyan and rose (too
    // close to sky blue and pink); beyond 16 they repeat darker.
    static const QColor c[] = {
        QColor(0, 114, 178),   QColor(213, 94, 0),    QColor(0, 158, 115), QColor(204, 121, 167),
        QColor(230, 159, 0),   QColor(86, 180, 233),  QColor(0, 0, 0),     QColor(51, 34, 136),
        QColor(166, 86, 40),   QColor(68, 170, 153),  QColor(17, 119, 51), QColor(153, 153, 51),
        QColor(221, 204, 119), QColor(119, 119, 119), QColor(136, 34, 85), QColor(170, 68, 153)};
    const int n = int(std::size(c));
    return c[((i % n) + n) % n].darker(100 + 40 * (std::max(0, i) / n));
}

Qt::PenStyle lineStyle(int i) {
    static const Qt::PenStyle s[] = {Qt::SolidLine, Qt::DashLine, Qt::DotLine, Qt::DashDotLine};
    return s[((i % 4) + 4) % 4];
}

}  // namespace attnviz::render
