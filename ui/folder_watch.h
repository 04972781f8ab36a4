// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDateTime>
#include <QHash>
#include <QObject>
#include <QSet>
#include <QString>
#include <utility>
#include <vector>

class QFileSystemWatcher;
class QTimer;

namespace attnviz::ui {

// Follows a folder of checkpoints (*.safetensors) that a trainer writes or a sync tool fills:
// reports each checkpoint that appears, is replaced or rewritten, or disappears. Other files
// (the trainers' temporaries ".attnviz-XXXX.tmp", hidden files, *.probe.json, *.trainstate.pt)
// are ignored.
//
// A file is known by its path, size, last-modified and metadata-change times, so a checkpoint
// renamed over another (a new inode) is noticed as a change. Events from QFileSystemWatcher
// (the folder and each checkpoint, re-added after every change since a rename-over drops the
// old inode's watch) are collected for 300 ms before the folder is compared with what is
// known; the folder is also compared every 2 s, for synced and network folders that deliver
// no events. A file that cannot be opened yet, or is still empty, is not reported; it is
// looked at again at the next comparison.
class FolderWatch : public QObject {
    Q_OBJECT
public:
    explicit FolderWatch(QObject* parent = nullptr);

    // Starts following `dir` (stopping any other folder) and reports the checkpoints already
    // there as added, sorted by file name, before returning. False, with the reason in *error
    // (naming the folder), when it does not exist or cannot be read.
    bool watch(const QString& dir, QString* error);
    // Stops following; nothing more is reported.
    void stop();
    // The folder followed (absolute), "" when none.
    QString folder() const { return m_dir; }

    static constexpr int kDebounceMs = 300;
    static constexpr int kPollMs = 2000;

signals:
    void checkpointAdded(QString path);    // a new *.safetensors in the folder
    void checkpointChanged(QString path);  // an existing one replaced or rewritten
    void checkpointRemoved(QString path);
    // A *.safetensors that exists but cannot be opened (no permission, …): said once per
    // state of the file; reported as added or changed once it can be read.
    void checkpointUnreadable(QString path, QString reason);

private:
    enum class Event { Added, Changed, Removed };
    using Events = std::vector<std::pair<Event, QString>>;
    void forget(const QSet<QString>& present, Events& events);  // files gone since the last scan
    void rewatch(const QSet<QString>& present);  // a watch on every readable file present
    struct Stamp {
        qint64 size = -1;
        QDateTime modified, metadataChanged;
        bool operator==(const Stamp& o) const {
            return size == o.size && modified == o.modified && metadataChanged == o.metadataChanged;
        }
    };
    // Compares the folder with m_known, emits for each difference, re-adds watches.
    void scan();

    QFileSystemWatcher* m_watcher;
    QTimer* m_debounce;
    QTimer* m_poll;
    QString m_dir;
    QHash<QString, Stamp> m_known;       // the checkpoints reported, as last reported
    QHash<QString, Stamp> m_unreadable;  // files that could not be opened, as last said
    int m_generation = 0;                // counts watch() and stop(): a receiver may call either
};

}  // namespace attnviz::ui
