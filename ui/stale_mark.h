// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

class QWidget;

namespace attnviz::ui {

// Dims `widget` with a translucent grey cover over it (its data stays readable through it,
// clicks pass through) while what it shows is of an earlier analysis; false removes the
// cover. The caller says why where it hides nothing (a title). The grid's panels do the same
// with a badge of their own (Panel::setUpdating).
void setDimmed(QWidget* widget, bool dimmed);
bool isDimmed(const QWidget* widget);

}  // namespace attnviz::ui
