// SPDX-License-Identifier: GPL-3.0-or-later
// MainWindow's image mode (issue 28): while the Models box holds the image set, the sentence
// fields, the view bar and the text grid give way to the image view (ui/image_view.h), which
// shows the same columns' models on an image.
#include <QFormLayout>
#include <QLineEdit>
#include <QStackedWidget>
#include <algorithm>

#include "heads_dock.h"
#include "image_chooser.h"
#include "image_grid.h"
#include "image_model.h"
#include "image_view.h"
#include "main_window.h"
#include "training_dock.h"
#include "variant_panel.h"
#include "view_controls.h"
#include "window_mode.h"

namespace attnviz::ui {
QWidget* MainWindow::createImageMode(QWidget* textPage) {
    m_modes = new QStackedWidget;
    m_imageView = new ImageView;
    m_textMode = makeTextMode(
        m_workspace, [this] { return currentColumn(); }, [this] { return profileColumn(); },
        m_training->lossPlot());
    m_imageMode = makeImageMode(m_imageView);
    m_modes->addWidget(textPage);
    m_modes->addWidget(m_imageView);
    m_imageView->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Ignored);  // hidden: updateMode
    connect(m_workspace, &WorkspaceModel::modelSetChanged, this, &MainWindow::updateMode);
    connect(m_workspace, &WorkspaceModel::columnsChanged, this, &MainWindow::updateMode);
    // The Heads dock lists the image models' heads with their mean attention distance, and
    // charts it by layer (computed when seen).
    for (bool results : {true, false})
        connect(m_imageView->model(),
                results ? &ImageModel::resultsChanged : &ImageModel::requestChanged, this,
                [this, results] {
                    if (mode().images() && m_heads)
                        m_heads->setImageHeads(m_imageView->model(),
                                               m_imageView->model()->request().layer, results);
                });
    // A clicked panel or header makes its model the current column: the Variant dock shows it.
    connect(m_imageView->grid(), &ImageGrid::columnClicked, this, [this](int c) {
        if (c < 0 || c >= int(columns().size())) return;
        m_workspace->setCurrentColumn(c);
        m_variant->showColumn(&columns()[size_t(c)], BlockKind::EncoderSelf);
    });
    connect(m_imageView->chooser(), &ImageChooser::problem, this,
            [this](const QString& heading, const QString& detail) {
                reportProblems(heading, {detail});
            });
    return m_modes;
}

// A set of image models (its checkpoints' configuration says so, core/workspace.h), or, without
// a bundled set (--models DIR, files opened), columns that are all image models.
bool MainWindow::imageMode() const {
    if (const ModelSet* set = findModelSet(modelSet().toStdString())) return set->images;
    const auto& c = columns();
    return !c.empty() && std::all_of(c.begin(), c.end(), [](const ModelColumn& m) {
        return m.model && m.model->config().isVision();
    });
}

void MainWindow::updateMode() {
    const bool image = imageMode();
    m_fields->setRowVisible(m_source, !image);
    m_fields->setRowVisible(m_target, !image);
    m_controls->setVisible(!image);
    showDocksOfMode(image);
    // The chooser browses the images the models read: the task of the first image model that
    // reads a bundled task's images (core/image_set.h), Fashion-MNIST's when none does.
    if (image) {
        const ImageTask* task = nullptr;
        const ModelColumn* first = nullptr;
        QString mixed;
        for (const ModelColumn& c : columns()) {
            if (!c.model) continue;
            const ImageTask* t =
                imageTaskReadBy(c.model->config(), c.model->classNames(), c.model->training().task);
            if (!task) task = t, first = &c;
            // One photo is shown to every column: a column that learned from other photos of
            // the same shape (plain and cut-out) reads it prepared as the first column's were.
            else if (t && t != task && t->imageSize == task->imageSize &&
                     t->channels == task->channels && mixed.isEmpty())
                mixed = tr("%1 learned from the %2 photos and %3 from the %4 photos: your photo "
                           "and the test strip are prepared as %1's were, for every column")
                            .arg(QString::fromStdString(first->name), taskLabel(task->name),
                                 QString::fromStdString(c.name), taskLabel(t->name));
        }
        if (mixed != m_mixedTasks && !mixed.isEmpty())
            reportProblems(tr("The columns learned from differently prepared photos"), {mixed});
        m_mixedTasks = mixed;
        m_imageView->chooser()->setTask(task ? task : findImageTask(kFashionMnistTask));
    }
    if (m_heads)
        m_heads->setTestImages(&m_imageView->chooser()->testImages(),
                               m_imageView->chooser()->task().name);
    if (m_heads) m_heads->setImageMode(image);
    m_modes->setCurrentWidget(image ? static_cast<QWidget*>(m_imageView) : m_modes->widget(0));
    // The stack is as wide as its shown page needs: the image view's minimum (930 px) would
    // otherwise keep a laptop's window from giving the query profile room beside the grid.
    for (int i = 0; i < m_modes->count(); ++i) {
        const auto policy =
            i == m_modes->currentIndex() ? QSizePolicy::Preferred : QSizePolicy::Ignored;
        m_modes->widget(i)->setSizePolicy(policy, policy);
    }
    // A hidden view computes nothing: the image models are analysed only in image mode.
    m_imageView->model()->setColumns(image ? columns() : std::vector<ModelColumn>());
    if (image) m_imageView->chooser()->loadTestImages();
    if (image) message(QString());  // the text analysis's summary says nothing of images
    showFailures();
}

}  // namespace attnviz::ui
