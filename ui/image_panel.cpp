// SPDX-License-Identifier: GPL-3.0-or-later
#include "image_panel.h"

#include <QMouseEvent>
#include <QPainter>
#include <algorithm>
#include <cmath>

namespace attnviz::ui {

ImagePanelView::ImagePanelView(QWidget* parent) : QWidget(parent) {
    setMinimumSize(120, 140);
    setCursor(Qt::PointingHandCursor);
}

void ImagePanelView::setPanel(render::ImagePanel panel, const render::OverlayStyle& style,
                              bool shared) {
    m_panel = std::move(panel);
    m_style = style;
    if (!shared) {
        double top = 0;
        for (double w : m_panel.overlay.weights.patches) top = std::max(top, w);
        m_style.scaleMax = top > 0 ? top : 1;
    }
    setToolTip(QString::fromStdString(m_panel.where));
    update();
}

QRectF ImagePanelView::imageBox() const {
    const double line = fontMetrics().height() * 1.3;
    const QRectF box(4, line, width() - 8, height() - 2 * line - 4);
    const double side = std::max(0.0, std::min(box.width(), box.height()));
    return {box.center().x() - side / 2, box.top(), side, side};
}

bool ImagePanelView::patchAt(const QPointF& pos, int* row, int* col) const {
    const QRectF sq = imageBox();
    const int g = m_panel.overlay.grid.grid;
    if (g <= 0 || !sq.contains(pos) || sq.width() <= 0) return false;
    *col = std::clamp(int(std::floor((pos.x() - sq.left()) / sq.width() * g)), 0, g - 1);
    *row = std::clamp(int(std::floor((pos.y() - sq.top()) / sq.height() * g)), 0, g - 1);
    return true;
}

void ImagePanelView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    const double line = fontMetrics().height() * 1.3;
    p.setPen(palette().text().color());
    p.drawText(
        QRectF(0, 0, width(), line), Qt::AlignCenter,
        fontMetrics().elidedText(QString::fromStdString(m_panel.where), Qt::ElideRight, width()));
    if (m_panel.overlay.pixels.empty()) return;
    const QRectF sq = render::paintImageOverlay(p, imageBox(), m_panel.overlay, m_style);
    if (m_panel.overlay.weights.classToken)
        render::paintClassTokenSwatch(p, QRectF(sq.left(), sq.bottom() + 4, sq.width(), line * 0.8),
                                      *m_panel.overlay.weights.classToken, m_style, font());
}

void ImagePanelView::mousePressEvent(QMouseEvent* event) {
    int row = 0, col = 0;
    if (event->button() == Qt::LeftButton && patchAt(event->position(), &row, &col))
        emit patchClicked(row, col);
    QWidget::mousePressEvent(event);
}

}  // namespace attnviz::ui
