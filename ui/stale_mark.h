// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

namespace attnviz::ui {

// A translucent grey cover over its parent widget that follows the parent's size; clicks
// pass through. setDimmed uses it as it is; the grid's panels paint a badge on top
// (Panel::setUpdating).
class StaleCover : public QWidget {
public:
    explicit StaleCover(QWidget* widget);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void paintEvent(QPaintEvent*) override;  // the grey
};

// Dims `widget` with a translucent grey cover over it (its data stays readable through it,
// clicks pass through) while what it shows is of an earlier analysis; false removes the
// cover. The caller says why where it hides nothing (a title). The grid's panels do the same
// with a badge of their own (Panel::setUpdating).
void setDimmed(QWidget* widget, bool dimmed);
bool isDimmed(const QWidget* widget);

}  // namespace attnviz::ui
