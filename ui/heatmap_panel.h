// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <qcustomplot.h>

#include <QStringList>

#include "core/tensor.h"

namespace attnviz::ui {

// One attention map: a QCustomPlot heatmap with queries down (rows) and keys across
// (columns), token labels on both axes and a title. A thin adapter: it copies the numbers
// into a QCPColorMap and does nothing else.
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

    const Mat& matrix() const { return m_weights; }
    QString title() const;
    // Tooltip text for cell (query i, key j).
    QString cellText(int i, int j) const;

protected:
    void mouseMoveEvent(QMouseEvent* event) override;

private:
    QCPColorMap* m_map;
    QCPTextElement* m_title;
    QCPItemText* m_message;
    Mat m_weights;
    QStringList m_queries, m_keys;
    QString m_fullTitle;
};

}  // namespace attnviz::ui
