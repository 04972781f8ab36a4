// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

#include "render/figure.h"

namespace attnviz::ui {

// The shared colour scale beside the grid: the figures' colour bar (render::paintColorBar)
// for the view's colour map and scaling, from 0 to the largest weight in view.
class ColorBar : public QWidget {
    Q_OBJECT
public:
    explicit ColorBar(QWidget* parent = nullptr);
    // With `diverging`, a signed scale from -top to top (differences, residuals).
    void setScale(const QString& colormap, render::Scaling scaling, double top,
                  bool diverging = false);
    double top() const { return m_top; }
    // Its text and width `factor` times their own (presentation mode: the labels' size, issue
    // 47); 1 gives them back.
    void setScaleFactor(double factor);
    double scaleFactor() const { return m_factor; }
    QSize sizeHint() const override { return QSize(int(76 * m_factor), 200); }

protected:
    void changeEvent(QEvent* event) override;  // retranslates on QEvent::LanguageChange
    void paintEvent(QPaintEvent* event) override;

private:
    void retranslateUi();
    render::FigureStyle m_style;
    double m_top = 0;
    bool m_diverging = false;
    double m_factor = 1;
};

}  // namespace attnviz::ui
