// SPDX-License-Identifier: GPL-3.0-or-later
#include "single_instance.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLocalSocket>
#include <QRegularExpression>
#include <QStandardPaths>

namespace attnviz::ui {

namespace {

// A message longer than this is not from attnviz: the connection is dropped.
constexpr qint64 kMaxMessageBytes = 1 << 20;

}  // namespace

SingleInstance::SingleInstance(QString name, QObject* parent)
    : QObject(parent), m_name(name.isEmpty() ? defaultName() : std::move(name)) {
    m_server.setSocketOptions(QLocalServer::UserAccessOption);
    connect(&m_server, &QLocalServer::newConnection, this, &SingleInstance::takeConnection);
}

QString SingleInstance::defaultName() {
    QString display = qEnvironmentVariable("WAYLAND_DISPLAY", qEnvironmentVariable("DISPLAY"));
    display.replace(QRegularExpression("[^A-Za-z0-9_.-]"), "_");
    QString dir = QStandardPaths::writableLocation(QStandardPaths::RuntimeLocation);
    if (dir.isEmpty()) dir = QDir::tempPath();
    return dir + "/attnviz-" + (display.isEmpty() ? QString("none") : display) + ".socket";
}

bool SingleInstance::sendToRunning(const QStringList& paths, const QString& name, int timeoutMs) {
    QLocalSocket socket;
    socket.connectToServer(name.isEmpty() ? defaultName() : name);
    if (!socket.waitForConnected(timeoutMs)) return false;
    QJsonArray files;
    for (const QString& p : paths) files.append(QFileInfo(p).absoluteFilePath());
    socket.write(QJsonDocument(files).toJson(QJsonDocument::Compact) + "\n");
    if (!socket.waitForBytesWritten(timeoutMs)) return false;
    while (!socket.canReadLine())
        if (!socket.waitForReadyRead(timeoutMs)) return false;
    return socket.readLine().trimmed() == "ok";
}

bool SingleInstance::listen() {
    // Asked first: with socket options set, QLocalServer binds elsewhere and renames onto the
    // name, which would silently take it from a window that still listens there.
    QLocalSocket probe;
    probe.connectToServer(m_name);
    if (probe.waitForConnected(500)) return false;
    QLocalServer::removeServer(m_name);  // a socket file left by an app that crashed
    return m_server.listen(m_name);
}

void SingleInstance::takeConnection() {
    while (QLocalSocket* socket = m_server.nextPendingConnection()) {
        connect(socket, &QLocalSocket::disconnected, socket, &QObject::deleteLater);
        connect(socket, &QLocalSocket::readyRead, this, [this, socket] {
            if (!socket->canReadLine()) {
                if (socket->bytesAvailable() > kMaxMessageBytes) socket->abort();
                return;
            }
            const QJsonDocument doc = QJsonDocument::fromJson(socket->readLine());
            QStringList paths;
            for (const QJsonValue& v : doc.array())
                if (v.isString()) paths << v.toString();
            socket->write(doc.isArray() ? "ok\n" : "error\n");
            socket->flush();
            socket->disconnectFromServer();
            if (doc.isArray() && !paths.isEmpty()) emit filesReceived(paths);
        });
    }
}

}  // namespace attnviz::ui
