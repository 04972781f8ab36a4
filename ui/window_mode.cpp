// SPDX-License-Identifier: GPL-3.0-or-later
#include "window_mode.h"

#include "export_sources.h"
#include "image_chooser.h"
#include "image_model.h"
#include "image_view.h"
#include "session.h"
#include "workspace_model.h"

namespace attnviz::ui {
namespace {

class TextMode final : public WindowMode {
public:
    TextMode(WorkspaceModel* workspace, std::function<int()> currentColumn,
             std::function<int()> profileColumn, QCustomPlot* lossPlot)
        : m_workspace(workspace),
          m_currentColumn(std::move(currentColumn)),
          m_profileColumn(std::move(profileColumn)),
          m_lossPlot(lossPlot) {}
    bool images() const override { return false; }
    ExportDialog::Source exportSource() const override {
        return ui::exportSource(m_workspace, m_currentColumn, m_profileColumn, m_lossPlot);
    }
    QString exportCaption() const override { return ui::exportCaption(*m_workspace); }
    bool writeData(const QString& path, QString* error) const override {
        return writeDataExport(*m_workspace, path, error);
    }
    void analyzeNow() override { m_workspace->analyzeNow(); }
    void analyze() override { m_workspace->analyze(); }
    QString summary() const override { return m_workspace->summary(); }
    QStringList failures() const override { return m_workspace->failures(); }
    bool showHead(int, int, int) override { return false; }  // the window's grid shows it
    void save(Session&) const override {}                    // the workspace's session is all
    QStringList restore(const Session&) override { return {}; }

private:
    WorkspaceModel* m_workspace;
    std::function<int()> m_currentColumn, m_profileColumn;
    QCustomPlot* m_lossPlot;
};

class ImageMode final : public WindowMode {
public:
    explicit ImageMode(ImageView* view) : m_view(view) {}
    bool images() const override { return true; }
    ExportDialog::Source exportSource() const override {
        return imageExportSource(m_view->model());
    }
    QString exportCaption() const override { return {}; }  // an image has no sentence
    bool writeData(const QString& path, QString* error) const override {
        return writeImageDataExport(m_view->model(), path, error);
    }
    void analyzeNow() override {
        // The image the view opens with (the first test image) when none is chosen yet.
        ImageChooser* chooser = m_view->chooser();
        if (m_view->model()->image().empty() && chooser->waitForTestImages())
            chooser->chooseTestImage(0);
        m_view->model()->analyzeNow();
    }
    void analyze() override { m_view->model()->analyzeAgain(); }
    // Image models do not read the sentence: the image view's panels say what each one made
    // of the image.
    QString summary() const override { return {}; }
    QStringList failures() const override { return {}; }
    bool showHead(int column, int layer, int head) override {
        m_view->showHead(column, layer, head);
        return true;
    }
    void save(Session& s) const override { s.image = m_view->state(); }
    QStringList restore(const Session& s) override {
        return s.image ? m_view->restore(*s.image) : QStringList();
    }

private:
    ImageView* m_view;
};

}  // namespace

std::unique_ptr<WindowMode> makeTextMode(WorkspaceModel* workspace,
                                         std::function<int()> currentColumn,
                                         std::function<int()> profileColumn,
                                         QCustomPlot* lossPlot) {
    return std::make_unique<TextMode>(workspace, std::move(currentColumn), std::move(profileColumn),
                                      lossPlot);
}

std::unique_ptr<WindowMode> makeImageMode(ImageView* view) {
    return std::make_unique<ImageMode>(view);
}

}  // namespace attnviz::ui
