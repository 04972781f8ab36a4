// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The fonts of figures and of the lines view (render/figure.h, render/lines.h), in a file of
// their own so that both draw with them without including each other.
#include <QFont>
#include <QString>

namespace attnviz::render {

// A font of `family` (empty: figureFontFamily()) at `points`, for figures and the lines view.
QFont figureFont(const QString& family, double points, bool bold = false);

// The default family for figures: Noto Sans CJK SC when installed (CJK glyphs), else the
// application font.
QString figureFontFamily(const QString& language = QStringLiteral("en"));

}  // namespace attnviz::render
