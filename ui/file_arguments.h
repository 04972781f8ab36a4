// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Files given to the app by name: on its command line (`attnviz a.safetensors w.attnviz.json`),
// from the file manager through the desktop file's MIME types (packaging/), or forwarded by
// a second start to the window that already runs (single_instance.h).
#include <QString>
#include <QStringList>

namespace attnviz::ui {

enum class FileKind {
    Checkpoint,  // *.safetensors, and any name not below (its reader says when it is not one)
    Workspace,   // *.json but *.probe.json: a saved workspace (.attnviz.json)
    Probe,       // *.probe.json: a training probe (core/probe.h)
};

// The kind of file by its name alone (the MIME types in packaging/attnviz-mime.xml match).
FileKind fileKind(const QString& path);
// Whether any of `paths` is a checkpoint: then those are the columns, not a bundled set.
bool anyCheckpoint(const QStringList& paths);

}  // namespace attnviz::ui
