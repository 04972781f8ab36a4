// SPDX-License-Identifier: GPL-3.0-or-later
#include "chart_view.h"

#include <QPainter>
#include <algorithm>

#include "language.h"
#include "render/figure.h"

namespace attnviz::ui {

ChartView::ChartView(QWidget* parent) : QWidget(parent) {
    setMinimumSize(240, 160);
}

void ChartView::setCharts(render::ChartGrid grid) {
    m_grid = std::move(grid);
    update();
}

void ChartView::setMessage(const QString& message) {
    m_message = message;
    update();
}

void ChartView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    if (m_grid.charts.empty()) {
        p.fillRect(rect(), palette().window());
        p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap, m_message);
        return;
    }
    render::FigureStyle style;
    style.fontFamily = font().family();
    style.fontSize = std::max(6.5, font().pointSizeF() * 0.85);
    style.language = currentLanguage();
    render::paintCharts(p, m_grid, style, QRectF(rect()));
}

}  // namespace attnviz::ui
