// SPDX-License-Identifier: GPL-3.0-or-later
#include "model_picker.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QListWidget>
#include <QShortcut>
#include <QVBoxLayout>

namespace attnviz::ui {

ModelPicker::ModelPicker(const QStringList& names, const QStringList& keys,
                         const QStringList& shown, QWidget* parent)
    : QDialog(parent), m_list(new QListWidget) {
    setWindowTitle(tr("Choose models"));
    auto* v = new QVBoxLayout(this);
    auto* help =
        new QLabel(tr("Tick the models to show; drag them (or Alt+Up/Down) into the "
                      "order of the columns."));
    help->setWordWrap(true);
    v->addWidget(help);
    m_list->setDragDropMode(QAbstractItemView::InternalMove);
    m_list->setDefaultDropAction(Qt::MoveAction);
    auto add = [this](const QString& name, const QString& key, bool ticked) {
        auto* item = new QListWidgetItem(name, m_list);
        item->setData(Qt::UserRole, key);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable | Qt::ItemIsDragEnabled);
        item->setFlags(item->flags() & ~Qt::ItemIsDropEnabled);  // between items, not onto
        item->setCheckState(ticked ? Qt::Checked : Qt::Unchecked);
    };
    for (const QString& key : shown)
        if (const qsizetype k = keys.indexOf(key); k >= 0) add(names[k], key, true);
    for (qsizetype k = 0; k < keys.size(); ++k)
        if (!shown.contains(keys[k])) add(names[k], keys[k], false);
    m_list->setCurrentRow(0);
    v->addWidget(m_list, 1);
    new QShortcut(QKeySequence("Alt+Up"), this, [this] { moveCurrent(-1); });
    new QShortcut(QKeySequence("Alt+Down"), this, [this] { moveCurrent(+1); });
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    v->addWidget(buttons);
    resize(360, 420);
}

QStringList ModelPicker::chosen() const {
    QStringList out;
    for (int i = 0; i < m_list->count(); ++i)
        if (m_list->item(i)->checkState() == Qt::Checked)
            out << m_list->item(i)->data(Qt::UserRole).toString();
    return out;
}

void ModelPicker::moveCurrent(int delta) {
    const int row = m_list->currentRow(), to = row + delta;
    if (row < 0 || to < 0 || to >= m_list->count()) return;
    QListWidgetItem* item = m_list->takeItem(row);
    m_list->insertItem(to, item);
    m_list->setCurrentRow(to);
}

}  // namespace attnviz::ui
