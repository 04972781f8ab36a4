// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QCommandLineOption>
#include <QList>
#include <string>
#include <vector>

namespace attnviz::ui {

// The command line with "--session FILE" rewritten to "--session=FILE". QGuiApplication
// takes "-session ID" and "--session ID" for X11 session management and removes both words
// before the app sees them, so the documented "--session FILE" would be silently ignored.
// The single-dash form, which a session manager uses to restart the app, is left to Qt.
std::vector<std::string> sessionSafeArguments(int argc, const char* const* argv);

// Keeps rewritten arguments alive for QApplication (which holds on to argc and argv).
struct ArgumentVector {
    explicit ArgumentVector(std::vector<std::string> args);
    std::vector<std::string> strings;
    std::vector<char*> pointers;
    int argc = 0;
};

// The desktop app's command line, in one table: app/attnviz/main.cpp parses it and
// packaging/docgen.cpp writes the man page from it, so the two cannot drift. --help and
// --version are QCommandLineParser's own.
struct AppOptions {
    static const char* description();
    // The positional arguments: their name, help text and syntax, as --help shows them.
    static const char* filesName() { return "files"; }
    static const char* filesHelp();
    static const char* filesSyntax() { return "[FILE...]"; }

    QCommandLineOption models{
        "models", "Folder of checkpoints to open (default: a bundled model set).", "dir"};
    QCommandLineOption modelSet{
        "model-set",
        "Bundled model set to open, by id (default: the first; 'attnviz-cli sets' lists them).",
        "id"};
    QCommandLineOption text{"text", "Source sentence.", "text", "I want to go to the station"};
    QCommandLineOption target{"target", "Target sentence (empty: greedy decoding).", "text"};
    QCommandLineOption exportFigure{"export-figure",
                                    "Render the comparison to an image file and exit.", "file"};
    QCommandLineOption session{"session", "Open a saved workspace (.attnviz.json).", "file"};
    QCommandLineOption fresh{"fresh",
                             "Do not restore the last workspace; open the bundled models."};
    QCommandLineOption language{
        "language",
        "Interface language for this run: en, zh_CN or zh_TW (default: the one chosen in "
        "View > Language, else the system's).",
        "code"};

    QCommandLineOption present{
        "present",
        "Open in presentation mode: full screen, large labels, the sentence and its translation "
        "as a caption; Left/Right step the query through the tokens, Esc leaves (F5 in the "
        "app)."};
    QCommandLineOption newInstance{
        "new-instance",
        "Start a new window even when attnviz already runs (otherwise files given on the "
        "command line go to the running window)."};

    QCommandLineOption listModelSets{
        "list-model-sets",
        "Print the Models box's entries, one a line (id, whether it can be chosen, the text "
        "shown with its model count), and exit."};

    QList<QCommandLineOption> all() const {
        return {models, modelSet, text,    target,      exportFigure, session,
                fresh,  language, present, newInstance, listModelSets};
    }
};

}  // namespace attnviz::ui
