// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

#include "core/selection.h"
#include "render/lines.h"

namespace attnviz::ui {

// One attention table as the lines view (render/lines.h, the drawing the figures use):
// query tokens left, key tokens right, a line per weight. Hovering a token keeps only its
// lines; clicking a query selects it (as a click on a heatmap row); the selected query's
// lines stay when nothing is hovered. Never shorter than a readable pitch per token: the
// grid scrolls instead.
class LinesPanel : public QWidget {
    Q_OBJECT
public:
    explicit LinesPanel(QWidget* parent = nullptr);
    void setTable(const SelectedTable& table);
    void setTitle(const QString& title);      // model and block, two lines
    void setMessage(const QString& message);  // shown instead of the lines (errors)
    void setSelectedQuery(int row);
    // Lays out at least this many token rows, so that panels side by side line up.
    void setRows(int rows);
    // Panel size factor (the grid's zoom) and the labels' point size.
    void setZoom(double zoom);
    void setLabelPoints(int points);
    int selectedQuery() const { return m_selected; }
    // The token under the mouse: {0, i} query, {1, j} key, {-1, -1} none.
    render::LinesHit hovered() const { return m_hover; }
    // What is drawn now (for tests): the style with the hovered or selected focus.
    render::LinesStyle style() const;
    const SelectedTable& table() const { return m_table; }
    QString title() const { return m_title; }
    // Where the lines and labels go in this widget.
    render::LinesLayout currentLayout() const;
    QSize minimumSizeHint() const override;

signals:
    void rowClicked(int row);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;

private:
    QRectF linesBox() const;
    SelectedTable m_table;
    QString m_title, m_message;
    int m_selected = -1;
    int m_rows = 0;
    double m_zoom = 1.0;
    int m_labelPoints = 9;
    render::LinesHit m_hover;
};

}  // namespace attnviz::ui
