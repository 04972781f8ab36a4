// SPDX-License-Identifier: GPL-3.0-or-later
#include "scaling.h"

#include <algorithm>
#include <cmath>

namespace attnviz::render {

Scaling scalingFromName(const std::string& name) {
    if (name == "power") return Scaling::Power;
    if (name == "log") return Scaling::Log;
    return Scaling::Linear;
}

std::string scalingName(Scaling s) {
    switch (s) {
        case Scaling::Power:
            return "power";
        case Scaling::Log:
            return "log";
        default:
            return "linear";
    }
}

const std::vector<std::string>& scalingNames() {
    static const std::vector<std::string> n{scalingName(Scaling::Linear),
                                            scalingName(Scaling::Power), scalingName(Scaling::Log)};
    return n;
}

bool isScalingName(const std::string& name) {
    const auto& n = scalingNames();
    return std::find(n.begin(), n.end(), name) != n.end();
}

double scalePosition(double w, double max, Scaling s) {
    if (!(max > 0)) return 0;
    const double r = w / max;
    double t = r;
    if (s == Scaling::Power) t = std::sqrt(std::max(0.0, r));
    if (s == Scaling::Log) t = r > 0 ? (std::log10(r) + kLogDecades) / kLogDecades : 0;
    return std::clamp(t, 0.0, 1.0);
}

double signedScalePosition(double w, double max, Scaling s) {
    const double side = scalePosition(std::abs(w), max, s);
    return 0.5 + (w < 0 ? -0.5 : 0.5) * side;
}

double signedScaleValue(double t, double max, Scaling s) {
    const double v = scaleValue(std::abs(2 * t - 1), max, s);
    return t < 0.5 ? -v : v;
}

double scaleValue(double t, double max, Scaling s) {
    if (s == Scaling::Power) return max * t * t;
    if (s == Scaling::Log) return max * std::pow(10.0, kLogDecades * (t - 1));
    return max * t;
}

}  // namespace attnviz::render
