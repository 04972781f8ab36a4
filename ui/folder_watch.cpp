// SPDX-License-Identifier: GPL-3.0-or-later
#include "folder_watch.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QSet>
#include <QTimer>
#include <iterator>
#include <utility>
#include <vector>

namespace attnviz::ui {

FolderWatch::FolderWatch(QObject* parent)
    : QObject(parent),
      m_watcher(new QFileSystemWatcher(this)),
      m_debounce(new QTimer(this)),
      m_poll(new QTimer(this)) {
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(kDebounceMs);
    m_poll->setInterval(kPollMs);
    connect(m_debounce, &QTimer::timeout, this, &FolderWatch::scan);
    connect(m_poll, &QTimer::timeout, this, &FolderWatch::scan);
    auto later = [this] { m_debounce->start(); };  // restarted by each event of a burst
    connect(m_watcher, &QFileSystemWatcher::directoryChanged, this, later);
    connect(m_watcher, &QFileSystemWatcher::fileChanged, this, later);
}

bool FolderWatch::watch(const QString& dir, QString* error) {
    const QFileInfo info(dir);
    QString reason;
    if (dir.isEmpty() || !info.exists()) {
        reason = tr("the folder does not exist");
    } else if (!info.isDir()) {
        reason = tr("it is not a folder");
    } else if (!info.isReadable() || !info.isExecutable()) {
        reason = tr("the folder cannot be read");
    }
    if (!reason.isEmpty()) {
        if (error) *error = tr("Cannot watch %1: %2").arg(dir, reason);
        return false;
    }
    stop();
    m_dir = info.absoluteFilePath();
    m_watcher->addPath(m_dir);  // when it fails (no inotify watches left) polling remains
    m_poll->start();
    scan();
    return true;
}

void FolderWatch::stop() {
    ++m_generation;
    m_debounce->stop();
    m_poll->stop();
    if (!m_watcher->files().isEmpty()) m_watcher->removePaths(m_watcher->files());
    if (!m_watcher->directories().isEmpty()) m_watcher->removePaths(m_watcher->directories());
    m_known.clear();
    m_unreadable.clear();
    m_dir.clear();
}

void FolderWatch::scan() {
    if (m_dir.isEmpty()) return;
    const QDir dir(m_dir);
    if (dir.exists() && !m_watcher->directories().contains(m_dir)) m_watcher->addPath(m_dir);

    // Hidden files (the trainers' ".attnviz-XXXX.tmp", sync tools' partial files) are left
    // out by QDir::Files without QDir::Hidden.
    const QFileInfoList files =
        dir.exists()
            ? dir.entryInfoList({"*.safetensors"}, QDir::Files | QDir::CaseSensitive, QDir::Name)
            : QFileInfoList{};
    Events events;
    std::vector<std::pair<QString, QString>> unreadable;  // path, reason
    QSet<QString> present;
    for (const QFileInfo& f : files) {
        const QString path = f.absoluteFilePath();
        present << path;
        const Stamp stamp{f.size(), f.lastModified(), f.metadataChangeTime()};
        const auto known = m_known.constFind(path);
        if (known != m_known.cend() && *known == stamp) continue;
        // Not ready yet (still empty): looked at again next time.
        if (stamp.size <= 0) continue;
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly)) {  // said once, looked at again next time
            const auto said = m_unreadable.constFind(path);
            if (said == m_unreadable.cend() || !(*said == stamp)) {
                m_unreadable.insert(path, stamp);
                unreadable.emplace_back(path, file.errorString());
            }
            continue;
        }
        m_unreadable.remove(path);
        events.emplace_back(known == m_known.cend() ? Event::Added : Event::Changed, path);
        m_known.insert(path, stamp);
    }
    forget(present, events);
    rewatch(present);

    const int generation = m_generation;
    for (const auto& [path, reason] : unreadable) {
        if (m_generation != generation) return;
        emit checkpointUnreadable(path, reason);
    }
    for (const auto& [kind, path] : events) {
        if (m_generation != generation) return;  // a receiver stopped or moved the watch
        switch (kind) {
            case Event::Added:
                emit checkpointAdded(path);
                break;
            case Event::Changed:
                emit checkpointChanged(path);
                break;
            case Event::Removed:
                emit checkpointRemoved(path);
                break;
        }
    }
}

void FolderWatch::forget(const QSet<QString>& present, Events& events) {
    for (auto it = m_unreadable.begin(); it != m_unreadable.end();)
        it = present.contains(it.key()) ? std::next(it) : m_unreadable.erase(it);
    for (auto it = m_known.begin(); it != m_known.end();) {
        if (present.contains(it.key())) {
            ++it;
        } else {
            events.emplace_back(Event::Removed, it.key());
            it = m_known.erase(it);
        }
    }
}

// A rename over a file replaces its inode, whose watch goes with it: watch the path anew. Not
// a file that cannot be read (inotify refuses it, with a warning on every scan; the poll looks
// at it again).
void FolderWatch::rewatch(const QSet<QString>& present) {
    const QStringList watched = m_watcher->files();
    QStringList watchNow;
    for (const QString& path : present)
        if (!watched.contains(path) && !m_unreadable.contains(path)) watchNow << path;
    if (!watchNow.isEmpty()) m_watcher->addPaths(watchNow);
    for (const QString& path : watched)
        if (!present.contains(path)) m_watcher->removePath(path);
}

}  // namespace attnviz::ui
