// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDialog>
#include <QStringList>

class QListWidget;

namespace attnviz::ui {

// Columns › Choose models…: which models the grid shows and in which order. The shown ones
// come first, ticked, in their order; the set's other models follow, unticked. Tick to show,
// drag (or Alt+Up/Down) to reorder.
class ModelPicker : public QDialog {
    Q_OBJECT
public:
    // names[k] is shown for keys[k] (a column's path, or another unique key).
    ModelPicker(const QStringList& names, const QStringList& keys, const QStringList& shown,
                QWidget* parent = nullptr);
    // The ticked keys, top to bottom.
    QStringList chosen() const;
    QListWidget* list() const { return m_list; }

private:
    void moveCurrent(int delta);
    QListWidget* m_list;
};

}  // namespace attnviz::ui
