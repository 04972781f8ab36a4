// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Qt on headless machines, for the app and the command line, and the folder of the user's
// private runtime files (the app's single-instance socket).
#include <string>

namespace attnviz::render {

// Headless machines often have no XDG_RUNTIME_DIR: gives Qt a private one instead of a
// warning on every start, <temp>/attnviz-runtime-<uid> when that is private (made 0700 when
// missing), else a new one made with mkdtemp (never a folder another user made or can
// write). Call before creating the application.
void ensureRuntimeDirectory();

// Whether `dir` is private to this user, as lstat sees it: a folder (not a symbolic link, not
// a file), owned by the effective user, with permissions exactly 0700 (no bit for the group
// or others). False with the reason in *why ("'/tmp/x' is owned by uid 65534, not by uid 0").
bool isPrivateDirectory(const std::string& dir, std::string* why = nullptr);

// The private folder that every start of this user finds again, for the single-instance
// socket: $XDG_RUNTIME_DIR as the session set it, when private; else
// <temp>/attnviz-runtime-<uid>, made 0700 when missing, when private. "" with the reasons in
// *why when neither is (another user made the folder first, a symbolic link, mode 0777, a
// file): the caller then does without what needed it, and says so. Never a shared folder,
// and never the folder of one start only (ensureRuntimeDirectory's mkdtemp one).
std::string stableRuntimeDirectory(std::string* why = nullptr);

// A QGuiApplication on the offscreen platform (unless QT_QPA_PLATFORM says otherwise) when
// there is no application object yet: what figures need, without a display.
void ensureGuiApplication();

}  // namespace attnviz::render
