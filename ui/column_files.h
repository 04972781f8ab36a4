// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStringList>
#include <optional>

#include "core/workspace.h"

namespace attnviz::ui {

// Opens a checkpoint as a column; nullopt with "path: reason" in *error when it cannot be
// opened. The engine's reader applies the limits of every file (docs/limits.md): a FIFO,
// device or folder is refused without blocking, JSON nested deeper than kMaxJsonDepth is
// refused, the training metadata is checked once. Never throws.
std::optional<ModelColumn> openColumn(const QString& path, QString* error);
// Every *.safetensors in `dir`, sorted by name; the ones that cannot be opened are listed in
// *errors ("path: reason") and skipped.
std::vector<ModelColumn> openColumnsIn(const QString& dir, QStringList* errors);

}  // namespace attnviz::ui
