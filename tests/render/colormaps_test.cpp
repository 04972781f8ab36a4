// SPDX-License-Identifier: GPL-3.0-or-later
// Line colours for plots with many lines (the query profile): 16 that differ clearly, and
// dash patterns that differ between neighbours.
#include "render/colormaps.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace attnviz::render;

TEST(LineColors, SixteenClearlyDistinctColoursAndAlternatingDashes) {
    // Distance in CIE-like terms is overkill here: RGB distance >= 60 between any two of the
    // first 16 (the old palette repeated its 8 colours darker, distance ~40 for neighbours
    // such as blue and dark blue, and had a yellow that vanished on white).
    for (int a = 0; a < 16; ++a) {
        const QColor ca = lineColor(a);
        EXPECT_LT(ca.lightnessF(), 0.85) << a;  // visible on white
        for (int b = a + 1; b < 16; ++b) {
            const QColor cb = lineColor(b);
            const double d = std::hypot(std::hypot(ca.red() - cb.red(), ca.green() - cb.green()),
                                        ca.blue() - cb.blue());
            EXPECT_GE(d, 60.0) << a << " vs " << b;
        }
    }
    for (int i = 0; i + 1 < 16; ++i) EXPECT_NE(lineStyle(i), lineStyle(i + 1));
    EXPECT_EQ(lineStyle(0), Qt::SolidLine);
}
