// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The engine's texts that people read in the app (model set and preset labels, task names,
// variant summaries, the help of the live-editable options), translated: the core knows no
// translations, so its English texts are listed in core_texts.cpp for lupdate. A text not
// listed stays English; a test checks that every model set, preset, task and variant has one.
#include <QString>
#include <string>

namespace attnviz::ui {

QString coreText(const std::string& english);

}  // namespace attnviz::ui
