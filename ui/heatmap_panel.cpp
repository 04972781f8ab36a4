// SPDX-License-Identifier: GPL-3.0-or-later
#include "heatmap_panel.h"

#include <QToolTip>

#include "colormaps.h"

namespace attnviz::ui {
namespace {

QSharedPointer<QCPAxisTickerText> labels(const QStringList& tokens) {
    auto t = QSharedPointer<QCPAxisTickerText>::create();
    for (int i = 0; i < tokens.size(); ++i) t->addTick(i, tokens[i]);
    return t;
}

}  // namespace

HeatmapPanel::HeatmapPanel(QWidget* parent) : QCustomPlot(parent) {
    setMinimumSize(160, 160);
    plotLayout()->insertRow(0);
    m_title = new QCPTextElement(this, QString(), QFont(font().family(), 9, QFont::DemiBold));
    plotLayout()->addElement(0, 0, m_title);
    m_map = new QCPColorMap(xAxis, yAxis);
    m_map->setInterpolate(false);
    m_map->setTightBoundary(false);
    m_map->setGradient(colormap("viridis"));
    m_map->setDataRange(QCPRange(0, 1));
    yAxis->setRangeReversed(true);  // query 0 at the top
    for (QCPAxis* a : {xAxis, yAxis}) {
        a->grid()->setVisible(false);
        a->setSubTicks(false);
        a->setTickLength(0, 3);
        a->setTickLabelFont(QFont(font().family(), 8));
    }
    xAxis->setTickLabelRotation(60);
    m_message = new QCPItemText(this);
    m_message->position->setType(QCPItemPosition::ptAxisRectRatio);
    m_message->position->setCoords(0.5, 0.5);
    m_message->setPositionAlignment(Qt::AlignCenter);
    m_message->setTextAlignment(Qt::AlignCenter);
    m_message->setColor(QColor("#b00020"));
    m_message->setVisible(false);
    setMouseTracking(true);
}

void HeatmapPanel::setMatrix(const Mat& w, const QStringList& queries, const QStringList& keys) {
    m_weights = w;
    m_queries = queries;
    m_keys = keys;
    m_message->setVisible(false);
    m_map->setVisible(true);
    const int nq = int(w.rows()), nk = int(w.cols());
    m_map->data()->setSize(nk, nq);
    m_map->data()->setRange(QCPRange(0, std::max(0, nk - 1)), QCPRange(0, std::max(0, nq - 1)));
    for (int i = 0; i < nq; ++i)
        for (int j = 0; j < nk; ++j) m_map->data()->setCell(j, i, w(i, j));
    xAxis->setTicker(labels(keys));
    yAxis->setTicker(labels(queries));
    xAxis->setRange(-0.5, nk - 0.5);
    yAxis->setRange(-0.5, nq - 0.5);
    replot(QCustomPlot::rpQueuedReplot);
}

void HeatmapPanel::setTitle(const QString& title) {
    m_title->setText(title);
}
QString HeatmapPanel::title() const {
    return m_title->text();
}

void HeatmapPanel::setMessage(const QString& message) {
    m_weights.resize(0, 0);
    m_map->setVisible(false);
    m_message->setText(message);
    m_message->setVisible(true);
    replot(QCustomPlot::rpQueuedReplot);
}

void HeatmapPanel::setColorRange(double lo, double hi) {
    m_map->setDataRange(QCPRange(lo, hi > lo ? hi : lo + 1e-9));
    replot(QCustomPlot::rpQueuedReplot);
}

void HeatmapPanel::setGradient(const QCPColorGradient& g) {
    m_map->setGradient(g);
    replot(QCustomPlot::rpQueuedReplot);
}

QString HeatmapPanel::cellText(int i, int j) const {
    if (i < 0 || j < 0 || i >= m_weights.rows() || j >= m_weights.cols()) return {};
    return QStringLiteral("%1\nquery %2 \"%3\" → key %4 \"%5\"\nweight %6")
        .arg(m_fullTitle.isEmpty() ? title() : m_fullTitle)
        .arg(i)
        .arg(m_queries.value(i))
        .arg(j)
        .arg(m_keys.value(j))
        .arg(double(m_weights(i, j)), 0, 'f', 4);
}

void HeatmapPanel::mouseMoveEvent(QMouseEvent* event) {
    QCustomPlot::mouseMoveEvent(event);
    const QPointF p = event->position();
    const int j = int(std::lround(xAxis->pixelToCoord(p.x())));
    const int i = int(std::lround(yAxis->pixelToCoord(p.y())));
    const QString text = axisRect()->rect().contains(p.toPoint()) ? cellText(i, j) : QString();
    if (text.isEmpty()) {
        QToolTip::hideText();
    } else {
        QToolTip::showText(event->globalPosition().toPoint(), text, this);
    }
}

}  // namespace attnviz::ui
