// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QWidget>

#include "render/charts.h"

namespace attnviz::ui {

// A render::ChartGrid on screen: render::paintCharts draws it over the whole widget, as it
// does into a figure file, with the widget's font; the message instead while there is no
// chart. Only draws: whoever computes the grid owns the numbers.
class ChartView : public QWidget {
    Q_OBJECT
public:
    explicit ChartView(QWidget* parent = nullptr);

    void setCharts(render::ChartGrid grid);
    const render::ChartGrid& charts() const { return m_grid; }
    void setMessage(const QString& message);  // shown while there are no charts
    QString message() const { return m_message; }

    QSize sizeHint() const override { return {640, 400}; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    render::ChartGrid m_grid;
    QString m_message;
};

}  // namespace attnviz::ui
