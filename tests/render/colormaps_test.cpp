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

// Signed tables (differences, residuals): 0 at the diverging map's white centre, -max blue,
// +max red, each side scaled like weights; the colour bar's ticks invert the positions.
TEST(Diverging, ZeroIsTheWhiteCentreAndTheEndsAreBlueAndRed) {
    using namespace attnviz::render;
    for (Scaling s : {Scaling::Linear, Scaling::Power, Scaling::Log}) {
        EXPECT_DOUBLE_EQ(signedScalePosition(0.0, 2.0, s), 0.5);
        EXPECT_DOUBLE_EQ(signedScalePosition(-2.0, 2.0, s), 0.0);
        EXPECT_DOUBLE_EQ(signedScalePosition(2.0, 2.0, s), 1.0);
        EXPECT_DOUBLE_EQ(signedScalePosition(5.0, 2.0, s), 1.0);  // clamped
        for (double t : {0.0, 0.2, 0.75, 1.0})
            EXPECT_NEAR(signedScalePosition(signedScaleValue(t, 2.0, s), 2.0, s), t, 1e-12);
    }
    EXPECT_DOUBLE_EQ(signedScalePosition(-0.5, 2.0, Scaling::Linear), 0.375);
    const ColorMap map = tableColorMap("viridis", true);
    const QColor zero = cellColor(map, 0.0, 1.0, Scaling::Linear, true);
    const QColor neg = cellColor(map, -1.0, 1.0, Scaling::Linear, true);
    const QColor pos = cellColor(map, 1.0, 1.0, Scaling::Linear, true);
    EXPECT_GT(zero.lightness(), 230);
    EXPECT_GT(neg.blue(), neg.red());
    EXPECT_GT(pos.red(), pos.blue());
    // Weights keep the chosen map.
    EXPECT_EQ(tableColorMap("magma", false).levels(), ColorMap::named("magma").levels());
}
