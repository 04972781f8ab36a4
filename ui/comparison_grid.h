// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QGridLayout>
#include <QLabel>
#include <QWidget>
#include <memory>

#include "heatmap_panel.h"
#include "workspace.h"

namespace attnviz::ui {

// Lays out one HeatmapPanel per (model, head): columns are models, rows are heads, for one
// block kind and layer. Panels are reused while the grid's shape stays the same.
class ComparisonGrid : public QWidget {
    Q_OBJECT
public:
    explicit ComparisonGrid(QWidget* parent = nullptr);

    void setResults(std::shared_ptr<const Results> results);
    void setBlock(BlockKind kind, int layer);
    void setColormap(const QString& name);
    void setSharedScale(bool shared);

    // panel(model, head); null when absent.
    HeatmapPanel* panel(int column, int head) const;
    int columnCount() const { return m_columns; }
    int rowCount() const { return m_rows; }

private:
    void rebuild();
    std::shared_ptr<const Results> m_results;
    BlockKind m_kind = BlockKind::EncoderSelf;
    int m_layer = 0;
    QString m_colormap = "viridis";
    bool m_shared = true;
    QGridLayout* m_layout;
    std::vector<QLabel*> m_headers;
    std::vector<std::vector<HeatmapPanel*>> m_panels;  // [column][head]
    int m_columns = 0, m_rows = 0;
};

}  // namespace attnviz::ui
