// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFutureWatcher>
#include <memory>

#include "chart_view.h"
#include "core/workspace.h"

namespace attnviz::ui {

// The relative-offset profiles of the view's block and layer (issue 15): a small chart per
// head of every model, the head's mean weight at each offset j − i for the current sentence
// beside its best-fitting Gaussian's (render/charts.h draws it, as `render --show
// offset-profile` does). Computed on a worker thread; a row of charts per model. ChartView
// draws it (charts(): the last computed; message(): why nothing is drawn).
class OffsetProfileView : public ChartView {
    Q_OBJECT
public:
    explicit OffsetProfileView(QWidget* parent = nullptr);
    void setResults(std::shared_ptr<const attnviz::Results> results);
    void setBlock(attnviz::BlockKind kind, int layer);
    bool busy() const { return m_watcher->isRunning(); }
    void recompute();  // again, e.g. after a language switch

signals:
    void computed();

protected:
    void changeEvent(QEvent* event) override;  // retranslates on QEvent::LanguageChange

private:
    void retranslateUi();
    std::shared_ptr<const attnviz::Results> m_results;
    attnviz::BlockKind m_kind = attnviz::BlockKind::EncoderSelf;
    int m_layer = 0;
    QFutureWatcher<std::pair<render::ChartGrid, std::string>>* m_watcher;
    bool m_again = false;  // inputs changed while computing: once more when done
};

}  // namespace attnviz::ui
