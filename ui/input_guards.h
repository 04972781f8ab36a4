// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>

class QWidget;

namespace attnviz::ui {

// Spin boxes, combo boxes and sliders (not scroll bars) take the mouse wheel only when they have
// the keyboard focus (clicked or tabbed into): scrolling a dock over them scrolls the dock instead
// of changing a model's σ on the way. Constructing one installs it on the application
// (MainWindow does, once): from then on no control takes the focus from the wheel itself
// (Qt::WheelFocus becomes Qt::StrongFocus, for the controls that exist and as later ones
// are polished), which would let the wheel through.
class WheelGuard : public QObject {
public:
    explicit WheelGuard(QObject* parent);
    bool eventFilter(QObject* watched, QEvent* event) override;
};

// The window's own shortcuts win over a text field's key bindings (Ctrl+Shift+Left/Right
// move a column, not select a word; Ctrl+E exports): installed on the Source and Target
// fields. Keys without a window shortcut stay the field's.
class ShortcutsFirst : public QObject {
public:
    explicit ShortcutsFirst(QWidget* window);
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QWidget* m_window;
};

// The status bar keeps its message while the pointer crosses menus: Qt sends an empty status
// tip for every menu entry without one (none has one here), which cleared "12 models of …"
// for good. Installed on the window; tips with text still show.
class KeepStatusMessage : public QObject {
public:
    explicit KeepStatusMessage(QWidget* window);
    bool eventFilter(QObject* watched, QEvent* event) override;
};

}  // namespace attnviz::ui
