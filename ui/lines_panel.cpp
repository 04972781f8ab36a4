// SPDX-License-Identifier: GPL-3.0-or-later
#include "lines_panel.h"

#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>
#include <cmath>

namespace attnviz::ui {

namespace {
constexpr int kMinPitch = 20;  // pixels per token row: labels at the widget font stay readable
}

LinesPanel::LinesPanel(QWidget* parent) : Panel(parent) {
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void LinesPanel::setTable(const SelectedTable& table) {
    m_table = table;
    m_message.clear();
    m_hover = {};
    updateGeometry();
    update();
}

void LinesPanel::setTitle(const QString& title) {
    m_title = title;
    update();
}

void LinesPanel::setMessage(const QString& message) {
    m_message = message;
    m_table = SelectedTable{};
    updateGeometry();
    update();
}

void LinesPanel::setQuery(int row) {
    m_selected = row;
    update();
}

void LinesPanel::setAlignedRows(int rows) {
    m_rows = rows;
    updateGeometry();
    update();
}

void LinesPanel::setZoom(double zoom) {
    m_zoom = zoom;
    updateGeometry();
    update();
}

void LinesPanel::setLabelPoints(int points) {
    m_labelPoints = points;
    updateGeometry();
    update();
}

void LinesPanel::wheelEvent(QWheelEvent* event) {
    event->ignore();  // Ctrl+wheel zooms the grid; a plain wheel scrolls it
}

render::LinesStyle LinesPanel::style() const {
    render::LinesStyle s;
    s.rows = m_rows;
    s.fontSize = m_labelPoints + 1;  // lines labels are the view's largest text
    s.title = false;
    s.color = palette().color(QPalette::Highlight).darker(130);
    if (m_hover.side == 0) {
        s.focusQuery = m_hover.index;
    } else if (m_hover.side == 1) {
        s.focusKey = m_hover.index;
    } else {
        s.focusQuery = m_selected;
    }
    return s;
}

// Each title line elided to the panel (the block and layer are also in the controls).
QString LinesPanel::shownTitle() const {
    QStringList title = m_title.split('\n');
    for (auto& line : title) line = fontMetrics().elidedText(line, Qt::ElideRight, width() - 6);
    return title.join('\n');
}

QRect LinesPanel::titleBox() const {
    return QRect(0, 2, width(), 2 * fontMetrics().lineSpacing() + 2);
}

QRect LinesPanel::titleRect() const {
    return fontMetrics().boundingRect(titleBox(), Qt::AlignHCenter | Qt::AlignTop, shownTitle());
}

QRectF LinesPanel::linesBox() const {
    const int titleH = int(m_title.count('\n') + 1) * fontMetrics().lineSpacing() + 6;
    return QRectF(4, titleH, width() - 8, height() - titleH - 4);
}

render::LinesLayout LinesPanel::currentLayout() const {
    return render::layoutLines(m_table, style(), linesBox());
}

QSize LinesPanel::minimumSizeHint() const {
    const int n = std::max(
        m_rows,
        m_table.weights ? int(std::max(m_table.weights->rows(), m_table.weights->cols())) : 0);
    // Readable rows, but not taller than 1500 px (times the zoom) for long sentences.
    const int readable = int(std::lround(kMinPitch * m_zoom * m_labelPoints / 8.0));
    const int pitch = std::min(readable, int(1500 * m_zoom) / std::max(3, n));
    return QSize(160, 2 * fontMetrics().lineSpacing() + 10 + std::max(3, n) * std::max(4, pitch));
}

void LinesPanel::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().color(QPalette::Base));
    p.setPen(palette().color(QPalette::Text));
    p.drawText(titleBox(), Qt::AlignHCenter | Qt::AlignTop, shownTitle());
    if (!m_message.isEmpty() || !m_table.weights) {
        p.drawText(rect().adjusted(8, 2 * fontMetrics().lineSpacing(), -8, -8),
                   Qt::AlignCenter | Qt::TextWordWrap, m_message);
        return;
    }
    render::paintLines(p, m_table, style(), linesBox());
}

void LinesPanel::mouseMoveEvent(QMouseEvent* event) {
    const render::LinesHit hit = render::hitLines(currentLayout(), event->position());
    if (hit.side != m_hover.side || hit.index != m_hover.index) {
        m_hover = hit;
        update();
    }
    if (hit.side >= 0 && m_table.queries && m_table.keys) {
        const auto& labels = hit.side == 0 ? *m_table.queries : *m_table.keys;
        QToolTip::showText(event->globalPosition().toPoint(),
                           (hit.side == 0 ? tr("Query %1 \"%2\"") : tr("Key %1 \"%2\""))
                               .arg(hit.index + 1)  // for people: from 1
                               .arg(QString::fromStdString(labels[size_t(hit.index)])),
                           this);
    }
}

void LinesPanel::mousePressEvent(QMouseEvent* event) {
    const render::LinesHit hit = render::hitLines(currentLayout(), event->position());
    if (hit.side == 0) emit rowClicked(hit.index);
}

void LinesPanel::leaveEvent(QEvent*) {
    m_hover = {};
    update();
}

}  // namespace attnviz::ui
