// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QGridLayout>
#include <QLabel>
#include <QWidget>
#include <memory>

#include "heatmap_panel.h"
#include "view_state.h"
#include "workspace.h"

namespace attnviz::ui {

// Lays out one HeatmapPanel per (model, head): columns are models, rows are heads (or one
// row with their mean), for one block kind and layer. Panels are reused while the grid's
// shape stays the same; zoom and pan are shared by all panels; a clicked query row is
// outlined everywhere. Column headers have a context menu to move or remove the column.
class ComparisonGrid : public QWidget {
    Q_OBJECT
public:
    explicit ComparisonGrid(QWidget* parent = nullptr);

    void setResults(std::shared_ptr<const Results> results);
    const std::shared_ptr<const Results>& results() const { return m_results; }
    void setView(const ViewState& view);
    const ViewState& view() const { return m_view; }
    // Per-column details for the header tooltips (variant formula, parameter counts).
    void setColumnInfo(const QStringList& info) { m_info = info; }

    // panel(model, row); null when absent.
    HeatmapPanel* panel(int column, int row) const;
    QLabel* header(int column) const;
    int columnCount() const { return m_columns; }
    int rowCount() const { return m_rows; }

signals:
    void queryClicked(int column, int query);
    void moveColumnRequested(int column, int delta);
    void removeColumnRequested(int column);

private:
    void rebuild();
    void syncView(HeatmapPanel* from, const QCPRange& keys, const QCPRange& queries);
    std::shared_ptr<const Results> m_results;
    ViewState m_view;
    QStringList m_info;
    QGridLayout* m_layout;
    std::vector<QLabel*> m_headers;
    std::vector<std::vector<HeatmapPanel*>> m_panels;  // [column][row]
    int m_columns = 0, m_rows = 0;
};

}  // namespace attnviz::ui
