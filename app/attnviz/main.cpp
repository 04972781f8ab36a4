// SPDX-License-Identifier: GPL-3.0-or-later
// attnviz: the desktop app. All work is in ui/ and core/.
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QTextStream>

#include "render/runtime.h"
#include "render/words.h"
#include "ui/column_files.h"
#include "ui/command_line.h"
#include "ui/language.h"
#include "ui/main_window.h"
#include "ui/problems_panel.h"

int main(int argc, char** argv) {
    attnviz::render::ensureRuntimeDirectory();
    // Before QApplication, which would take "--session FILE" as its own session-manager option.
    attnviz::ui::ArgumentVector args(attnviz::ui::sessionSafeArguments(argc, argv));
    QApplication app(args.argc, args.pointers.data());
    QApplication::setApplicationName("attnviz");
    QApplication::setOrganizationName("attnviz");
    QApplication::setApplicationVersion("0.1.0");

    QCommandLineParser cli;
    cli.setApplicationDescription("Compare Transformer attention variants side by side.");
    cli.addHelpOption();
    cli.addVersionOption();
    QCommandLineOption models(
        "models", "Folder of checkpoints to open (default: a bundled model set).", "dir");
    QCommandLineOption modelSet(
        "model-set", "Bundled model set to open: en-es (default), toy, en-lm, toy-lm.", "id");
    QCommandLineOption text("text", "Source sentence.", "text", "I want to go to the station");
    QCommandLineOption target("target", "Target sentence (empty: greedy decoding).", "text");
    QCommandLineOption exportFigure("export-figure",
                                    "Render the comparison to an image file and exit.", "file");
    QCommandLineOption session("session", "Open a saved workspace (.attnviz.json).", "file");
    QCommandLineOption fresh("fresh",
                             "Do not restore the last workspace; open the bundled models.");
    QCommandLineOption language(
        "language",
        "Interface language for this run: en, zh_CN or zh_TW (default: the one chosen in "
        "View > Language, else the system's).",
        "code");
    cli.addOptions({models, modelSet, text, target, exportFigure, session, fresh, language});
    cli.process(app);

    QTextStream err(stderr);
    QString lang = attnviz::ui::startupLanguage();
    if (cli.isSet(language)) {
        lang = cli.value(language);
        if (!attnviz::render::isLanguage(lang)) {
            err << "attnviz: unknown --language '" << lang << "' (en, zh_CN, zh_TW)\n";
            return 2;
        }
    }
    attnviz::ui::installLanguage(lang);  // before any widget: they are made in it

    attnviz::ui::MainWindow window;
    window.setSentence(cli.value(text), cli.value(target));
    QString dir;
    if (cli.isSet(models)) {
        dir = cli.value(models);
        QStringList skipped;
        window.setColumns(attnviz::ui::openColumnsIn(dir, &skipped));
        if (!skipped.isEmpty())
            window.reportProblems(QCoreApplication::translate(
                                      "attnviz::ui::MainWindow",
                                      "%1 checkpoint(s) in %2 could not be opened and were skipped")
                                      .arg(skipped.size())
                                      .arg(dir),
                                  skipped);
    } else {
        QString id = cli.value(modelSet);
        if (!id.isEmpty() && !attnviz::findModelSet(id.toStdString())) {
            err << "attnviz: unknown model set '" << id << "' (known: en-es, toy, en-lm, toy-lm)\n";
            return 2;
        }
        if (id.isEmpty()) {
            // The first set that has models here (a checkout without the real-language
            // models falls back to the toy set).
            for (const auto& set : attnviz::modelSets()) {
                if (attnviz::modelSetAvailable(set)) {
                    id = QString::fromStdString(set.id);
                    break;
                }
            }
        }
        if (id.isEmpty()) id = QString::fromStdString(attnviz::modelSets().front().id);
        window.chooseModelSet(id, false);
        dir = QString::fromStdString(
            attnviz::modelSetDirectory(*attnviz::findModelSet(id.toStdString())));
    }
    if (window.columns().empty()) err << "attnviz: no models found in " << dir << "\n";
    // The last workspace comes back unless the command line says what to show.
    bool sessionFailed = false;
    if (cli.isSet(session)) {
        sessionFailed = !window.openSession(cli.value(session), nullptr);
    } else if (!cli.isSet(models) && !cli.isSet(modelSet) && !cli.isSet(fresh) &&
               !cli.isSet(exportFigure) && !cli.isSet(text)) {
        window.restoreLastSession();
    }
    // Everything that could not be opened, on stderr too (the only place headless).
    for (const QString& line : window.problems()->lines()) err << "attnviz: " << line << "\n";
    err.flush();

    if (cli.isSet(exportFigure)) {
        if (sessionFailed) return 2;  // the figure would not show what was asked for
        window.resize(1800, 1000);
        window.show();
        window.analyzeNow();
        QApplication::processEvents();
        QString error;
        const QString path = QFileInfo(cli.value(exportFigure)).absoluteFilePath();
        if (!window.exportFigure(path, &error)) {
            err << "attnviz: " << error << "\n";
            return 1;
        }
        QTextStream(stdout) << "attnviz: wrote " << path << "\n";
        return 0;
    }
    window.show();
    return QApplication::exec();
}
