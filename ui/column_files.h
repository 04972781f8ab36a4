// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStringList>
#include <optional>
#include <string_view>

#include "core/workspace.h"

namespace attnviz::ui {

// The app's own guard on the files it opens, whatever the engine's parser does: a checkpoint
// header (or a JSON text in its metadata) nested deeper than this is refused before the engine
// reads it, so that no recursive code (printing, copying, comparing) ever meets it.
constexpr int kMaxJsonNesting = 256;

// The deepest nesting of [ and { in a JSON text, counting strings that hold JSON themselves
// (checkpoint metadata values are JSON texts inside strings). Iterative; any text is fine.
int jsonNestingDepth(std::string_view text);

// Opens a checkpoint as a column; nullopt with "path: reason" in *error when it cannot be
// opened (unreadable, malformed, nested too deeply). Never throws.
std::optional<ModelColumn> openColumn(const QString& path, QString* error);
// Every *.safetensors in `dir`, sorted by name; the ones that cannot be opened are listed in
// *errors ("path: reason") and skipped.
std::vector<ModelColumn> openColumnsIn(const QString& dir, QStringList* errors);

}  // namespace attnviz::ui
