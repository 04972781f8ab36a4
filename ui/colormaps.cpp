// SPDX-License-Identifier: GPL-3.0-or-later
#include "colormaps.h"

namespace attnviz::ui {
namespace {

// Nine evenly spaced samples of each matplotlib colour map (public-domain data).
const char* const kViridis[] = {"#440154", "#472c7a", "#3b518b", "#2c718e", "#21908d",
                                "#27ad81", "#5cc863", "#aadc32", "#fde725"};
const char* const kMagma[] = {"#000004", "#1c1044", "#4f127b", "#812581", "#b5367a",
                              "#e55064", "#fb8761", "#fec287", "#fcfdbf"};
const char* const kCividis[] = {"#00224e", "#123570", "#3b496c", "#575d6d", "#707173",
                                "#8a8678", "#a59c74", "#c3b369", "#fee838"};
const char* const kGreys[] = {"#ffffff", "#f0f0f0", "#d9d9d9", "#bdbdbd", "#969696",
                              "#737373", "#525252", "#252525", "#000000"};

}  // namespace

QStringList colormapNames() {
    return {"viridis", "magma", "cividis", "greys"};
}

QCPColorGradient colormap(const QString& name) {
    const char* const* stops = kViridis;
    if (name == "magma") stops = kMagma;
    if (name == "cividis") stops = kCividis;
    if (name == "greys") stops = kGreys;
    QCPColorGradient g;
    g.clearColorStops();
    for (int i = 0; i < 9; ++i) g.setColorStopAt(i / 8.0, QColor(stops[i]));
    g.setColorInterpolation(QCPColorGradient::ciRGB);
    g.setLevelCount(256);
    return g;
}

QColor lineColor(int i) {
    static const QColor c[] = {QColor(0, 114, 178),   QColor(213, 94, 0),  QColor(0, 158, 115),
                               QColor(204, 121, 167), QColor(230, 159, 0), QColor(86, 180, 233),
                               QColor(240, 228, 66),  QColor(0, 0, 0)};
    return c[i % 8].darker(100 + 40 * (i / 8));
}

}  // namespace attnviz::ui
