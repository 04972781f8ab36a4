// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

#include "core/selection.h"
#include "view_state.h"

namespace attnviz::ui {

// What a grid panel draws one table as. Chosen from the view and the selection by
// panelKindFor(); a new kind is an enumerator here, a Panel subclass, and a line in makePanel
// (panel.cpp). docs/architecture.md, "A new panel kind".
enum class PanelKind {
    Heatmap,  // HeatmapPanel: cells coloured by weight (a QCustomPlot)
    Lines,    // LinesPanel: a line per weight between query and key tokens (render/lines.h)
};

// The part of a table in sight (zoom and pan), in cell coordinates: cell (i, j) is centred on
// query i, key j. The whole table is keys -0.5..Nk-0.5 across, queries -0.5..Nq-0.5 down.
struct TableArea {
    double keysFrom = 0, keysTo = 0;
    double queriesFrom = 0, queriesTo = 0;
};

// One table of the comparison grid, whatever its drawing. The grid knows panels only through
// this face: it hands each one a SelectedTable (core/selection.h, the one road from numbers
// to pixels) or a message, a title and what the view says (ui/view_state.h), and hears back
// which query was clicked and where a panel was zoomed to. A QWidget, so that a kind may draw
// with QPainter (LinesPanel, render/ painters shared with the figures) or hold a QCustomPlot
// (HeatmapPanel); QObject allows no second QObject base, so a QCustomPlot base would force
// every kind into QCustomPlot. A kind ignores (default: does nothing) what it cannot show.
class Panel : public QWidget {
    Q_OBJECT
public:
    explicit Panel(QWidget* parent = nullptr) : QWidget(parent) {}
    virtual PanelKind kind() const = 0;

    // The table to draw: weights [Nq, Nk], token labels, the top of its colour scale.
    virtual void setTable(const SelectedTable& table) = 0;
    // Shown instead of a table (a failed model, a missing block); the table is dropped.
    virtual void setMessage(const QString& message) = 0;
    // Two lines: the model, then block, layer and head.
    virtual void setTitle(const QString& title) = 0;
    virtual QString title() const = 0;
    // Where the title's text is drawn, in the panel's coordinates (the updating badge keeps
    // clear of it).
    virtual QRect titleRect() const = 0;
    // The full name (model · block, layer, head) for tooltips; defaults to the title.
    virtual void setToolTipTitle(const QString& /*title*/) {}
    // The view's colour map, scaling and shared or own colour scale (ViewState::colormap,
    // scaling, shared), for this table and the next ones.
    virtual void setColors(const ViewState& /*view*/) {}
    // Outlines query row `row` (-1: none), as the view's selected query.
    virtual void setQuery(int row) = 0;
    virtual int query() const = 0;
    // Panel size factor (the grid's zoom) and the token labels' point size.
    virtual void setZoom(double zoom) = 0;
    virtual void setLabelPoints(int points) = 0;
    // The most tokens of any table in the grid, so that panels side by side line up.
    virtual void setAlignedRows(int /*rows*/) {}
    // The room a panel may fill: the pixel height (0: its readable minimum only) and, when not
    // 0, the width it may not grow past (a column's share of the view). With `capped`, the
    // room is also the most it asks for, below its readable minimum if need be (several rows
    // kept in view: ComparisonGrid::setRowsInView).
    virtual void setFill(QSize /*pixels*/, bool /*capped*/) {}
    // Shows this part of the table (another panel was zoomed or panned), without emitting
    // areaChanged.
    virtual void setArea(const TableArea& /*area*/) {}
    // Draws now, also when off screen (benchmarks, tests); panels otherwise draw lazily.
    virtual void redrawNow() = 0;
    // Marks the panel as not showing the current sentence (its table is an older one, or
    // its model is still being analysed): dimmed by a translucent grey, with `text` in a
    // badge in the top right corner, beside the title, where it hides no cell and no token
    // label. The title wins: when it leaves no room for the text the badge is a symbol, and
    // none when it leaves no room for that either. "" removes the mark.
    void setUpdating(const QString& text);
    QString updating() const { return m_updating; }
    // Where the badge is, in the panel's coordinates; empty when not marked or when the title
    // leaves it no room (tests).
    QRect updatingBadge() const;

signals:
    // The user clicked query row `row`.
    void rowClicked(int row);
    // The user zoomed or panned to `area` (the grid shows it in every panel).
    void areaChanged(const TableArea& area);

private:
    QWidget* m_mark = nullptr;  // the grey cover while updating (panel.cpp)
    QString m_updating;
};

// The kind the grid draws a selection's tables as: the lines view (ViewState::lines) unless
// the tables are signed (differences and residuals are heatmaps on a diverging scale).
PanelKind panelKindFor(const ViewState& view, const Selection& selection);
// A new, empty panel of this kind: the only place that names the kinds' classes.
Panel* makePanel(PanelKind kind, QWidget* parent);

}  // namespace attnviz::ui

Q_DECLARE_METATYPE(attnviz::ui::TableArea)
