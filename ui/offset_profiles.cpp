// SPDX-License-Identifier: GPL-3.0-or-later
#include "offset_profiles.h"

#include <QEvent>
#include <QtConcurrent/QtConcurrentRun>

#include "language.h"
#include "render/words.h"

namespace attnviz::ui {
namespace {

constexpr int kMaxOffset = 6;
constexpr int kRowHeight = 170;  // pixels per model row of charts

}  // namespace

OffsetProfileView::OffsetProfileView(QWidget* parent)
    : ChartView(parent),
      m_watcher(new QFutureWatcher<std::pair<render::ChartGrid, std::string>>(this)) {
    retranslateUi();
    setMessage(tr("computing…"));
    connect(m_watcher, &QFutureWatcherBase::finished, this, [this] {
        auto [grid, error] = m_watcher->result();
        const int rows =
            grid.columns > 0 ? int((grid.charts.size() + grid.columns - 1) / grid.columns) : 0;
        setMinimumHeight(std::max(120, 60 + rows * kRowHeight));
        setMessage(QString::fromStdString(error));
        setCharts(std::move(grid));
        emit computed();
        if (m_again) {
            m_again = false;
            recompute();
        }
    });
}

// The tooltip, and the charts drawn again in the new language from the results held.
void OffsetProfileView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) {
        retranslateUi();
        recompute();
    }
    ChartView::changeEvent(event);
}

void OffsetProfileView::retranslateUi() {
    setToolTip(
        tr("Each head's mean weight at each offset j − i (solid) beside the profile of its "
           "best-fitting Gaussian window (dashed), for the current sentence and the view's block "
           "and layer; μ, σ and R² in each title (docs/analysis.md)"));
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
    // The language is read here, on the UI thread that switches it.
    m_watcher->setFuture(QtConcurrent::run([results = m_results, kind = m_kind, layer = m_layer,
                                            words = render::Words(currentLanguage())] {
        std::vector<render::ModelRuns> models;
        if (results)
            for (const auto& r : *results)
                if (r.error.empty()) models.push_back({r.name, {r.analysis}});
        std::string error;
        render::ChartGrid g =
            render::offsetProfileCharts(models, kind, layer, kMaxOffset, &error, words);
        if (g.charts.empty() && error.empty())
            error = OffsetProfileView::tr("no model to show").toStdString();
        return std::make_pair(std::move(g), error);
    }));
}

}  // namespace attnviz::ui
