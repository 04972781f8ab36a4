// SPDX-License-Identifier: GPL-3.0-or-later
#include "fonts.h"

#include <QFontDatabase>
#include <QStringList>
#include <algorithm>

namespace attnviz::render {

QFont figureFont(const QString& family, double points, bool bold) {
    QFont f(family.isEmpty() ? figureFontFamily() : family);
    f.setPointSizeF(std::max(1.0, points));
    f.setBold(bold);
    return f;
}

QString figureFontFamily(const QString& language) {
    // Han characters drawn with the glyph shapes their readers expect: Taiwan's (TC) for
    // 繁體中文, mainland China's (SC) otherwise.
    const QStringList order =
        language == "zh_TW"
            ? QStringList{"Noto Sans CJK TC", "Noto Sans CJK SC", "Noto Sans CJK JP", "Noto Sans"}
            : QStringList{"Noto Sans CJK SC", "Noto Sans CJK JP", "Noto Sans"};
    const QStringList installed = QFontDatabase::families();
    for (const QString& f : order)
        if (installed.contains(f)) return f;
    return QFont().family();
}

}  // namespace attnviz::render
