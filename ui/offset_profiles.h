// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFutureWatcher>
#include <QWidget>
#include <memory>

#include "core/workspace.h"
#include "render/charts.h"

namespace attnviz::ui {

// The relative-offset profiles of the view's block and layer (issue 15): a small chart per
// head of every model, the head's mean weight at each offset j − i for the current sentence
// beside its best-fitting Gaussian's (render/charts.h draws it, as `render --show
// offset-profile` does). Computed on a worker thread; a row of charts per model.
class OffsetProfileView : public QWidget {
    Q_OBJECT
public:
    explicit OffsetProfileView(QWidget* parent = nullptr);
    void setResults(std::shared_ptr<const attnviz::Results> results);
    void setBlock(attnviz::BlockKind kind, int layer);
    bool busy() const { return m_watcher->isRunning(); }
    const render::ChartGrid& charts() const { return m_grid; }  // the last computed
    QString message() const { return m_message; }               // why nothing is drawn

signals:
    void computed();

protected:
    void paintEvent(QPaintEvent*) override;

private:
    void recompute();

    std::shared_ptr<const attnviz::Results> m_results;
    attnviz::BlockKind m_kind = attnviz::BlockKind::EncoderSelf;
    int m_layer = 0;
    render::ChartGrid m_grid;
    QString m_message;
    QFutureWatcher<std::pair<render::ChartGrid, std::string>>* m_watcher;
    bool m_again = false;  // inputs changed while computing: once more when done
};

}  // namespace attnviz::ui
