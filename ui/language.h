// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The interface's language (English, 简体中文, 繁體中文): chosen in View › Language and
// remembered, else the system's. Switching is live: the catalogs are swapped, and every text
// on screen that is one of the catalogs' messages (a menu, a dock title, a label, a tooltip…)
// is found again by its text and replaced by its translation, so widgets need no
// retranslation code of their own. Texts made from data (status messages, counts) are
// made again by their owners (MainWindow::setLanguage).
#include <QString>

class QMenu;
class QObject;
class QWidget;

namespace attnviz::ui {

// The remembered choice, else the system's language (render::systemLanguage).
QString startupLanguage();
// The remembered choice; empty: follow the system.
QString chosenLanguage();
void rememberLanguage(const QString& code);  // empty: follow the system again

// Installs the language's catalogs for the whole application (attnviz's, and Qt's own for
// its dialogs and standard buttons); English removes them. Unknown codes mean English.
void installLanguage(const QString& code);
// The installed one, "en" at first. The UI thread's: a job on a worker thread takes it as an
// argument (e.g. render::Words(currentLanguage()) captured when the job starts).
QString currentLanguage();

// Every text of `root`'s tree (itself, its child widgets and actions, item views' header
// items, combo box items, tab titles) that is a message of the catalogs in language `from`
// becomes the message in language `to`. Returns how many texts changed.
int retranslateTree(QObject* root, const QString& from, const QString& to);

// `text`, a message in language `from`, in language `to`; `text` itself when it is none.
QString translatedText(const QString& text, const QString& from, const QString& to);

// Marks a widget whose texts are data (model names, colour map names, language names), which
// retranslateTree leaves alone even when one equals a message; its tooltip is still
// translated.
void markAsData(QWidget* widget);

}  // namespace attnviz::ui
