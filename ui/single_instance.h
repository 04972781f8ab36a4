// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// One window per user and display: a second `attnviz FILE...` (a double-click in the file
// manager while the app runs) hands its files to the running window, which opens them as
// if they were named on its own command line (MainWindow::openFiles), instead of starting a
// second app. Over a QLocalSocket in the user's runtime folder (XDG_RUNTIME_DIR, 0700):
// the second start writes the files' absolute paths as one JSON array and a newline, and
// waits for "ok" so that it exits only once the window took them.
#include <QLocalServer>
#include <QObject>
#include <QStringList>

namespace attnviz::ui {

class SingleInstance : public QObject {
    Q_OBJECT
public:
    // `name`: the socket's path; empty: defaultName().
    explicit SingleInstance(QString name = {}, QObject* parent = nullptr);

    // $XDG_RUNTIME_DIR/attnviz-<display>.socket: one per user and display (an Xvfb run does
    // not hand its files to the window on the desktop).
    static QString defaultName();
    // Hands `paths` (made absolute) to the app listening on `name`; true once it answered
    // that it took them, false when none listens or it did not answer within `timeoutMs`.
    // Blocking; needs no event loop.
    static bool sendToRunning(const QStringList& paths, const QString& name = {},
                              int timeoutMs = 3000);

    // Starts taking files from later starts; a socket left by an app that crashed is
    // replaced. False (nothing else changes) when another window listens on the name or
    // it cannot listen.
    bool listen();
    QString name() const { return m_name; }

signals:
    void filesReceived(const QStringList& paths);

private:
    void takeConnection();
    QString m_name;
    QLocalServer m_server;
};

}  // namespace attnviz::ui
