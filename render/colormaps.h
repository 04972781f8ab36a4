// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QColor>
#include <QStringList>
#include <array>

#include "scaling.h"

namespace attnviz::render {

// A perceptually uniform colour map as 256 levels: "viridis", "magma", "cividis", "greys",
// and for signed values (differences) the diverging "rdbu" (ColorBrewer RdBu, blue for
// negative, white at 0, red for positive; not offered for weights)
// (nine matplotlib samples each, interpolated in RGB). Position t in [0, 1] takes level
// int(t · 255), the rule of QCustomPlot's QCPColorGradient, so a gradient built from
// levels() colours the screen exactly as figures are coloured.
class ColorMap {
public:
    static ColorMap named(const QString& name);  // unknown names: viridis
    QRgb rgb(double t) const;
    const std::array<QRgb, 256>& levels() const { return m_levels; }

private:
    std::array<QRgb, 256> m_levels{};
};

QStringList colormapNames();
// The colour of weight w of a table whose scale tops at max; with `diverging`, of a signed
// value on `map` from -max to max (signedScalePosition).
QColor cellColor(const ColorMap& map, double w, double max, Scaling s, bool diverging = false);
// The map of a table: the chosen one, or "rdbu" for signed tables.
ColorMap tableColorMap(const QString& chosen, bool diverging);
// Colour of line i in plots with several lines: 16 distinct colours (Okabe-Ito without its
// yellow, then Tol's "muted"), repeated darker after that.
QColor lineColor(int i);
// Dash pattern of line i (solid, dash, dot, dash-dot in turn), so that neighbouring lines
// differ without colour too.
Qt::PenStyle lineStyle(int i);

}  // namespace attnviz::render
