// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <qcustomplot.h>

#include <QStringList>

#include "core/tensor.h"

namespace attnviz::ui {

// How weights map to colours: linear, power (square root, to see small weights) or log.
enum class Scaling { Linear, Power, Log };
Scaling scalingFromName(const QString& name);  // "linear", "power", "log"
QString scalingName(Scaling s);

// One attention map: a QCustomPlot heatmap with queries down (rows) and keys across
// (columns), token labels on both axes and a title. A thin adapter: it copies the numbers
// into a QCPColorMap, draws the selected query row, and reports clicks and zooms.
class HeatmapPanel : public QCustomPlot {
    Q_OBJECT
public:
    explicit HeatmapPanel(QWidget* parent = nullptr);

    // weights [Nq, Nk]; queryTokens has Nq labels, keyTokens Nk.
    void setMatrix(const Mat& weights, const QStringList& queryTokens,
                   const QStringList& keyTokens);
    void setTitle(const QString& title);
    // The full name (model, block, layer, head) shown in tooltips; defaults to the title.
    void setToolTipTitle(const QString& title) { m_fullTitle = title; }
    void setMessage(const QString& message);  // shown instead of the map (errors)
    void setColorRange(double lo, double hi);
    void setGradient(const QCPColorGradient& gradient);
    void setScaling(Scaling s);
    // Outlines query row i (-1: none).
    void setHighlightedRow(int row);
    int highlightedRow() const { return m_row; }
    // Visible key and query ranges (zoom and pan), without emitting viewChanged.
    void setView(const QCPRange& keys, const QCPRange& queries);
    void resetView();

    const Mat& matrix() const { return m_weights; }
    QString title() const;
    // Tooltip text for cell (query i, key j).
    QString cellText(int i, int j) const;
    // The query row at a widget position (on the map or on the query labels), or -1.
    int rowAt(const QPointF& pos) const;

signals:
    void rowClicked(int row);
    void viewChanged(const QCPRange& keys, const QCPRange& queries);

protected:
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;

private:
    void applyScaling();
    QCPColorMap* m_map;
    QCPTextElement* m_title;
    QCPItemText* m_message;
    QCPItemRect* m_highlight;
    Mat m_weights;
    QStringList m_queries, m_keys;
    QString m_fullTitle;
    Scaling m_scaling = Scaling::Linear;
    double m_lo = 0, m_hi = 1;
    int m_row = -1;
    bool m_settingView = false;
};

}  // namespace attnviz::ui
