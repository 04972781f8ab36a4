// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// How weights map to colours, for the screen and for files alike: a weight w of a table
// whose colour scale tops at `max` becomes a position in [0, 1] of the colour map.
#include <string>
#include <vector>

namespace attnviz::render {

// linear: w / max; power: sqrt(w / max), to see small weights; log: log10(w / max) over
// kLogDecades decades, so every weight at or below max·10^-kLogDecades takes the lowest colour.
enum class Scaling { Linear, Power, Log };
constexpr double kLogDecades = 4;

Scaling scalingFromName(const std::string& name);  // "linear", "power", "log"; else linear
std::string scalingName(Scaling s);
bool isScalingName(const std::string& name);
const std::vector<std::string>& scalingNames();  // every Scaling's name, in the order above

// The colour-map position of weight w in [0, max], clamped to [0, 1] (0 when max <= 0).
double scalePosition(double w, double max, Scaling s);
// The weight at colour-map position t (the inverse, for colour bar ticks).
double scaleValue(double t, double max, Scaling s);

// Signed values (differences, residuals) on a diverging map: 0 at the centre (0.5), ±max at
// the ends, |w| scaled as above on each side.
double signedScalePosition(double w, double max, Scaling s);
double signedScaleValue(double t, double max, Scaling s);

}  // namespace attnviz::render
