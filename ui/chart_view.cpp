// SPDX-License-Identifier: GPL-3.0-or-later
#include "chart_view.h"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <cmath>

#include "language.h"
#include "render/figure.h"

namespace attnviz::ui {

ChartView::ChartView(QWidget* parent) : QWidget(parent) {
    // At most the height a laptop's bottom tools give it (1366 × 768: about 145 px under the
    // Heads dock's bar): a larger minimum was cut off at the bottom, the axis title with it
    // (issue 47); the chart lays itself out in whatever it gets.
    setMinimumSize(240, 120);
}

void ChartView::setCharts(render::ChartGrid grid, QImage drawn, render::FigureStyle drawnIn) {
    m_grid = std::move(grid);
    m_drawn = std::move(drawn);
    m_drawnStyle = std::move(drawnIn);
    update();
}

void ChartView::setMessage(const QString& message) {
    m_message = message;
    update();
}

render::FigureStyle ChartView::style() const {
    render::FigureStyle style;
    style.fontFamily = font().family();
    style.fontSize = std::max(6.5, font().pointSizeF() * 0.85);
    style.language = currentLanguage();
    return style;
}

QImage ChartView::draw(const render::ChartGrid& grid, const render::FigureStyle& style, QSize size,
                       qreal pixelRatio) {
    QImage image((QSizeF(size) * pixelRatio).toSize(), QImage::Format_ARGB32_Premultiplied);
    if (image.isNull()) return image;
    image.setDevicePixelRatio(pixelRatio);
    image.fill(Qt::transparent);
    QPainter p(&image);
    render::paintCharts(p, grid, style, QRectF(QPointF(0, 0), QSizeF(size)));
    return image;
}

QString ChartView::noteAt(const QPoint& pos) const {
    if (m_grid.charts.empty()) return {};
    const render::FigureStyle s = style();
    // Within the dot, or a few pixels of it: a dot is small.
    double best = std::max(6.0, s.fontSize * 0.6);
    const std::string* note = nullptr;
    for (const render::ChartPoint& p :
         render::chartPoints(m_grid, s, QRectF(QPointF(0, 0), QSizeF(size())))) {
        const auto& notes = m_grid.charts[p.chart].series[p.series].notes;
        if (p.point >= notes.size()) continue;
        const double d = std::hypot(p.at.x() - pos.x(), p.at.y() - pos.y());
        if (d <= best) best = d, note = &notes[p.point];
    }
    return note ? QString::fromStdString(*note) : QString();
}

bool ChartView::event(QEvent* event) {
    if (event->type() != QEvent::ToolTip) return QWidget::event(event);
    const auto* help = static_cast<QHelpEvent*>(event);
    const QString note = noteAt(help->pos());
    if (note.isEmpty()) {
        QToolTip::hideText();
        event->ignore();
    } else {
        QToolTip::showText(help->globalPos(), note, this);
    }
    return true;
}

void ChartView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    if (m_grid.charts.empty()) {
        p.fillRect(rect(), palette().window());
        p.drawText(rect(), Qt::AlignCenter | Qt::TextWordWrap, m_message);
        return;
    }
    const qreal ratio = devicePixelRatioF();
    const render::FigureStyle now = style();
    if (m_drawn.isNull() || m_drawn.devicePixelRatio() != ratio ||
        m_drawn.size() != (QSizeF(size()) * ratio).toSize() ||
        now.fontFamily != m_drawnStyle.fontFamily || now.fontSize != m_drawnStyle.fontSize ||
        now.language != m_drawnStyle.language) {
        m_drawn = draw(m_grid, now, size(), ratio);
        m_drawnStyle = now;
    }
    p.drawImage(0, 0, m_drawn);
}

}  // namespace attnviz::ui
