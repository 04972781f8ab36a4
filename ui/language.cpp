// SPDX-License-Identifier: GPL-3.0-or-later
#include "language.h"

#include <QCoreApplication>
#include <QLabel>
#include <QLibraryInfo>
#include <QSettings>
#include <QTranslator>
#include <memory>

#include "render/words.h"

namespace attnviz::ui {

namespace {

QString g_current = "en";
std::unique_ptr<QTranslator> g_app, g_qt;

}  // namespace

QString chosenLanguage() {
    const QString code = QSettings().value("language").toString();
    return render::isLanguage(code) ? code : QString();
}

QString startupLanguage() {
    const QString chosen = chosenLanguage();
    return chosen.isEmpty() ? render::systemLanguage() : chosen;
}

void rememberLanguage(const QString& code) {
    QSettings settings;
    if (code.isEmpty())
        settings.remove("language");
    else
        settings.setValue("language", code);
}

QString currentLanguage() {
    return g_current;
}

void installLanguage(const QString& code) {
    // Every catalog loaded here, on the UI thread (figures drawn on workers only read them);
    // this also makes the embedded resources available.
    for (const QString& l : render::languageCodes()) render::catalog(l);
    const QString lang = render::isLanguage(code) ? code : "en";
    for (auto* t : {g_app.get(), g_qt.get()})
        if (t) QCoreApplication::removeTranslator(t);
    g_app.reset();
    g_qt.reset();
    if (lang != "en") {
        g_app = std::make_unique<QTranslator>();
        if (g_app->load(render::catalogResource(lang, "qm")))
            QCoreApplication::installTranslator(g_app.get());
        // Qt's own strings: the file dialogs, standard buttons, context menus.
        g_qt = std::make_unique<QTranslator>();
        if (g_qt->load("qtbase_" + lang, QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
            QCoreApplication::installTranslator(g_qt.get());
    }
    g_current = lang;
}

QString engineText(const std::string& english) {
    return QCoreApplication::translate("attnviz::Engine", english.c_str());
}

QLabel* rowLabel(QWidget* field) {
    auto* label = new QLabel;
    label->setBuddy(field);
    return label;
}

void setRowLabel(QWidget* field, const QString& text) {
    if (!field->parentWidget()) return;
    for (auto* label : field->parentWidget()->findChildren<QLabel*>(Qt::FindDirectChildrenOnly))
        if (label->buddy() == field) label->setText(text);
}

}  // namespace attnviz::ui
