// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QUrl>
#include <functional>

class QAction;
class QMainWindow;

namespace attnviz::ui {

// Help › Documentation (the README and docs/ in the system's viewer, QDesktopServices) and
// Help › About attnviz (version, licence, the papers the variants come from, where the
// documentation is). Each action's text goes through `named` (MainWindow::named, context
// "attnviz::ui::MainWindow"), so that it is retranslated with the window's.
void addHelpMenu(QMainWindow* window, const std::function<QAction*(QAction*, const char*)>& named);

// The README the Documentation action opens: beside the installed app
// (share/doc/attnviz/README.md), else the source tree's; an empty URL when neither exists.
QUrl documentationUrl();
// The About box's text (rich text): version, GPL-3.0-or-later, the papers cited, the docs.
QString aboutText();

}  // namespace attnviz::ui
