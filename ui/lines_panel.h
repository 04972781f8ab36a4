// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/selection.h"
#include "panel.h"
#include "render/lines.h"

namespace attnviz::ui {

// One attention table as the lines view (render/lines.h, the drawing the figures use):
// query tokens left, key tokens right, a line per weight. Hovering a token keeps only its
// lines; clicking a query selects it (as a click on a heatmap row); the selected query's
// lines stay when nothing is hovered. Never shorter than a readable pitch per token: the
// grid scrolls instead. The grid's Panel of kind Lines.
class LinesPanel : public Panel {
    Q_OBJECT
public:
    explicit LinesPanel(QWidget* parent = nullptr);
    PanelKind kind() const override { return PanelKind::Lines; }
    void setTable(const SelectedTable& table) override;
    void setTitle(const QString& title) override;      // model and block, two lines
    void setMessage(const QString& message) override;  // shown instead of the lines (errors)
    void setQuery(int row) override;
    int query() const override { return m_selected; }
    // Lays out at least this many token rows, so that panels side by side line up.
    void setAlignedRows(int rows) override;
    // Panel size factor (the grid's zoom) and the labels' point size.
    void setZoom(double zoom) override;
    void setLabelPoints(int points) override;
    void redrawNow() override { repaint(); }
    // The token under the mouse: {0, i} query, {1, j} key, {-1, -1} none.
    render::LinesHit hovered() const { return m_hover; }
    // What is drawn now (for tests): the style with the hovered or selected focus.
    render::LinesStyle style() const;
    const SelectedTable& table() const { return m_table; }
    QString title() const override { return m_title; }
    QRect titleRect() const override;  // centred at the top, each line elided to the panel
    // Where the lines and labels go in this widget.
    render::LinesLayout currentLayout() const;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;

private:
    QRectF linesBox() const;
    QString shownTitle() const;  // each title line elided to the panel
    QRect titleBox() const;      // where it is drawn (centred at the top)
    SelectedTable m_table;
    QString m_title, m_message;
    int m_selected = -1;
    int m_rows = 0;
    double m_zoom = 1.0;
    int m_labelPoints = 9;
    render::LinesHit m_hover;
};

}  // namespace attnviz::ui
