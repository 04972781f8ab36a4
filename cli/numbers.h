// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <limits>

namespace attnviz::cli {

// The one road for a number on the command line: every numeric option takes one of these
// validators, which accept a finite number (an integer for integerIn) within bounds and say
// what is wrong in words, the user's text cut to an excerpt: "--base: must be at least 1, got
// 0", "--batch-size: must be between 1 and 65536, got 70000", "--lr: must be a finite number,
// got nan", "--steps: must be an integer, got 1.5". A bound of INT_MAX is no bound ("at least
// 1"). docs/limits.md lists the bounds.
CLI::Validator integerIn(int64_t least, int64_t most = std::numeric_limits<int>::max());
// For a floating-point option; `belowMost`: the value must be below `most` (dropout < 1);
// `aboveLeast`: above `least` (a learning rate > 0). `most` infinite: no upper bound.
CLI::Validator numberIn(double least, double most, bool belowMost = false, bool aboveLeast = false);

}  // namespace attnviz::cli
