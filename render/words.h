// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The languages of the interface and of figures: English (the source texts) and the
// catalogs compiled from resources/translations (zh_CN, zh_TW). The app installs a
// language's catalog for its widgets; a figure is drawn in its own language (FigureStyle),
// which may differ from the app's, so figure code translates through Words rather than
// through the application's installed translators. Token labels are never translated.
#include <QString>
#include <QStringList>
#include <vector>

#include "core/selection.h"

class QTranslator;

namespace attnviz::render {

struct Language {
    QString code;        // "en", "zh_CN", "zh_TW"
    QString nativeName;  // as the language's readers write it: "English", "简体中文", "繁體中文"
};
const std::vector<Language>& languages();
QStringList languageCodes();
bool isLanguage(const QString& code);
QString nativeName(const QString& code);  // "简体中文" for "zh_CN"; the code when unknown
// The embedded catalog of a language: suffix "qm" (compiled).
QString catalogResource(const QString& language, const char* suffix);
// The language for a locale name ("zh_CN", "zh_Hant_HK", "de_DE"…): Chinese in traditional
// script or of Taiwan, Hong Kong or Macao gives zh_TW, other Chinese zh_CN, the rest English.
QString languageForLocale(const QString& localeName);
QString systemLanguage();  // languageForLocale of the system locale

// The catalog of a language (nullptr for English or an unknown code): loaded once under a
// lock, kept for the program's life; translating with it only reads it, so figures may be
// drawn on worker threads. The app loads every catalog on the UI thread at start
// (ui/language.cpp).
const QTranslator* catalog(const QString& language);

// Translations in one language. lupdate extracts the texts from calls of the form
// words.translate("Context", "source"), as from QCoreApplication::translate.
class Words {
public:
    explicit Words(QString language = QStringLiteral("en"));
    const QString& language() const { return m_language; }
    // The translation, or the source text when the language has none for it.
    QString translate(const char* context, const char* source, const char* disambiguation = nullptr,
                      int n = -1) const;

private:
    QString m_language;
    const QTranslator* m_catalog = nullptr;
};

// The selection's labels (block names, "head 3", "mean of 4 heads", …) in a language.
Wording wording(const QString& language);

}  // namespace attnviz::render
