// SPDX-License-Identifier: GPL-3.0-or-later
#include "offset_profiles.h"

#include <QPainter>
#include <QtConcurrent/QtConcurrentRun>

#include "render/figure.h"

namespace attnviz::ui {
namespace {

constexpr int kMaxOffset = 6;
constexpr int kRowHeight = 170;  // pixels per model row of charts

}  // namespace

OffsetProfileView::OffsetProfileView(QWidget* parent)
    : QWidget(parent),
      m_watcher(new QFutureWatcher<std::pair<render::ChartGrid, std::string>>(this)) {
    setToolTip(
        "Each head's mean weight at each offset j − i (solid) beside the profile of its "
        "best-fitting Gaussian window (dashed), for the current sentence and the view's block "
        "and layer; μ, σ and R² in each title (docs/analysis.md)");
    connect(m_watcher, &QFutureWatcherBase::finished, this, [this] {
        auto [grid, error] = m_watcher->result();
        m_grid = std::move(grid);
        m_message = QString::fromStdString(error);
        const int rows = m_grid.columns > 0
                             ? int((m_grid.charts.size() + m_grid.columns - 1) / m_grid.columns)
                             : 0;
        setMinimumHeight(std::max(120, 60 + rows * kRowHeight));
        update();
        emit computed();
        if (m_again) {
            m_again = false;
            recompute();
        }
    });
}

void OffsetProfileView::setResults(std::shared_ptr<const Results> results) {
    m_results = std::move(results);
    recompute();
}

void OffsetProfileView::setBlock(BlockKind kind, int layer) {
    if (kind == m_kind && layer == m_layer) return;
    m_kind = kind;
    m_layer = layer;
    recompute();
}

void OffsetProfileView::recompute() {
    if (m_watcher->isRunning()) {
        m_again = true;
        return;
    }
    m_watcher->setFuture(QtConcurrent::run([results = m_results, kind = m_kind, layer = m_layer] {
        std::vector<render::ModelRuns> models;
        if (results)
            for (const auto& r : *results)
                if (r.error.empty()) models.push_back({r.name, {r.analysis}});
        std::string error;
        render::ChartGrid g = render::offsetProfileCharts(models, kind, layer, kMaxOffset, &error);
        if (g.charts.empty() && error.empty()) error = "no model to show";
        return std::make_pair(std::move(g), error);
    }));
}

void OffsetProfileView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    if (m_grid.charts.empty()) {
        p.fillRect(rect(), palette().window());
        p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap,
                   m_message.isEmpty() ? QStringLiteral("computing…") : m_message);
        return;
    }
    render::FigureStyle style;
    style.fontFamily = font().family();
    style.fontSize = std::max(6.5, font().pointSizeF() * 0.85);
    render::paintCharts(p, m_grid, style, QRectF(rect()));
}

}  // namespace attnviz::ui
