// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Assertions shared by the test programs.
#include <gtest/gtest.h>

// The text contains the part (the text shown whole when it does not).
#define EXPECT_HAS(text, part) EXPECT_NE((text).find(part), std::string::npos) << (text)
