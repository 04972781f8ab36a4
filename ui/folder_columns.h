// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QStringList>

namespace attnviz::ui {

class FolderWatch;
class WorkspaceModel;

// A watched folder's checkpoints as columns of the workspace (File › Watch folder…): a column
// per checkpoint in it, now and as they appear; a column reloaded in place (the view kept,
// the analysis rerun) when its file is replaced. It decides what a FolderWatch event means
// for the columns; the window only shows what it says.
class FolderColumns : public QObject {
    Q_OBJECT
public:
    explicit FolderColumns(WorkspaceModel* workspace, QObject* parent = nullptr);
    // Replaces the folder watched before. False, with the reason in *error and in problems(),
    // when the folder cannot be watched (the one watched before then stays).
    bool watch(const QString& dir, QString* error);
    void stop();
    QString folder() const;  // "" when none

signals:
    void message(const QString& text);  // for the status bar
    // Files that could not be opened (tried again when they change).
    void problems(const QString& heading, const QStringList& details);
    void watching(const QString& dir);  // started ("" : stopped)
    // A column a checkpoint added or updated, once its analysis is drawn: worth scrolling to.
    void reveal(int column);

private:
    void follow(const QString& path);  // a checkpoint appeared or changed

    WorkspaceModel* m_workspace;
    FolderWatch* m_watch;
    QString m_note;     // the last event, said again with the analysis it caused
    int m_reveal = -1;  // the column of the last event, revealed once analysed
};

}  // namespace attnviz::ui
