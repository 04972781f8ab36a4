// SPDX-License-Identifier: GPL-3.0-or-later
#include "offset_profiles.h"

#include <QEvent>
#include <QtConcurrent/QtConcurrentRun>

#include "background.h"
#include "language.h"
#include "render/words.h"

namespace attnviz::ui {
namespace {

constexpr int kMaxOffset = 6;
constexpr int kRowHeight = 170;  // pixels per model row of charts

}  // namespace

OffsetProfileView::OffsetProfileView(QWidget* parent)
    : ChartView(parent), m_watcher(new QFutureWatcher<Computed>(this)) {
    retranslateUi();
    setMessage(tr("computing…"));
    connect(m_watcher, &QFutureWatcherBase::finished, this, [this] {
        m_pending = false;
        if (std::exchange(m_again, false)) {  // the result is of old inputs: drop it
            recompute();
            return;
        }
        auto [grid, error, drawn, drawnIn] = m_watcher->result();
        const int rows =
            grid.columns > 0 ? int((grid.charts.size() + grid.columns - 1) / grid.columns) : 0;
        setMinimumHeight(std::max(120, 60 + rows * kRowHeight));
        setMessage(QString::fromStdString(error));
        setCharts(std::move(grid), std::move(drawn), std::move(drawnIn));
        emit computed();
    });
}

OffsetProfileView::~OffsetProfileView() {
    ++*m_generation;  // a running worker stops at its next head
    m_watcher->waitForFinished();
}

// The tooltip, and the charts drawn again in the new language from the fits held.
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

void OffsetProfileView::setStats(std::shared_ptr<const ResultStats> stats) {
    m_stats = std::move(stats);
    recompute();
}

void OffsetProfileView::setResults(std::shared_ptr<const Results> results) {
    setStats(std::make_shared<const ResultStats>(std::move(results)));
}

void OffsetProfileView::setBlock(BlockKind kind, int layer) {
    if (kind == m_kind && layer == m_layer) return;
    m_kind = kind;
    m_layer = layer;
    recompute();
}

bool OffsetProfileView::seen() const {
    // A view outside any shown window (a test's) counts as seen: nothing else would ask.
    return m_seen && (isVisible() || !window()->isVisible());
}

void OffsetProfileView::setSeen(bool seen) {
    m_seen = seen;
    if (seen && m_stale) recompute();
}

void OffsetProfileView::showEvent(QShowEvent* event) {
    ChartView::showEvent(event);
    if (m_stale) recompute();
}

void OffsetProfileView::recompute() {
    m_stale = true;
    const int generation = ++*m_generation;
    if (!seen()) return;  // a hidden tab: computed when shown
    if (m_pending) {      // cancelled by the generation; once more when its result comes
        m_again = true;
        return;
    }
    m_stale = false;
    m_pending = true;
    // The language and the look are read here, on the UI thread that switches them.
    m_watcher->setFuture(QtConcurrent::run(
        backgroundPool(),
        [stats = m_stats, kind = m_kind, layer = m_layer, words = render::Words(currentLanguage()),
         current = m_generation, generation, style = style(), size = size(),
         ratio = devicePixelRatioF()] {
            std::vector<render::ModelRuns> models;
            std::vector<size_t> columnOf;  // the results' column of each model shown
            std::string error;
            if (!stats) return Computed{{}, error, {}, {}};
            auto cancelled = [&] { return current->load() != generation; };
            // Every head shown, fitted once (shared with the Heads dock), on both cores.
            if (!stats->compute(stats->heads(kind, layer), 2, cancelled))
                return Computed{{}, error, {}, {}};
            const Results& results = stats->results();
            for (size_t c = 0; c < results.size(); ++c)
                if (results[c].error.empty()) {
                    models.push_back({results[c].name, {&results[c].analysis}});
                    columnOf.push_back(c);
                }
            render::ChartGrid g = render::offsetProfileCharts(
                models, kind, layer, kMaxOffset, &error, words,
                [&](size_t model, size_t block, int head) {
                    return stats->at({columnOf[model], block, head}).fit;
                });
            if (g.charts.empty() && error.empty())
                error = OffsetProfileView::tr("no model to show").toStdString();
            // Drawn here too, at the size the view has now (a copy to show, unless it changes).
            QImage drawn = g.charts.empty() ? QImage() : ChartView::draw(g, style, size, ratio);
            return Computed{std::move(g), error, std::move(drawn), style};
        }));
}

}  // namespace attnviz::ui
