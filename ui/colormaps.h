// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <qcustomplot.h>

#include <QStringList>

namespace attnviz::ui {

// Perceptually uniform colour maps built from colour stops (QCustomPlot 2.1 has no
// viridis preset): "viridis", "magma", "cividis", "greys".
QStringList colormapNames();
// Colour of line i in plots with several lines: the colour-blind-friendly Okabe-Ito
// palette, repeated darker after eight.
QColor lineColor(int i);
QCPColorGradient colormap(const QString& name);

}  // namespace attnviz::ui
