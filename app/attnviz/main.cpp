// SPDX-License-Identifier: GPL-3.0-or-later
// attnviz: the desktop app. All work is in ui/ and core/.
#include <QApplication>
#include <QComboBox>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QStandardItemModel>
#include <QTextStream>

#include "core/file_io.h"
#include "render/runtime.h"
#include "render/words.h"
#include "ui/background.h"
#include "ui/column_files.h"
#include "ui/command_line.h"
#include "ui/file_arguments.h"
#include "ui/image_chooser.h"
#include "ui/image_view.h"
#include "ui/language.h"
#include "ui/main_window.h"
#include "ui/presentation.h"
#include "ui/problems_panel.h"
#include "ui/single_instance.h"

int main(int argc, char** argv) {
    attnviz::removeTemporariesOnTermination();  // killed mid-save: no temp file left behind
    attnviz::render::ensureRuntimeDirectory();
    // Before QApplication, which would take "--session FILE" as its own session-manager option.
    attnviz::ui::ArgumentVector args(attnviz::ui::sessionSafeArguments(argc, argv));
    QApplication app(args.argc, args.pointers.data());
    const attnviz::ui::BackgroundJobsFinish backgroundJobsFinish;  // before the app goes
    QApplication::setApplicationName("attnviz");
    QApplication::setOrganizationName("attnviz");
    QApplication::setApplicationVersion("0.1.0");
    QApplication::setDesktopFileName("org.attnviz.attnviz");  // packaging/: icon, Wayland

    QCommandLineParser cli;
    cli.setApplicationDescription(attnviz::ui::AppOptions::description());
    cli.addHelpOption();
    cli.addVersionOption();
    const attnviz::ui::AppOptions o;
    cli.addOptions(o.all());
    cli.addPositionalArgument(attnviz::ui::AppOptions::filesName(),
                              attnviz::ui::AppOptions::filesHelp(),
                              attnviz::ui::AppOptions::filesSyntax());
    cli.process(app);

    QTextStream err(stderr);
    QString lang = attnviz::ui::startupLanguage();
    if (cli.isSet(o.language)) {
        lang = cli.value(o.language);
        if (!attnviz::render::isLanguage(lang)) {
            err << "attnviz: unknown --language '" << lang << "' (en, zh_CN, zh_TW)\n";
            return 2;
        }
    }
    attnviz::ui::installLanguage(lang);  // before any widget: they are made in it
    // Files named on the command line (or by the file manager) go to the window that already
    // runs, if any; else checkpoints among them are the columns, without a bundled set.
    const QStringList files = cli.positionalArguments();
    const bool ownWindow = cli.isSet(o.exportFigure) || cli.isSet(o.newInstance);
    if (!files.isEmpty() && !ownWindow && attnviz::ui::SingleInstance::sendToRunning(files))
        return 0;

    attnviz::ui::MainWindow window;
    if (cli.isSet(o.listModelSets)) {  // what the Models box offers, as a person sees it
        const QComboBox* box = window.modelSetBox();
        const auto* items = qobject_cast<const QStandardItemModel*>(box->model());
        QTextStream out(stdout);
        for (int i = 0; i < box->count(); ++i)
            out << box->itemData(i).toString() << "\t"
                << (items && items->item(i)->isEnabled() ? "enabled" : "disabled") << "\t"
                << box->itemText(i) << "\n";
        return 0;
    }
    window.setSentence(cli.value(o.text), cli.value(o.target));
    const bool checkpointFiles = attnviz::ui::anyCheckpoint(files);
    QString dir;
    if (cli.isSet(o.models)) {
        dir = cli.value(o.models);
        QStringList skipped;
        window.setColumns(attnviz::ui::openColumnsIn(dir, &skipped));
        if (!skipped.isEmpty())
            window.reportProblems(QCoreApplication::translate(
                                      "attnviz::ui::MainWindow",
                                      "%1 checkpoint(s) in %2 could not be opened and were skipped")
                                      .arg(skipped.size())
                                      .arg(dir),
                                  skipped);
    } else if (!checkpointFiles) {
        QString id = cli.value(o.modelSet);
        if (!id.isEmpty() && !attnviz::findModelSet(id.toStdString())) {
            QStringList known;
            for (const auto& set : attnviz::modelSets()) known << QString::fromStdString(set.id);
            err << "attnviz: unknown model set '" << id << "' (known: " << known.join(", ")
                << ")\n";
            return 2;
        }
        if (id.isEmpty()) {
            // The first set that has models here (a checkout without the real-language
            // models falls back to the toy set).
            for (const auto& set : attnviz::modelSets()) {
                if (attnviz::modelSetSize(set) > 0) {
                    id = QString::fromStdString(set.id);
                    break;
                }
            }
        }
        if (id.isEmpty() && !attnviz::modelSets().empty())
            id = QString::fromStdString(attnviz::modelSets().front().id);
        dir = QString::fromStdString(attnviz::bundledModelDirectory());
        if (const auto* set = attnviz::findModelSet(id.toStdString())) {
            window.chooseModelSet(id, false);
            dir = QString::fromStdString(attnviz::modelSetDirectory(*set));
        }
    }
    if (window.columns().empty() && !checkpointFiles)
        err << "attnviz: no models found in " << dir << "\n";
    // The last workspace comes back unless the command line says what to show.
    bool sessionFailed = false;
    if (cli.isSet(o.session)) {
        sessionFailed = !window.openSession(cli.value(o.session), nullptr);
    } else if (!cli.isSet(o.models) && !cli.isSet(o.modelSet) && !cli.isSet(o.fresh) &&
               !cli.isSet(o.exportFigure) && !cli.isSet(o.text) && files.isEmpty()) {
        window.restoreLastSession();
    }
    window.openFiles(files);
    // A workspace's own image is decoded in the background; a figure shows it, and says on
    // stderr when it could not be read.
    if (cli.isSet(o.exportFigure) && window.imageView())
        window.imageView()->chooser()->waitForImage();
    // Everything that could not be opened, on stderr too (the only place headless).
    for (const QString& line : window.problems()->lines()) err << "attnviz: " << line << "\n";
    err.flush();

    if (cli.isSet(o.exportFigure)) {
        if (sessionFailed) return 2;  // the figure would not show what was asked for
        window.resize(1800, 1000);
        window.show();
        window.analyzeNow();
        QApplication::processEvents();
        QString error;
        const QString path = QFileInfo(cli.value(o.exportFigure)).absoluteFilePath();
        if (!window.exportFigure(path, &error)) {
            err << "attnviz: " << error << "\n";
            return 1;
        }
        QTextStream(stdout) << "attnviz: wrote " << path << "\n";
        return 0;
    }
    window.placeOnScreen();
    window.show();
    if (cli.isSet(o.present)) window.presentation()->setActive(true);
    attnviz::ui::SingleInstance instance;  // later starts hand their files to this window
    QObject::connect(&instance, &attnviz::ui::SingleInstance::filesReceived, &window,
                     [&window](const QStringList& paths) {
                         window.openFiles(paths);
                         window.raise();
                         window.activateWindow();
                     });
    if (!ownWindow && !instance.listen() && !instance.problem().isEmpty())
        err << "attnviz: " << instance.problem() << "\n" << Qt::flush;
    return QApplication::exec();
}
