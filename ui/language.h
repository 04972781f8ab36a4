// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The interface's language (English, 简体中文, 繁體中文): chosen in View › Language and
// remembered, else the system's. Switching is live and Qt's own: installLanguage swaps the
// application's translators, Qt sends QEvent::LanguageChange to every widget, and each widget
// sets its own texts again in its changeEvent (a retranslateUi() of its own, as Qt's
// multi-language examples do). Texts made from data (status lines, counts) are made again
// there by their owners, from what is already computed.
#include <QString>
#include <string>

class QLabel;
class QWidget;

namespace attnviz::ui {

// The remembered choice, else the system's language (render::systemLanguage).
QString startupLanguage();
// The remembered choice; empty: follow the system.
QString chosenLanguage();
void rememberLanguage(const QString& code);  // empty: follow the system again

// Installs the language's catalogs for the whole application (attnviz's, and Qt's own for
// its dialogs and standard buttons); English removes them. Unknown codes mean English. Every
// widget then receives QEvent::LanguageChange.
void installLanguage(const QString& code);
// The installed one, "en" at first. The UI thread's: a job on a worker thread takes it as an
// argument (e.g. render::Words(currentLanguage()) captured when the job starts).
QString currentLanguage();

// An engine text (a model set's or task's name, a preset's label, a variant's summary, an
// option's help), marked in core/ with ATTNVIZ_TR (core/texts.h), in the installed language;
// the English text when the catalog has none.
QString engineText(const std::string& english);

// Form rows whose label a retranslateUi() names: an empty label, buddy of `field`, to be
// added with QFormLayout::addRow(rowLabel(field), field or a layout holding it)…
QLabel* rowLabel(QWidget* field);
// …and the text of that label (the label beside `field` whose buddy it is).
void setRowLabel(QWidget* field, const QString& text);

}  // namespace attnviz::ui
