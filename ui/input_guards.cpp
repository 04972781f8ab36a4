// SPDX-License-Identifier: GPL-3.0-or-later
#include "input_guards.h"

#include <QAbstractSpinBox>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QEvent>
#include <QKeyEvent>
#include <QSlider>
#include <QStatusTipEvent>
#include <QWidget>

namespace attnviz::ui {

namespace {

bool guarded(QObject* o) {
    return qobject_cast<QAbstractSpinBox*>(o) || qobject_cast<QComboBox*>(o) ||
           qobject_cast<QSlider*>(o);  // not scroll bars: they scroll
}

// Spin and combo boxes default to Qt::WheelFocus: QApplication gives them the focus for a
// wheel over them before any filter sees it, and the guard's focus check would pass.
void noWheelFocus(QWidget* w) {
    if (w->focusPolicy() == Qt::WheelFocus) w->setFocusPolicy(Qt::StrongFocus);
}

}  // namespace

WheelGuard::WheelGuard(QObject* parent) : QObject(parent) {
    for (QWidget* w : QApplication::allWidgets())  // the ones made before the guard
        if (guarded(w)) noWheelFocus(w);
    qApp->installEventFilter(this);
}

bool WheelGuard::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() != QEvent::Wheel && event->type() != QEvent::Polish) return false;
    auto* w = qobject_cast<QWidget*>(watched);
    if (!w || !guarded(watched)) return false;
    if (event->type() == QEvent::Polish) {  // every later one, before it is first shown
        noWheelFocus(w);
        return false;
    }
    if (w->hasFocus()) return false;
    // Not the control's: ignored, so QApplication hands it to the parents (the scroll area).
    event->ignore();
    return true;
}

ShortcutsFirst::ShortcutsFirst(QWidget* window) : QObject(window), m_window(window) {}

bool ShortcutsFirst::eventFilter(QObject*, QEvent* event) {
    if (event->type() != QEvent::ShortcutOverride) return false;
    const QKeySequence pressed(static_cast<QKeyEvent*>(event)->keyCombination());
    for (const QAction* a : m_window->findChildren<QAction*>())
        if (a->isEnabled() && a->shortcuts().contains(pressed)) {
            // Not accepted: the field does not claim the key, and Qt runs the shortcut.
            event->ignore();
            return true;
        }
    return false;
}

KeepStatusMessage::KeepStatusMessage(QWidget* window) : QObject(window) {
    window->installEventFilter(this);
}

bool KeepStatusMessage::eventFilter(QObject*, QEvent* event) {
    return event->type() == QEvent::StatusTip &&
           static_cast<QStatusTipEvent*>(event)->tip().isEmpty();
}

}  // namespace attnviz::ui
