// SPDX-License-Identifier: GPL-3.0-or-later
// The Heads dock in image mode (issue 28): the image models' heads with their mean attention
// distance, and the distance-by-layer chart beside the table, each computed only when seen.
#include <QComboBox>
#include <QPushButton>
#include <QToolButton>
#include <cmath>
#include <limits>

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

// One image head's row statistics: weights [N, N] of the positions of `grid`.
HeadStats imageHeadStats(const Mat& w, const PatchGrid& grid) {
    HeadStats s;
    s.fit = {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::quiet_NaN(),
             std::numeric_limits<double>::quiet_NaN(), 0};
    for (Eigen::Index i = 0; i < w.rows(); ++i) {
        double entropy = 0, top = 0, sum = 0;
        for (Eigen::Index j = 0; j < w.cols(); ++j) {
            const double p = double(w(i, j));
            if (p > 0) entropy -= p * std::log(p);
            top = std::max(top, p);
            sum += p;
        }
        if (sum <= 0) continue;
        s.entropy += entropy;
        s.confidence += top;
        ++s.rows;
    }
    if (s.rows > 0) {
        s.entropy /= s.rows;
        s.confidence /= s.rows;
    }
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
    m_distanceChart->setVisible(on && m_chartToggle->isChecked());
    if (!on) {
        m_image = nullptr;
        return;
    }
    m_imageStale = m_chartStale = true;
    refreshImage();
}

void HeadsDock::setImageHeads(const ImageModel* model, int layer, bool newResults) {
    if (!newResults && model == m_image && layer == m_imageLayer) return;  // opacity, query…
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
        const ImageColumnResult& r = results[c];
        if (!r.result) {
            failures << QString::fromStdString(r.name + ": " + r.error);
            continue;
        }
        const auto& blocks = r.result->analysis.blocks;
        for (size_t l = 0; l < blocks.size(); ++l) {
            if (m_imageLayer >= 0 && int(l) != m_imageLayer) continue;
            for (size_t h = 0; h < blocks[l].weights.size(); ++h)
                content.rows.push_back({int(c), QString::fromStdString(r.name),
                                        BlockKind::EncoderSelf, int(l), int(h),
                                        QString::fromStdString(blocks[l].variant),
                                        imageHeadStats(blocks[l].weights[h], r.result->grid)});
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

// Every model of the first one's grid (one chart has one uniform line); others are left out.
void HeadsDock::showDistanceChart() {
    m_chartStale = false;
    ++m_chartComputations;
    std::vector<render::ModelDistances> models;
    double uniform = 0;
    for (const ImageColumnResult& r : m_image->results()) {
        if (!r.result) continue;
        const double u = uniformAttentionDistance(r.result->grid);
        if (uniform > 0 && std::abs(u - uniform) > 1e-9) continue;
        uniform = u;
        try {
            AttentionDistances d(r.result->grid);
            d.add(r.result->analysis.blocks);
            models.push_back({r.name, d.perHead()});
        } catch (const std::exception&) {  // a model whose blocks do not fit its grid
        }
    }
    if (models.empty()) {
        m_distanceChart->setCharts({});
        m_distanceChart->setMessage(tr("No image model has analysed the image."));
        return;
    }
    render::ChartGrid g =
        render::distanceByLayerChart(models, uniform, 1, render::Words(currentLanguage()));
    g.title = tr("Mean attention distance by layer, on this image").toStdString();
    m_distanceChart->setCharts(std::move(g));
}

}  // namespace attnviz::ui
