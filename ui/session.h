// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QStringList>

#include "core/workspace.h"
#include "view_state.h"

namespace attnviz::ui {

// A saved workspace: the sentence, the sentence list, the columns (checkpoint paths, in
// order) and the view. Stored as JSON ({"attnviz_session": 1, …}).
struct Session {
    QString source, target;
    QStringList sentences;
    int sentenceIndex = -1;
    QStringList columns;
    // Per column: its configuration when edited in the app (Variant tab), else null; applied
    // when the workspace is opened.
    QJsonArray columnConfigs;
    QString modelSet;  // the bundled set the columns came from (core/workspace.h), "" if none
    ViewState view;

    QJsonObject toJson() const;
    // Error message in *error when the JSON is not a session.
    static Session fromJson(const QJsonObject& o, QString* error);
    // Atomic write (the engine's atomic writer); false with a message on error.
    bool save(const QString& path, QString* error) const;
    // Reads a session file (at most kMaxBytes); false with "'path' …: reason" on error.
    static bool load(const QString& path, Session* out, QString* error);
    static constexpr qint64 kMaxBytes = 16 << 20;
    // Opens the columns' checkpoints; those that cannot be opened are listed in *errors as
    // "path: reason" (ui/column_files.h: never throws, refuses deeply nested headers).
    std::vector<ModelColumn> openColumns(QStringList* errors) const;
    // The workspace at the last close (QSettings), if any; and storing it.
    static bool loadLast(Session* out);
    void saveAsLast() const;
    // A marker in the settings, set while the last workspace is being restored at start and
    // cleared once it is shown: still set at the next start means that start never finished.
    static void setRestoring(bool on);
    static bool isRestoring();
    bool operator==(const Session& o) const { return toJson() == o.toJson(); }
};

}  // namespace attnviz::ui
