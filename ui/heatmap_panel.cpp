// SPDX-License-Identifier: GPL-3.0-or-later
#include "heatmap_panel.h"

#include <QToolTip>
#include <cmath>

#include "colormaps.h"
#include "figure.h"

namespace attnviz::ui {
namespace {

QSharedPointer<QCPAxisTickerText> labels(const QStringList& tokens) {
    auto t = QSharedPointer<QCPAxisTickerText>::create();
    for (int i = 0; i < tokens.size(); ++i) t->addTick(i, tokens[i]);
    return t;
}

// The smallest weight shown on a log scale.
constexpr double kLogFloor = 1e-4;

}  // namespace

Scaling scalingFromName(const QString& name) {
    if (name == "power") return Scaling::Power;
    if (name == "log") return Scaling::Log;
    return Scaling::Linear;
}

QString scalingName(Scaling s) {
    switch (s) {
        case Scaling::Power:
            return "power";
        case Scaling::Log:
            return "log";
        default:
            return "linear";
    }
}

HeatmapPanel::HeatmapPanel(QWidget* parent) : QCustomPlot(parent) {
    setMinimumSize(140, 170);
    plotLayout()->insertRow(0);
    m_title = new QCPTextElement(this, QString(), QFont(figureFontFamily(), 8, QFont::DemiBold));
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
        a->setTickLabelFont(QFont(figureFontFamily(), 7));
    }
    xAxis->setTickLabelRotation(60);
    m_highlight = new QCPItemRect(this);
    m_highlight->setPen(QPen(QColor("#ff3b30"), 2));
    m_highlight->setBrush(Qt::NoBrush);
    m_highlight->setVisible(false);
    m_message = new QCPItemText(this);
    m_message->position->setType(QCPItemPosition::ptAxisRectRatio);
    m_message->position->setCoords(0.5, 0.5);
    m_message->setPositionAlignment(Qt::AlignCenter);
    m_message->setTextAlignment(Qt::AlignCenter);
    m_message->setColor(QColor("#b00020"));
    m_message->setVisible(false);
    // Wheel zooms, drag pans (both axes); double-click resets.
    setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    auto emitView = [this] {
        if (!m_settingView) emit viewChanged(xAxis->range(), yAxis->range());
    };
    connect(xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, emitView);
    connect(yAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, emitView);
    setMouseTracking(true);
}

void HeatmapPanel::setMatrix(const Mat& w, const QStringList& queries, const QStringList& keys) {
    const bool sameShape = w.rows() == m_weights.rows() && w.cols() == m_weights.cols();
    m_weights = w;
    m_queries = queries;
    m_keys = keys;
    m_message->setVisible(false);
    m_map->setVisible(true);
    const int nq = int(w.rows()), nk = int(w.cols());
    m_map->data()->setSize(nk, nq);
    m_map->data()->setRange(QCPRange(0, std::max(0, nk - 1)), QCPRange(0, std::max(0, nq - 1)));
    applyScaling();
    xAxis->setTicker(labels(keys));
    yAxis->setTicker(labels(queries));
    if (!sameShape) resetView();
    setHighlightedRow(m_row < nq ? m_row : -1);
    replot(QCustomPlot::rpQueuedReplot);
}

void HeatmapPanel::applyScaling() {
    const int nq = int(m_weights.rows()), nk = int(m_weights.cols());
    for (int i = 0; i < nq; ++i) {
        for (int j = 0; j < nk; ++j) {
            double v = m_weights(i, j);
            if (m_scaling == Scaling::Power) v = std::sqrt(std::max(0.0, v));
            if (m_scaling == Scaling::Log) v = std::max(v, kLogFloor);
            m_map->data()->setCell(j, i, v);
        }
    }
    m_map->setDataScaleType(m_scaling == Scaling::Log ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
    setColorRange(m_lo, m_hi);
}

void HeatmapPanel::setScaling(Scaling s) {
    if (s == m_scaling) return;
    m_scaling = s;
    applyScaling();
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
    m_highlight->setVisible(false);
    m_message->setText(message);
    m_message->setVisible(true);
    replot(QCustomPlot::rpQueuedReplot);
}

void HeatmapPanel::setColorRange(double lo, double hi) {
    m_lo = lo;
    m_hi = hi;
    double a = lo, b = hi > lo ? hi : lo + 1e-9;
    if (m_scaling == Scaling::Power)
        a = std::sqrt(std::max(0.0, a)), b = std::sqrt(std::max(0.0, b));
    if (m_scaling == Scaling::Log) a = std::max(a, kLogFloor), b = std::max(b, 10 * kLogFloor);
    m_map->setDataRange(QCPRange(a, b));
    replot(QCustomPlot::rpQueuedReplot);
}

void HeatmapPanel::setGradient(const QCPColorGradient& g) {
    m_map->setGradient(g);
    replot(QCustomPlot::rpQueuedReplot);
}

void HeatmapPanel::setHighlightedRow(int row) {
    m_row = row;
    const bool on = row >= 0 && row < m_weights.rows();
    m_highlight->setVisible(on);
    if (on) {
        m_highlight->topLeft->setCoords(-0.5, row - 0.5);
        m_highlight->bottomRight->setCoords(double(m_weights.cols()) - 0.5, row + 0.5);
    }
    replot(QCustomPlot::rpQueuedReplot);
}

void HeatmapPanel::setView(const QCPRange& keys, const QCPRange& queries) {
    m_settingView = true;
    xAxis->setRange(keys);
    yAxis->setRange(queries);
    m_settingView = false;
    replot(QCustomPlot::rpQueuedReplot);
}

void HeatmapPanel::resetView() {
    setView(QCPRange(-0.5, double(m_weights.cols()) - 0.5),
            QCPRange(-0.5, double(m_weights.rows()) - 0.5));
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

int HeatmapPanel::rowAt(const QPointF& p) const {
    const QRect r = axisRect()->rect();
    // On the map, or left of it on the query labels.
    if (p.y() < r.top() || p.y() > r.bottom() || p.x() > r.right()) return -1;
    const int i = int(std::lround(yAxis->pixelToCoord(p.y())));
    return i >= 0 && i < m_weights.rows() ? i : -1;
}

void HeatmapPanel::mousePressEvent(QMouseEvent* event) {
    QCustomPlot::mousePressEvent(event);
    if (event->button() == Qt::LeftButton) {
        const int row = rowAt(event->position());
        if (row >= 0) emit rowClicked(row);
    }
}

void HeatmapPanel::mouseDoubleClickEvent(QMouseEvent* event) {
    QCustomPlot::mouseDoubleClickEvent(event);
    resetView();
    emit viewChanged(xAxis->range(), yAxis->range());
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
