// SPDX-License-Identifier: GPL-3.0-or-later
// attnviz: the desktop app. All work is in ui/ and core/.
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QTextStream>

#include "render/runtime.h"
#include "ui/main_window.h"

int main(int argc, char** argv) {
    attnviz::render::ensureRuntimeDirectory();
    QApplication app(argc, argv);
    QApplication::setApplicationName("attnviz");
    QApplication::setOrganizationName("attnviz");
    QApplication::setApplicationVersion("0.1.0");

    QCommandLineParser cli;
    cli.setApplicationDescription("Compare Transformer attention variants side by side.");
    cli.addHelpOption();
    cli.addVersionOption();
    QCommandLineOption models(
        "models", "Folder of checkpoints to open (default: the bundled models).", "dir");
    QCommandLineOption text("text", "Source sentence.", "text", "I want to go to the station");
    QCommandLineOption target("target", "Target sentence (empty: greedy decoding).", "text");
    QCommandLineOption exportFigure("export-figure",
                                    "Render the comparison to an image file and exit.", "file");
    QCommandLineOption session("session", "Open a saved workspace (.attnviz.json).", "file");
    QCommandLineOption fresh("fresh",
                             "Do not restore the last workspace; open the bundled models.");
    cli.addOptions({models, text, target, exportFigure, session, fresh});
    cli.process(app);

    QTextStream err(stderr);
    const QString dir = cli.isSet(models)
                            ? cli.value(models)
                            : QString::fromStdString(attnviz::bundledModelDirectory());
    std::vector<std::string> skipped;
    auto columns = attnviz::loadModelDirectory(dir.toStdString(), &skipped);
    for (const auto& e : skipped)
        err << "attnviz: skipped a checkpoint: " << QString::fromStdString(e) << "\n";
    if (columns.empty()) err << "attnviz: no models found in " << dir << "\n";

    attnviz::ui::MainWindow window;
    window.setSentence(cli.value(text), cli.value(target));
    window.setColumns(std::move(columns));
    // The last workspace comes back unless the command line says what to show.
    attnviz::ui::Session last;
    if (cli.isSet(session)) {
        QString error;
        if (!window.openSession(cli.value(session), &error)) err << "attnviz: " << error << "\n";
    } else if (!cli.isSet(models) && !cli.isSet(fresh) && !cli.isSet(exportFigure) &&
               !cli.isSet(text) && attnviz::ui::MainWindow::lastSession(&last)) {
        QStringList errors;
        window.applySession(last, &errors);
        for (const auto& e : errors)
            err << "attnviz: the last workspace lost a column: " << e << "\n";
    }

    if (cli.isSet(exportFigure)) {
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
