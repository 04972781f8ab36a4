// SPDX-License-Identifier: GPL-3.0-or-later
#include "single_instance.h"

#include <sys/stat.h>

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLocalSocket>
#include <QRegularExpression>
#include <algorithm>

#include "render/runtime.h"

namespace attnviz::ui {
namespace {

bool privateFolderOf(const QString& socket, std::string* why) {
    return render::isPrivateDirectory(QFileInfo(socket).absolutePath().toStdString(), why);
}

bool isSocketFile(const QString& path) {
    struct stat st {};
    return ::lstat(QFile::encodeName(path).constData(), &st) == 0 && S_ISSOCK(st.st_mode);
}

}  // namespace

SingleInstance::SingleInstance(QString name, QObject* parent)
    : QObject(parent), m_name(std::move(name)) {
    if (m_name.isEmpty()) m_name = defaultName(&m_problem);
    m_server.setSocketOptions(QLocalServer::UserAccessOption);
    m_server.setMaxPendingConnections(kMaxPending);
    connect(&m_server, &QLocalServer::newConnection, this, &SingleInstance::takeConnections);
    m_watch.setInterval(kWatchMs);
    connect(&m_watch, &QTimer::timeout, this, &SingleInstance::watch);
}

SingleInstance::~SingleInstance() {
    // The server deletes its sockets: none of them may call back into this half-destroyed one.
    for (QLocalSocket* socket : m_server.findChildren<QLocalSocket*>()) socket->disconnect(this);
}

QString SingleInstance::defaultName(QString* why) {
    std::string reason;
    const std::string dir = render::stableRuntimeDirectory(&reason);
    if (dir.empty()) {
        if (why) *why = QString::fromStdString(reason);
        return {};
    }
    QString display = qEnvironmentVariable("WAYLAND_DISPLAY", qEnvironmentVariable("DISPLAY"));
    display.replace(QRegularExpression("[^A-Za-z0-9_.-]"), "_");
    return QString::fromStdString(dir) + "/attnviz-" +
           (display.isEmpty() ? QString("none") : display) + ".socket";
}

bool SingleInstance::sendToRunning(const QStringList& paths, const QString& name, int timeoutMs) {
    const QString target = name.isEmpty() ? defaultName() : name;
    if (target.isEmpty() || !privateFolderOf(target, nullptr)) return false;
    QLocalSocket socket;
    socket.connectToServer(target);
    if (!socket.waitForConnected(timeoutMs)) return false;
    QJsonArray files;
    for (const QString& p : paths) files.append(QFileInfo(p).absoluteFilePath());
    socket.write(QJsonDocument(files).toJson(QJsonDocument::Compact) + "\n");
    if (!socket.waitForBytesWritten(timeoutMs)) return false;
    while (!socket.canReadLine())
        if (!socket.waitForReadyRead(timeoutMs)) return false;
    return socket.readLine().trimmed() == "ok";
}

bool SingleInstance::folderIsPrivate() {
    if (m_name.isEmpty()) {  // defaultName() said why
        m_problem = tr("no private folder for the single-window socket (%1): this window will "
                       "not take files from later starts")
                        .arg(m_problem);
        return false;
    }
    std::string why;
    if (privateFolderOf(m_name, &why)) return true;
    m_problem = tr("the single-window socket's folder is not private (%1): this window will not "
                   "take files from later starts")
                    .arg(QString::fromStdString(why));
    return false;
}

bool SingleInstance::anotherListens() const {
    QLocalSocket probe;
    probe.connectToServer(m_name);
    return probe.waitForConnected(500);
}

bool SingleInstance::listen() {
    if (!folderIsPrivate()) return false;
    m_problem.clear();
    // Asked first: with socket options set, QLocalServer binds elsewhere and renames onto the
    // name, which would silently take it from a window that still listens there.
    if (anotherListens()) return false;
    QLocalServer::removeServer(m_name);  // a socket file left by an app that crashed
    if (!m_server.listen(m_name)) {
        m_problem = tr("cannot listen on %1 (%2): this window will not take files from later "
                       "starts")
                        .arg(m_name, m_server.errorString());
        return false;
    }
    m_watch.start();
    return true;
}

void SingleInstance::watch() {
    if (m_server.isListening() && isSocketFile(m_name)) return;
    m_server.close();
    if (!folderIsPrivate() || anotherListens()) {  // the name is not ours to take again
        m_watch.stop();
        return;
    }
    QLocalServer::removeServer(m_name);
    m_server.listen(m_name);  // when it fails, the next check tries again
}

void SingleInstance::takeConnections() {
    while (QLocalSocket* socket = m_server.nextPendingConnection()) {
        if (m_live.size() >= size_t(kMaxConnections)) drop(m_live.front());
        serve(socket);
    }
}

void SingleInstance::drop(QLocalSocket* socket) {
    m_live.erase(std::remove(m_live.begin(), m_live.end(), socket), m_live.end());
    socket->disconnect(this);
    socket->abort();
    socket->deleteLater();
}

void SingleInstance::serve(QLocalSocket* socket) {
    m_live.push_back(socket);
    socket->setReadBufferSize(kMaxMessageBytes + 1);
    QTimer::singleShot(kDeadlineMs, socket, [this, socket] { drop(socket); });
    connect(socket, &QLocalSocket::disconnected, this, [this, socket] { drop(socket); });
    connect(socket, &QLocalSocket::readyRead, this, [this, socket] {
        if (!socket->canReadLine()) {
            if (socket->bytesAvailable() > kMaxMessageBytes) drop(socket);
            return;
        }
        const QJsonDocument doc = QJsonDocument::fromJson(socket->readLine());
        QStringList paths;
        for (const QJsonValue& v : doc.array())
            if (v.isString()) paths << v.toString();
        socket->write(doc.isArray() ? "ok\n" : "error\n");
        socket->flush();
        socket->disconnect(this);  // served: only its goodbye is left
        m_live.erase(std::remove(m_live.begin(), m_live.end(), socket), m_live.end());
        connect(socket, &QLocalSocket::disconnected, socket, &QObject::deleteLater);
        socket->disconnectFromServer();
        if (doc.isArray() && !paths.isEmpty()) emit filesReceived(paths);
    });
}

}  // namespace attnviz::ui
