// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QImage>
#include <QString>
#include <QWidget>

#include "render/charts.h"

namespace attnviz::ui {

// A render::ChartGrid on screen: render::paintCharts draws it over the whole widget, as it
// does into a figure file, with the widget's font; the message instead while there is no
// chart. Only draws: whoever computes the grid owns the numbers. The drawing is kept in an
// image, so that a repaint is a copy; whoever computes the grid off the UI thread can draw
// it there too (draw), at the size it will be shown at (issue 26: 48 charts took 6 ms).
// A point with a note (render::ChartSeries::notes, e.g. a dot of the distance chart) shows
// it as a tooltip under the mouse, found where render::chartPoints says it is drawn.
class ChartView : public QWidget {
    Q_OBJECT
public:
    explicit ChartView(QWidget* parent = nullptr);

    // drawn: the grid drawn by draw() in the style drawnIn (this widget's style() when the
    // drawing began), or null: drawn at the next paint. A picture whose size, pixel ratio or
    // style is not the widget's at the paint is drawn again there.
    void setCharts(render::ChartGrid grid, QImage drawn = {}, render::FigureStyle drawnIn = {});
    // What the grid is drawn with here: the widget's font, the interface language (read in
    // the UI thread, for draw).
    render::FigureStyle style() const;
    // The grid as paintEvent shows it on a widget of this size and pixel ratio; any thread.
    static QImage draw(const render::ChartGrid& grid, const render::FigureStyle& style, QSize size,
                       qreal pixelRatio);
    const render::ChartGrid& charts() const { return m_grid; }
    void setMessage(const QString& message);  // shown while there are no charts
    QString message() const { return m_message; }
    // The note of the point drawn nearest `pos` (widget coordinates) within a few pixels of
    // it; empty when there is none: what the tooltip at `pos` shows.
    QString noteAt(const QPoint& pos) const;

    QSize sizeHint() const override { return {640, 400}; }

protected:
    bool event(QEvent* event) override;  // QEvent::ToolTip: noteAt the mouse
    void paintEvent(QPaintEvent* event) override;

private:
    render::ChartGrid m_grid;
    QString m_message;
    QImage m_drawn;  // m_grid drawn, for the size and pixel ratio it was drawn at,
    render::FigureStyle m_drawnStyle;  // and in this style (a font changed during a job: not)
};

}  // namespace attnviz::ui
