// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QStringList>
#include <optional>

#include "core/session_file.h"
#include "core/workspace.h"
#include "view_state.h"

namespace attnviz::ui {

// A saved workspace: the sentence, the sentence list, the columns (checkpoint paths, in
// order) and the view, in Qt's types for the widgets. The file ({"attnviz_session": 1, …})
// is read, checked and written by the engine (core/session_file.h), with the limits of every
// file the app reads (docs/limits.md).
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
    std::optional<SessionImage> image;  // image mode's image and panels, when it was on

    SessionFile toFile() const;
    static Session fromFile(const SessionFile& f);
    // Atomic write (the engine's atomic writer); false with a message on error. The columns
    // are stored as bundled names or paths relative to the file (core storeColumnPaths).
    bool save(const QString& path, QString* error) const;
    // Reads a session file (core readSessionFile); false with a message naming the file and
    // what is wrong on error. The columns come back as paths (core resolveColumnPaths).
    static bool load(const QString& path, Session* out, QString* error);
    // Opens the columns' checkpoints; those that cannot be opened are listed in *errors as
    // "path: reason" (ui/column_files.h: never throws, refuses deeply nested headers).
    std::vector<ModelColumn> openColumns(QStringList* errors) const;
    // The workspace at the last close (QSettings), if any; and storing it. A pasted image
    // above kMaxPastedPngInSettings bytes is kept in lastPastedImagePath() instead, as the
    // workspace's image file (the settings file is read whole at every start).
    static bool loadLast(Session* out);
    void saveAsLast() const;
    static constexpr size_t kMaxPastedPngInSettings = 256 * 1024;
    static QString lastPastedImagePath();
    // A marker in the settings, set while the last workspace is being restored at start and
    // cleared once it is shown: still set at the next start means that start never finished.
    static void setRestoring(bool on);
    static bool isRestoring();
    bool operator==(const Session& o) const { return toFile() == o.toFile(); }
};

}  // namespace attnviz::ui
