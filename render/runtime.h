// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Qt on headless machines, for the app and the command line.
namespace attnviz::render {

// Headless machines often have no XDG_RUNTIME_DIR: gives Qt a private one (0700 in the temp
// directory) instead of a warning on every start. Call before creating the application.
void ensureRuntimeDirectory();

// A QGuiApplication on the offscreen platform (unless QT_QPA_PLATFORM says otherwise) when
// there is no application object yet: what figures need, without a display.
void ensureGuiApplication();

}  // namespace attnviz::render
