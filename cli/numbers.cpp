// SPDX-License-Identifier: GPL-3.0-or-later
// The one road for numbers on the command line (command.h: integerIn, numberIn).
#include "numbers.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "core/input_limits.h"

namespace attnviz::cli {
namespace {

// A bound as a person writes it: 1, 0.5, 1e+06 never as 1000000.000000.
std::string bound(double x) {
    if (std::floor(x) == x && std::abs(x) < 1e15) return std::to_string(int64_t(x));
    std::ostringstream s;
    s << x;
    return s.str();
}

std::string trimmed(const std::string& s) {
    const size_t a = s.find_first_not_of(" \t");
    if (a == std::string::npos) return {};
    return s.substr(a, s.find_last_not_of(" \t") + 1 - a);
}

// "must be at least 1", "must be between 1 and 4096", "must be at least 0 and below 1",
// "must be above 0 and at most 10".
std::string rule(const std::string& least, const std::string& most, bool noMost, bool below,
                 bool above = false) {
    const std::string low = (above ? "above " : "at least ") + least;
    if (noMost) return "must be " + low;
    if (below || above) return "must be " + low + " and " + (below ? "below " : "at most ") + most;
    return "must be between " + least + " and " + most;
}

}  // namespace

CLI::Validator integerIn(int64_t least, int64_t most) {
    const bool noMost = most == std::numeric_limits<int>::max();
    const std::string text = rule(std::to_string(least), std::to_string(most), noMost, false);
    return CLI::Validator(
        [=](std::string& s) {
            const std::string t = trimmed(s);
            int64_t v = 0;
            const char* begin = t.data() + (t.size() > 1 && t[0] == '+' ? 1 : 0);
            const auto [end, ec] = std::from_chars(begin, t.data() + t.size(), v);
            if (t.empty() || end != t.data() + t.size()) {
                return "must be an integer (" + text.substr(8) + "), got '" + excerpt(s) + "'";
            }
            if (ec == std::errc::result_out_of_range || v < least || v > most)
                return text + ", got " + excerpt(t);
            return std::string();
        },
        text.substr(8));
}

CLI::Validator numberIn(double least, double most, bool belowMost, bool aboveLeast) {
    const bool noMost = std::isinf(most);
    const std::string text = rule(bound(least), bound(most), noMost, belowMost, aboveLeast);
    return CLI::Validator(
        [=](std::string& s) {
            const std::string t = trimmed(s);
            char* end = nullptr;
            const double v = t.empty() ? 0 : std::strtod(t.c_str(), &end);
            if (t.empty() || end != t.c_str() + t.size() || !std::isfinite(v))
                return "must be a finite number (" + text.substr(8) + "), got '" + excerpt(s) + "'";
            if ((aboveLeast ? v <= least : v < least) || (belowMost ? v >= most : v > most))
                return text + ", got " + excerpt(t);
            return std::string();
        },
        text.substr(8));
}

}  // namespace attnviz::cli
