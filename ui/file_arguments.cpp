// SPDX-License-Identifier: GPL-3.0-or-later
// MainWindow's files named from outside the window (file_arguments.h): several at once, each
// to where it belongs, every failure in the Problems panel.
#include "file_arguments.h"

#include <QDockWidget>
#include <algorithm>

#include "film_dock.h"
#include "main_window.h"

namespace attnviz::ui {

FileKind fileKind(const QString& path) {
    if (path.endsWith(".probe.json", Qt::CaseInsensitive)) return FileKind::Probe;
    if (path.endsWith(".json", Qt::CaseInsensitive)) return FileKind::Workspace;
    return FileKind::Checkpoint;
}

bool anyCheckpoint(const QStringList& paths) {
    return std::any_of(paths.begin(), paths.end(),
                       [](const QString& p) { return fileKind(p) == FileKind::Checkpoint; });
}

bool MainWindow::openProbeFile(const QString& path) {
    QString error;
    if (!m_film->openFile(path, &error)) {
        reportProblems(tr("A training probe could not be opened"), {error});
        return false;
    }
    showTextDock(m_filmDock);
    message(tr("opened %1").arg(path));
    return true;
}

int MainWindow::openFiles(const QStringList& paths) {
    // A workspace replaces the columns, so workspaces go first and checkpoints add to them.
    int opened = 0;
    for (FileKind kind : {FileKind::Workspace, FileKind::Checkpoint, FileKind::Probe}) {
        for (const QString& path : paths) {
            if (fileKind(path) != kind) continue;
            const bool ok = kind == FileKind::Workspace    ? openSession(path, nullptr)
                            : kind == FileKind::Checkpoint ? openCheckpointFile(path)
                                                           : openProbeFile(path);
            opened += ok ? 1 : 0;
        }
    }
    return opened;
}

}  // namespace attnviz::ui
