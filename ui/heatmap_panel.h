// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <qcustomplot.h>

#include <QStringList>
#include <memory>

#include "core/selection.h"
#include "panel.h"
#include "render/scaling.h"

namespace attnviz::ui {

using render::Scaling;

// One attention map: a heatmap with queries down (rows) and keys across (columns), token
// labels on both axes and a title, drawn by the QCustomPlot it holds (plot()). A thin adapter:
// it shares the selected table's matrix, puts its colour-map positions (render/scaling.h) into
// a QCPColorMap whose gradient is the figures' colour map, draws the selected query row, and
// reports clicks and zooms. The grid's Panel of kind Heatmap; the film dock uses it alone.
class HeatmapPanel : public Panel {
    Q_OBJECT
public:
    explicit HeatmapPanel(QWidget* parent = nullptr);
    PanelKind kind() const override { return PanelKind::Heatmap; }
    // The plot drawing the map, filling the panel (its axes map tokens to pixels; it takes
    // the mouse).
    QCustomPlot* plot() const;

    // The table's weights [Nq, Nk] with its token labels and the top of its colour scale.
    void setTable(const SelectedTable& table) override;
    void setTitle(const QString& title) override;
    QRect titleRect() const override;  // the title's text, centred in its row of the plot
    // The full name (model, block, layer, head) shown in tooltips; defaults to the title.
    void setToolTipTitle(const QString& title) override { m_fullTitle = title; }
    void setMessage(const QString& message) override;  // instead of the map (errors), wrapped
    QString message() const { return m_messageText; }
    QString shownMessage() const { return m_message->visible() ? m_message->text() : QString(); }
    void setColormap(const QString& name);
    // A colour bar of its own beside the map (the view's per-panel scales), ticks in weights.
    void setOwnColorBar(bool on);
    bool hasOwnColorBar() const { return m_scale != nullptr && m_scale->visible(); }
    void setScaling(Scaling s);
    // The view's colour map and scaling now; its own colour bar (when scales are per panel)
    // from the next setTable, so that a panel showing a message gets none.
    void setColors(const ViewState& view) override;
    // Outlines query row i (-1: none).
    void setQuery(int row) override;
    int query() const override { return m_row; }
    // Visible key and query ranges (zoom and pan), without emitting areaChanged.
    void setView(const QCPRange& keys, const QCPRange& queries);
    void setArea(const TableArea& area) override;
    void resetView();
    void redrawNow() override;

    const Mat& matrix() const;
    QString title() const override;
    // Tooltip text for cell (query i, key j).
    QString cellText(int i, int j) const;
    static QString clickHint();  // the tooltips' last line: what a click does
    // The query row at a widget position (on the map or on the query labels), or -1.
    int rowAt(const QPointF& pos) const;
    // Never smaller than kMinCell pixels per token plus the labels and title: below that the
    // labels overlap and cells blur, so the grid scrolls instead (issue 13).
    QSize minimumSizeHint() const override;
    QSize sizeHint() const override;         // the plot's, less the spare room around the map
    static constexpr int kMinCell = 14;      // an 8 pt label's height, at zoom 1
    static constexpr int kMaxMinSide = 720;  // the most the minimum size asks for, at zoom 1
    // Panel size factor (the grid's zoom) and the token labels' point size.
    void setZoom(double zoom) override;
    void setLabelPoints(int points) override;
    // A single row of panels (the mean layout) is as tall as the view; several rows of few
    // columns are as large as a column's share of the view's width and the view's height
    // allow: square cells sized so that the panel fills `pixels` (times the zoom, at most
    // kMaxFillCell per token; width 0: any width); height 0: the readable minimum only.
    // `capped`: at most that, below the readable minimum if need be (kMinFitCell per token at
    // least).
    void setFill(QSize pixels, bool capped) override;
    static constexpr int kMaxFillCell = 64;
    static constexpr int kMinFitCell = 12;
    // A resize or a new shape off screen not laid out yet (done before the next paint; tests).
    bool layoutPending() const { return m_layoutDue; }
    // How many tokens per shown label on an axis (1: every token named), as drawn.
    int labelStep(Qt::Orientation o) const;

protected:
    void resizeEvent(QResizeEvent* event) override;
    void changeEvent(QEvent* event) override;  // the thinned-labels note in a new language

private:
    class Plot;  // the QCustomPlot, passing its mouse, size and paint events here
    void plotMouseMove(QMouseEvent* event);
    void plotMousePress(QMouseEvent* event);
    void plotDoubleClick();
    void plotWheelZoom(QWheelEvent* event);
    void clampToMap();  // the axes' ranges kept within the map
    void plotResized();
    void plotPainting();
    void emitArea();
    void applyScaling();
    void wrapMessage();
    void fitLayout();               // square cells, thinned labels, m_around (heatmap_panel.cpp)
    void fitLayoutWhenSeen();       // now when on screen, else before the next paint
    QSize estimatedAround() const;  // m_around before the first layout
    int tickerStep(Qt::Orientation o) const;              // labelStep without laying out first
    bool showsAlready(const SelectedTable& table) const;  // the same numbers and labels shown
    void updateScaleTicks();
    void updateTickLabels();      // every k-th label when cells are smaller than a label
    void requestReplot();         // now if on screen, else at the next paint
    void replotBeforePainting();  // at the next paint, unless a replot comes first
    int rows() const { return m_weights ? int(m_weights->rows()) : 0; }
    int cols() const { return m_weights ? int(m_weights->cols()) : 0; }
    Plot* m_plot;
    QCPColorMap* m_map;
    QCPTextElement* m_title;
    QCPItemText* m_message;
    QCPItemRect* m_highlight;
    QCPColorScale* m_scale = nullptr;
    std::shared_ptr<const Mat> m_weights;
    QStringList m_queries, m_keys;
    // The widest of their labels in the tick font, px (estimatedAround); -1: to be measured.
    mutable int m_labelWidth = -1;
    QString m_fullTitle;
    QString m_messageText;  // unwrapped
    QString m_colormap = "viridis";
    Scaling m_scaling = Scaling::Linear;
    double m_max = 1;
    bool m_diverging = false;  // signed values (differences): the diverging map, from -m_max
    int m_row = -1;
    int m_hoverRow = -1;
    bool m_dirty = false;      // changed off screen or resized: replot before the next paint
    bool m_layoutDue = false;  // resized or reshaped off screen: fitLayout before the next paint
    QSize m_around;            // widget size minus the map's, at the last layout (invalid before)
    double m_zoom = 1.0;
    QSize m_fill{0, 0};      // setFill
    bool m_fillCap = false;  // setFill(…, capped)
    int m_labelPoints = 8;
    bool m_settingView = false;
    bool m_ownBarWanted = false;  // setOwnColorBar's, or the view's (setColors)
};

}  // namespace attnviz::ui
