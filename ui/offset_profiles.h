// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFutureWatcher>
#include <atomic>
#include <memory>

#include "chart_view.h"
#include "core/result_stats.h"

namespace attnviz::ui {

// The relative-offset profiles of the view's block and layer (issue 15): a small chart per
// head of every model, the head's mean weight at each offset j − i for the current sentence
// beside its best-fitting Gaussian's (render/charts.h draws it, as `render --show
// offset-profile` does). ChartView draws it (charts(): the last computed; message(): why
// nothing is drawn).
//
// Computed on a worker thread, only while the view is seen (a hidden tab computes nothing
// and catches up when shown), with the fits taken from the results' ResultStats, which the
// Heads dock shares; new inputs cancel a computation for the old ones.
class OffsetProfileView : public ChartView {
    Q_OBJECT
public:
    explicit OffsetProfileView(QWidget* parent = nullptr);
    ~OffsetProfileView() override;
    void setStats(std::shared_ptr<const attnviz::ResultStats> stats);
    // For callers without a workspace (tests): their own statistics.
    void setResults(std::shared_ptr<const attnviz::Results> results);
    void setBlock(attnviz::BlockKind kind, int layer);
    // Whether a person can see the view (its dock's visibilityChanged); as HeadsDock::setSeen.
    void setSeen(bool seen);
    // A computation whose result is not shown yet: from its start until the UI thread has
    // taken its result (a finished worker whose result still waits in the event queue counts).
    bool busy() const { return m_pending || m_again; }
    void recompute();  // again, e.g. after a language switch

signals:
    void computed();

protected:
    void showEvent(QShowEvent* event) override;
    void changeEvent(QEvent* event) override;  // retranslates on QEvent::LanguageChange

private:
    bool seen() const;
    void retranslateUi();

    std::shared_ptr<const attnviz::ResultStats> m_stats;
    attnviz::BlockKind m_kind = attnviz::BlockKind::EncoderSelf;
    int m_layer = 0;
    // A computation's charts, the message (an error), and the charts drawn (ChartView::draw)
    // in the style they were drawn in.
    struct Computed {
        render::ChartGrid grid;
        std::string error;
        QImage drawn;
        render::FigureStyle drawnIn;
    };
    QFutureWatcher<Computed>* m_watcher;
    bool m_again = false;    // inputs changed while computing: once more when done
    bool m_pending = false;  // a worker started whose result the UI thread has not taken
    bool m_stale = true;     // the charts are not those of the current inputs
    bool m_seen = true;      // setSeen
    // Bumped by every new input; a worker whose generation is older stops.
    std::shared_ptr<std::atomic<int>> m_generation = std::make_shared<std::atomic<int>>(0);
};

}  // namespace attnviz::ui
