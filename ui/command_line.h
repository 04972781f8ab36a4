// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

namespace attnviz::ui {

// The command line with "--session FILE" rewritten to "--session=FILE". QGuiApplication
// takes "-session ID" and "--session ID" for X11 session management and removes both words
// before the app sees them, so the documented "--session FILE" would be silently ignored.
// The single-dash form, which a session manager uses to restart the app, is left to Qt.
std::vector<std::string> sessionSafeArguments(int argc, const char* const* argv);

// Keeps rewritten arguments alive for QApplication (which holds on to argc and argv).
struct ArgumentVector {
    explicit ArgumentVector(std::vector<std::string> args);
    std::vector<std::string> strings;
    std::vector<char*> pointers;
    int argc = 0;
};

}  // namespace attnviz::ui
