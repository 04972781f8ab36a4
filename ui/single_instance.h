// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// One window per user and display: a second `attnviz FILE...` (a double-click in the file
// manager while the app runs) hands its files to the running window, which opens them as
// if they were named on its own command line (MainWindow::openFiles), instead of starting a
// second app. Over a QLocalSocket in the user's private runtime folder
// (render::stableRuntimeDirectory: a real folder of the user's, mode 0700, checked with lstat;
// never a shared one, where another user could take the name and receive or send files): the
// second start writes the files' absolute paths as one JSON array and a newline, and waits
// for "ok" so that it exits only once the window took them.
//
// The server outlives hostile clients (issue 48, item 2): at most kMaxPending connections wait
// to be served and kMaxConnections are served at once (a newer one drops the oldest), each
// must deliver its message (at most kMaxMessageBytes) within kDeadlineMs, and the server is
// checked every kWatchMs: when it stopped listening (Qt closes it when accepting fails, out
// of file descriptors) or its socket file was removed, it listens again.
#include <QLocalServer>
#include <QObject>
#include <QStringList>
#include <QTimer>
#include <deque>

class QLocalSocket;

namespace attnviz::ui {

class SingleInstance : public QObject {
    Q_OBJECT
public:
    static constexpr int kMaxPending = 8;
    static constexpr int kMaxConnections = 16;
    static constexpr int kDeadlineMs = 2000;
    static constexpr qint64 kMaxMessageBytes = 1 << 20;
    static constexpr int kWatchMs = 1000;

    // `name`: the socket's path, in a folder private to the user (else listen() and
    // sendToRunning() refuse it); empty: defaultName().
    explicit SingleInstance(QString name = {}, QObject* parent = nullptr);
    ~SingleInstance() override;

    // <private runtime folder>/attnviz-<display>.socket: one per user and display (an Xvfb
    // run does not hand its files to the window on the desktop). "" with the reason in *why
    // when the user has no private runtime folder.
    static QString defaultName(QString* why = nullptr);
    // Hands `paths` (made absolute) to the app listening on `name`; true once it answered
    // that it took them, false when none listens, the name's folder is not private or it did
    // not answer within `timeoutMs`. Blocking; needs no event loop.
    static bool sendToRunning(const QStringList& paths, const QString& name = {},
                              int timeoutMs = 3000);

    // Starts taking files from later starts; a socket left by an app that crashed is
    // replaced. False (nothing else changes) when another window listens on the name, or
    // when it cannot listen: then problem() says why, in a sentence for stderr.
    bool listen();
    QString name() const { return m_name; }
    QString problem() const { return m_problem; }

signals:
    void filesReceived(const QStringList& paths);

private:
    bool folderIsPrivate();   // m_name's folder; m_problem says why not
    bool anotherListens() const;
    void takeConnections();
    void serve(QLocalSocket* socket);
    void drop(QLocalSocket* socket);
    void watch();
    QString m_name, m_problem;
    QLocalServer m_server;
    QTimer m_watch;
    std::deque<QLocalSocket*> m_live;  // being served, oldest first
};

}  // namespace attnviz::ui
