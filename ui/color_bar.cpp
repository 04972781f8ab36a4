// SPDX-License-Identifier: GPL-3.0-or-later
#include "color_bar.h"

#include <QEvent>
#include <QPainter>

namespace attnviz::ui {

ColorBar::ColorBar(QWidget* parent) : QWidget(parent) {
    setFixedWidth(76);
    retranslateUi();
}

void ColorBar::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) {
        retranslateUi();
        update();  // the title is painted
    }
    QWidget::changeEvent(event);
}

void ColorBar::retranslateUi() {
    setToolTip(tr("Colour scale shared by every panel: 0 to the largest weight in view"));
}

void ColorBar::setScaleFactor(double factor) {
    m_factor = factor;
    if (factor == 1) {
        setFont(QFont());  // the window's again
    } else {  // from the default, not compounded; a font sized in pixels scaled as such
        QFont f = QFont();
        if (f.pointSizeF() > 0)
            f.setPointSizeF(f.pointSizeF() * factor);
        else
            f.setPixelSize(int(f.pixelSize() * factor));
        setFont(f);
    }
    setFixedWidth(int(76 * factor));
    update();
}

void ColorBar::setScale(const QString& colormap, render::Scaling scaling, double top,
                        bool diverging) {
    m_diverging = diverging;
    m_style.colormap = colormap;
    m_style.scaling = scaling;
    m_top = top;
    update();
}

void ColorBar::paintEvent(QPaintEvent*) {
    if (!(m_top > 0)) return;
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    render::FigureStyle s = m_style;
    s.fontFamily = font().family();
    s.fontSize = font().pointSizeF();
    const double fs = QFontMetricsF(font()).height();
    p.setPen(palette().color(QPalette::Text));
    p.drawText(QRectF(0, 2, width(), fs), Qt::AlignCenter,
               //: Colour bar title: the scale shows differences (or attention weights)
               m_diverging ? tr("difference") : tr("weight"));
    render::paintColorBar(p, QRectF(8 * m_factor, fs * 1.8, 14 * m_factor, height() - fs * 3.2), s,
                          m_top, m_diverging);
}

}  // namespace attnviz::ui
