// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

namespace attnviz {

// The bundled models: $ATTNVIZ_MODELS, else resources/models near the executable
// (/proc/self/exe): ../resources/models, resources/models or ../share/attnviz/models. The
// model sets (core/workspace.h) and the presets (core/presets.h, its configs/) are under it.
std::string bundledModelDirectory();

}  // namespace attnviz
