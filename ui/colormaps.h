// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <qcustomplot.h>

#include <QStringList>

namespace attnviz::ui {

// Perceptually uniform colour maps built from colour stops (QCustomPlot 2.1 has no
// viridis preset): "viridis", "magma", "cividis", "greys".
QStringList colormapNames();
QCPColorGradient colormap(const QString& name);

}  // namespace attnviz::ui
