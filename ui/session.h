// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

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
    ViewState view;

    QJsonObject toJson() const;
    // Error message in *error when the JSON is not a session.
    static Session fromJson(const QJsonObject& o, QString* error);
    // Atomic write (the engine's atomic writer); false with a message on error.
    bool save(const QString& path, QString* error) const;
    static bool load(const QString& path, Session* out, QString* error);
    // Opens the columns' checkpoints; those that cannot be opened are listed in *errors.
    std::vector<ModelColumn> openColumns(QStringList* errors) const;
    // The workspace at the last close (QSettings), if any; and storing it.
    static bool loadLast(Session* out);
    void saveAsLast() const;
    bool operator==(const Session& o) const { return toJson() == o.toJson(); }
};

}  // namespace attnviz::ui
