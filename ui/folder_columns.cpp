// SPDX-License-Identifier: GPL-3.0-or-later
#include "folder_columns.h"

#include <QFileInfo>
#include <utility>

#include "column_files.h"
#include "folder_watch.h"
#include "workspace_model.h"

namespace attnviz::ui {

FolderColumns::FolderColumns(WorkspaceModel* workspace, QObject* parent)
    : QObject(parent), m_workspace(workspace), m_watch(new FolderWatch(this)) {
    connect(m_watch, &FolderWatch::checkpointAdded, this, &FolderColumns::follow);
    connect(m_watch, &FolderWatch::checkpointChanged, this, &FolderColumns::follow);
    connect(m_watch, &FolderWatch::checkpointRemoved, this, [this](const QString& path) {
        emit message(tr("watching %1: %2 was removed (its column stays)")
                         .arg(folder(), QFileInfo(path).fileName()));
    });
    connect(m_watch, &FolderWatch::checkpointUnreadable, this,
            [this](const QString& path, const QString& reason) {
                emit problems(tr("A checkpoint in the watched folder cannot be read (tried again "
                                 "when the file changes)"),
                              {QString("%1: %2").arg(path, reason)});
            });
    // The analysis that an event starts ends with a summary; the event is said with it.
    connect(m_workspace, &WorkspaceModel::resultsChanged, this, [this] {
        if (!m_note.isEmpty())
            emit message(m_workspace->summary() + " · " + std::exchange(m_note, {}));
        if (m_reveal >= 0) emit reveal(std::exchange(m_reveal, -1));
    });
}

QString FolderColumns::folder() const {
    return m_watch->folder();
}

bool FolderColumns::watch(const QString& dir, QString* error) {
    m_note.clear();
    bool troubled = false;  // a checkpoint already there could not be opened
    const auto watchProblems = connect(this, &FolderColumns::problems, [&] { troubled = true; });
    QString e;
    const bool ok = m_watch->watch(dir, &e);  // reports the checkpoints already there
    disconnect(watchProblems);
    if (!ok) {  // the folder watched before, if any, stays
        emit problems(tr("A folder could not be watched"), {e});
        if (error) *error = e;
        return false;
    }
    emit watching(m_watch->folder());
    if (m_note.isEmpty() && !troubled)
        emit message(tr("watching %1: no checkpoints yet").arg(folder()));
    return true;
}

void FolderColumns::stop() {
    if (m_watch->folder().isEmpty()) return;
    const QString dir = m_watch->folder();
    m_watch->stop();
    emit watching({});
    emit message(tr("stopped watching %1 (its columns stay)").arg(dir));
}

void FolderColumns::follow(const QString& path) {
    QString error;
    auto column = openColumn(path, &error);
    if (!column) {  // e.g. partly synced: the watch reports it again when it changes
        emit problems(tr("A checkpoint in the watched folder could not be opened (tried again "
                         "when the file changes)"),
                      {error});
        return;
    }
    const QString file = QFileInfo(path).canonicalFilePath();
    auto samePath = [&](const std::string& p) {
        return !p.empty() && QFileInfo(QString::fromStdString(p)).canonicalFilePath() == file;
    };
    std::vector<ModelColumn> cols = m_workspace->columns();
    int replaced = 0;
    for (auto& c : cols) {
        if (!samePath(c.path)) continue;
        if (replaced++ == 0) {
            c = *column;
        } else if (auto again = openColumn(path, &error)) {  // its own model, as if opened twice
            c = std::move(*again);
        }
    }
    const QString name = QFileInfo(path).fileName();
    QString note;
    if (replaced) {
        if (const auto steps = column->model->training().steps) {
            note = tr("watching %1: updated %2 (step %3)")
                       .arg(folder(), name, QString::number(*steps));
        } else {
            note = tr("watching %1: updated %2").arg(folder(), name);
        }
        m_workspace->setColumns(
            std::move(cols));  // same places: the view stays, the analysis reruns
    } else {
        note = tr("watching %1: added %2").arg(folder(), name);
        m_workspace->addColumn(std::move(*column));
    }
    m_note = note;
    m_reveal = -1;
    for (int c = 0; c < int(m_workspace->columns().size()); ++c)
        if (samePath(m_workspace->columns()[size_t(c)].path)) m_reveal = c;
    emit message(note);
}

}  // namespace attnviz::ui
