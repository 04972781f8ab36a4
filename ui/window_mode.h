// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What differs between the window's two modes (issue 47): text, where the models read the
// sentence and the grid shows their maps, and images, where they read an image and the image
// view (ui/image_view.h) shows theirs. MainWindow asks its current mode (MainWindow::mode())
// instead of testing for image mode at each place; a mode owns nothing, it only knows where
// its state lives.
//
//   const WindowMode& m = mode();
//   style.caption = m.exportCaption();        // the sentence; none for an image
//   m.writeData(path, &error);                // the shown matrices
#include <QString>
#include <QStringList>
#include <functional>
#include <memory>

#include "export_dialog.h"

class QCustomPlot;

namespace attnviz::ui {

class ImageView;
class WorkspaceModel;
struct Session;

class WindowMode {
public:
    virtual ~WindowMode() = default;
    virtual bool images() const = 0;
    // File › Export: what the figures draw, their caption ("": none), the data file.
    virtual ExportDialog::Source exportSource() const = 0;
    virtual QString exportCaption() const = 0;
    virtual bool writeData(const QString& path, QString* error) const = 0;
    // Analyses what is shown in this thread (tests, --export-figure).
    virtual void analyzeNow() = 0;
    // Analyses what is shown again in the background: a model was reconfigured in place (the
    // Variant dock), the columns and the input being the same.
    virtual void analyze() = 0;
    // The status bar's word on the last analysis ("": nothing to say) and the models that
    // could not run on the input (the status bar's note, the Problems dock).
    virtual QString summary() const = 0;
    virtual QStringList failures() const = 0;
    // Shows `column`'s head as the Heads dock asked: true when this mode did (images: the
    // image view's panel); false: the window's grid does (text).
    virtual bool showHead(int column, int layer, int head) = 0;
    // A workspace: what this mode adds to it, and restores from it (the problems, each with
    // what was wrong; none when the workspace holds nothing of this mode).
    virtual void save(Session& s) const = 0;
    virtual QStringList restore(const Session& s) = 0;
};

// Text: the workspace's sentence, selection and results. `currentColumn`, `profileColumn` and
// `lossPlot` are the window's, for the export dialog's single-panel and profile figures.
std::unique_ptr<WindowMode> makeTextMode(WorkspaceModel* workspace,
                                         std::function<int()> currentColumn,
                                         std::function<int()> profileColumn, QCustomPlot* lossPlot);
// Images: the image view's image, request and results.
std::unique_ptr<WindowMode> makeImageMode(ImageView* view);

}  // namespace attnviz::ui
