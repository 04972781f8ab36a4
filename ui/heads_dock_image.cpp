// SPDX-License-Identifier: GPL-3.0-or-later
// The Heads dock in image mode (issue 28): the image models' heads with their mean attention
// distance, and the distance-by-layer chart beside the table, each computed only when seen;
// over the first 1,000 test images on demand ("Over test images").
#include <QComboBox>
#include <QFutureWatcher>
#include <QLineEdit>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSortFilterProxyModel>
#include <QToolButton>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <cmath>
#include <limits>

#include "background.h"
#include "chart_view.h"
#include "core/head_stats.h"
#include "heads_dock.h"
#include "heads_table.h"
#include "image_model.h"
#include "language.h"
#include "render/charts.h"
#include "render/words.h"

namespace attnviz::ui {
namespace {

// One image head's row statistics: weights [N, N] of the positions of `grid`; its distance in
// pixels on the grid (the positions' |i − j| would mean nothing), no Gaussian fit.
HeadStats imageHeadStats(const Mat& w, const PatchGrid& grid) {
    HeadStats s = rowStats({HeadTable{&w, false}});
    const double nan = std::numeric_limits<double>::quiet_NaN();
    s.fit = {nan, nan, nan, 0};
    s.distance = meanAttentionDistance(w, grid).px;
    return s;
}

}  // namespace

void HeadsDock::setImageMode(bool on) {
    m_imageMode = on;
    for (QWidget* text : {static_cast<QWidget*>(m_overSet), static_cast<QWidget*>(m_prune),
                          static_cast<QWidget*>(m_pruneModels)})
        text->setVisible(!on);  // over sentences: nothing for image models
    m_chartToggle->setVisible(on);
    m_overImages->setVisible(on);
    m_distanceChart->setVisible(on && m_chartToggle->isChecked());
    if (!on) {
        if (m_runImages) cancel();  // over test images: nothing left to show it
        m_image = nullptr;
        return;
    }
    m_imageStale = m_chartStale = true;
    refreshImage();
}

void HeadsDock::setImageHeads(const ImageModel* model, int layer, bool newResults) {
    if (!newResults && model == m_image && layer == m_imageLayer) return;  // opacity, query…
    if (newResults && m_showSet) {  // another image: its statistics replace the test images'
        m_showSet = false;
        m_chartStale = true;
    }
    m_stats = nullptr;  // the text statistics, if any, are not this image's
    m_image = model;
    m_imageLayer = layer;
    m_imageStale = true;
    m_chartStale = m_chartStale || newResults;  // the chart has every layer
    refreshImage();
}

void HeadsDock::refreshImage() {
    if (!m_imageMode || !m_image || !seen()) return;  // caught up when shown
    if (m_imageStale) showImageHeads();
    if (m_chartStale && m_distanceChart->isVisible()) showDistanceChart();
}

void HeadsDock::showImageHeads() {
    m_imageStale = false;
    ++m_imageComputations;
    m_shown = ++*m_latest;
    m_stale = false;
    HeadsContent content;
    QStringList failures;
    const auto& results = m_image->results();
    for (size_t c = 0; c < results.size(); ++c) {
        const ColumnResult& r = results[c];
        if (!r.image) {
            failures << QString::fromStdString(r.name + ": " + r.error);
            continue;
        }
        const auto& blocks = r.image->analysis.blocks;
        for (size_t l = 0; l < blocks.size(); ++l) {
            if (m_imageLayer >= 0 && int(l) != m_imageLayer) continue;
            for (size_t h = 0; h < blocks[l].weights.size(); ++h)
                content.rows.push_back({int(c), QString::fromStdString(r.name),
                                        BlockKind::EncoderSelf, int(l), int(h),
                                        QString::fromStdString(blocks[l].variant),
                                        imageHeadStats(blocks[l].weights[h], r.image->grid)});
        }
        ++content.models;
    }
    content.summary =
        tr("%1 of %2 · this image · distance in pixels")
            .arg(plural(int(content.rows.size()), "head"), plural(content.models, "model"));
    if (!failures.isEmpty())
        content.notes
            << tr("%1 failed: %2").arg(plural(failures.size(), "column"), grouped(failures));
    *m_current = std::move(content);
    m_showSet = false;
    showContent(*m_current, false);
    emit computed();
}

bool HeadsDock::computeOverTestImages(QString* why) {
    cancel();
    QString reason;
    const size_t count = m_testImages ? std::min<size_t>(kTestImages, m_testImages->size()) : 0;
    if (!m_image || m_image->columns().empty()) {
        reason = tr("no image models");
    } else if (count == 0) {
        reason = tr("the test images are not loaded (yet)");
    }
    if (!reason.isEmpty()) {
        if (why) *why = reason;
        m_setNote = tr("Over test images: %1").arg(reason);
        updateStatus();
        return false;
    }
    auto job = std::make_shared<SetJob>();
    m_setJob = job;
    m_setNote.clear();
    m_runImages = true;
    m_runSentences = int(count);
    m_runModels = int(m_image->columns().size());
    startRun(m_runModels * (m_runSentences + 1), tr("Test images analysed and models finished"));
    auto* watcher = new QFutureWatcher<ImageSetOutcome>(this);
    // The models must still be the columns' when it ends.
    auto modelsNow = [this] {
        std::vector<const attnviz::Model*> out;
        if (m_image)
            for (const ModelColumn& c : m_image->columns()) out.push_back(c.model.get());
        return out;
    };
    connect(watcher, &QFutureWatcherBase::finished, this,
            [this, watcher, job, modelsNow, models = modelsNow()] {
                watcher->deleteLater();
                if (job != m_setJob || job->cancelled) return;  // cancelled: nobody waits for it
                if (modelsNow() != models) {
                    endRun();
                    m_setNote = tr("Over test images: dropped, the models changed meanwhile");
                    updateStatus();
                    return;
                }
                imageSetFinished(*job, watcher->result());
            });
    watcher->setFuture(QtConcurrent::run(
        backgroundPool(), [columns = m_image->columns(), images = m_testImages->slice(0, count),
                           job] { return computeImageSet(columns, images, *job); }));
    updateStatus();
    return true;
}

void HeadsDock::imageSetFinished(const SetJob& job, ImageSetOutcome outcome) {
    m_progress->setValue(job.done.load());
    endRun();
    HeadsContent& content = outcome.content;
    if (content.models == 0) {  // every model failed: the table stays as it was
        m_setNote = tr("Over test images: %1").arg(content.notes.join("\n"));
        updateStatus();
        return;
    }
    content.summary = tr("%1 · shown until another image is chosen").arg(content.summary);
    *m_set = std::move(content);
    m_imageSet = std::make_unique<ImageSetOutcome>(std::move(outcome));
    m_showSet = true;
    showContent(*m_set, false);
    m_chartStale = true;
    refreshImage();
    emit computed();
}

// Over test images (while the table shows them): the distances over the images.
// Otherwise every model of the first one's grid (one chart has one uniform line); others are
// left out. Either way only the models the filter keeps in the table, each in the colour of
// its column (render::ModelDistances::look), whichever others are left out.
void HeadsDock::showDistanceChart() {
    m_chartStale = false;
    ++m_chartComputations;
    const QRegularExpression filter = m_proxy->filterRegularExpression();
    auto kept = [&](std::vector<render::ModelDistances> models) {
        models.erase(
            std::remove_if(models.begin(), models.end(),
                           [&](const render::ModelDistances& m) {
                               return !filter.match(QString::fromStdString(m.name)).hasMatch();
                           }),
            models.end());
        return models;
    };
    auto show = [&](std::vector<render::ModelDistances> models, double uniform, int images,
                    const QString& title) {
        if (models.empty()) {
            m_distanceChart->setCharts({});
            m_distanceChart->setMessage(
                //: The distance chart when the Heads dock's filter keeps no model: %1 the filter
                tr("No image model's name contains “%1”.").arg(m_filter->text()));
            return;
        }
        render::ChartGrid g =
            render::distanceByLayerChart(models, uniform, images, render::Words(currentLanguage()));
        g.title = title.toStdString();
        m_distanceChart->setCharts(std::move(g));
    };
    if (m_showSet && m_imageSet) {
        show(kept(m_imageSet->chart), m_imageSet->uniform, m_imageSet->images,
             tr("Mean attention distance by layer, over %1 test images")
                 .arg(QLocale().toString(m_imageSet->images)));
        return;
    }
    std::vector<render::ModelDistances> models;
    double uniform = 0;
    const auto& results = m_image->results();
    for (size_t c = 0; c < results.size(); ++c) {
        const ColumnResult& r = results[c];
        if (!r.image) continue;
        const double u = uniformAttentionDistance(r.image->grid);
        if (uniform > 0 && std::abs(u - uniform) > 1e-9) continue;
        uniform = u;
        try {
            AttentionDistances d(r.image->grid);
            d.add(r.image->analysis.blocks);
            models.push_back({r.name, d.perHead(), int(c)});
        } catch (const std::exception&) {  // a model whose blocks do not fit its grid
        }
    }
    if (models.empty()) {
        m_distanceChart->setCharts({});
        m_distanceChart->setMessage(tr("No image model has analysed the image."));
        return;
    }
    show(kept(std::move(models)), uniform, 1,
         tr("Mean attention distance by layer, on this image"));
}

}  // namespace attnviz::ui
