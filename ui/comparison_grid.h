// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QAbstractScrollArea>
#include <QGridLayout>
#include <QLabel>
#include <QResizeEvent>
#include <QWidget>
#include <optional>
#include <vector>

#include "core/training_info.h"
#include "heatmap_panel.h"
#include "lines_panel.h"
#include "panel.h"
#include "render/token_labels.h"
#include "workspace_model.h"

namespace attnviz::ui {

// Lays out one Panel per selected table (core/selection.h), of the kind panelKindFor() gives
// (ui/panel.h: a HeatmapPanel, or in the lines view a LinesPanel): columns are models (or one
// model's layers), rows are heads (or one row with their mean). It draws the workspace model's
// selection and keeps no results of its own. Panels are reused while the grid's shape and kind
// stay the same; zoom and pan are shared by all panels; a clicked query row is outlined
// everywhere. Column headers have a context menu to move or remove the column, and stay in
// sight at the top while the grid scrolls down (the panels below them name only the block,
// layer and head: the model is named once, in its header). The headers' text is the grid's
// font (larger while presenting). With the view's `quality`, a header's second line gives the
// model's held-out quality from its checkpoint (qualityLine), explained in its tooltip.
class ComparisonGrid : public QWidget {
    Q_OBJECT
public:
    explicit ComparisonGrid(WorkspaceModel* model, QWidget* parent = nullptr);

    // Per-column details for the header tooltips (variant formula, parameter counts).
    void setColumnInfo(const QStringList& info) { m_info = info; }

    // A model's held-out quality in one short line for its header: "BLEU 15.9 · AER 0.41" (BLEU
    // for translation models, else token accuracy: "acc 35.1%"), 1 and 2 decimals; empty when
    // the checkpoint records none of them (untrained, or trained without a held-out set).
    static QString qualityLine(const HeldOutInfo& heldOut);
    // What qualityLine's numbers are, for the header's tooltip: the held-out examples, what
    // each number measures and whether higher or lower is better; empty when it is.
    static QString qualityTip(const HeldOutInfo& heldOut);

    // The panel (model, row), of any kind; null when absent.
    Panel* panelAt(int column, int row) const;
    // The panel (model, row) when it is a heatmap; null when absent or of another kind.
    HeatmapPanel* panel(int column, int row) const {
        return qobject_cast<HeatmapPanel*>(panelAt(column, row));
    }
    // The lines view's panel (model, row); null when absent or of another kind.
    LinesPanel* linesPanel(int column, int row) const {
        return qobject_cast<LinesPanel*>(panelAt(column, row));
    }
    // With n > 0, several rows of panels are sized so that n of them fit the view's height,
    // fewer where a row would be under `minRowHeight` pixels (presentation mode: two heads of
    // every model in sight on a tall screen, one on a laptop's); 0: as large as a column's
    // share of the width allows (the default).
    void setRowsInView(int n, int minRowHeight = 0);
    // Scrolls the view so that panel (column, row) is in sight.
    void revealPanel(int column, int row);
    // The row of panels at the top of the view (just under the pinned headers), 0 without one.
    int topRow() const;
    // Scrolls so that row `row` (clamped to the rows) starts just under the pinned headers: a
    // whole row of panels, never a cut one (presentation mode's PgDn and PgUp).
    void scrollToRow(int row);
    QLabel* header(int column) const;
    int columnCount() const { return m_columns; }
    int rowCount() const { return m_rows; }
    // The scroll area showing the grid: a single row of heatmaps fills its height.
    void watchViewport(QAbstractScrollArea* area);
    // Every header and panel made again from the model's selection (e.g. in another language).
    void rebuild();

signals:
    void queryClicked(int column, int query);
    // Ctrl+wheel over the grid: zoom by this factor.
    void zoomRequested(double factor);
    void moveColumnRequested(int column, int delta);
    void removeColumnRequested(int column);

protected:
    bool event(QEvent* event) override;        // moved, resized or laid out: headers pinned again
    void changeEvent(QEvent* event) override;  // FontChange: headers sized to the new font
    void wheelEvent(QWheelEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void viewChanged();
    void applySizes();   // the view's zoom and label size to every panel
    void fitViewport();  // the grid's size: the view's, or the panels' minimum when larger
    // The headers at the top of the viewport when the grid is scrolled down past them, over
    // the panels (their place in the layout otherwise).
    void pinHeaders();
    // The model columns whose headers are in the viewport, told to the model (analysed first).
    void reportVisibleColumns();
    // Greys column c's panels while its model's result is of an earlier sentence and has been
    // for WorkspaceModel::kStaleMarkMs (staleMarked): a quicker result is drawn unmarked.
    void markColumn(int c);
    // What a panel without a table says: the model's error, the missing block, or that the
    // decoding is still running.
    QString panelMessage(const SelectedColumn& col, const ColumnResult& r) const;
    int headerHeight() const;
    void fitHeaderLines(const Selection& s);  // m_headerLines for the headers' texts
    void reshape(int columns, int rows, PanelKind kind);
    QLabel* makeHeader(int column);
    Panel* makePanelOf(int column);
    void fillColumn(int c, const SelectedColumn& column, int rows);
    void fillHeader(int c, const SelectedColumn& column);  // its text and tooltip
    void refillHeader(QObject* header, const QResizeEvent* event);
    // The held-out metrics the header of `column` shows: none when the view hides them or the
    // model's checkpoint has none.
    std::optional<HeldOutInfo> shownQuality(const SelectedColumn& column) const;
    // The header's variant: "fixed random" for an untrained random table; a block whose
    // variant is not the model's own says both: "dense (cross: dot)".
    QString variantLabel(const SelectedColumn& column) const;
    void syncArea(const Panel* from, const TableArea& area);
    template <class F>
    void forEachPanel(F f) const {
        for (const auto& col : m_panels)
            for (Panel* p : col) f(p);
    }

    WorkspaceModel* m_model;
    ViewState m_view;  // the view drawn
    QStringList m_info;
    QGridLayout* m_layout;
    std::vector<QLabel*> m_headers;
    QLabel* m_empty = nullptr;  // why there is nothing to show (the selection's error)
    std::vector<std::vector<Panel*>> m_panels;  // [column][row], children of the grid
    std::vector<int> m_columnResult;            // [column]: its index in the model's results
    PanelKind m_kind = PanelKind::Heatmap;      // of every panel
    int m_alignedRows = 0;  // the most tokens of any table (Panel::setAlignedRows)
    int m_columns = 0, m_rows = 0;
    int m_rowsInView = 0, m_minRowHeight = 0;  // setRowsInView
    int m_headerLines = 4;                     // headers' height in lines of the grid's font
    QAbstractScrollArea* m_area = nullptr;
    QSize m_fillSize{0, 0};  // the view's room for the panels (0: not known yet)
};

}  // namespace attnviz::ui
