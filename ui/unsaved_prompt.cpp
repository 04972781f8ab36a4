// SPDX-License-Identifier: GPL-3.0-or-later
#include "unsaved_prompt.h"

#include <QPushButton>

namespace attnviz::ui {

UnsavedPrompt::UnsavedPrompt(const QString& title, const QString& text, const QString& goOn,
                             QWidget* parent)
    : QMessageBox(QMessageBox::Warning, title, text, QMessageBox::NoButton, parent) {
    m_save = addButton(tr("&Save models…"), QMessageBox::AcceptRole);
    m_save->setToolTip(
        tr("Saves them (one file dialog for one model, one folder for several), then goes on"));
    m_goOn = addButton(goOn, QMessageBox::DestructiveRole);
    setDefaultButton(m_save);
    setEscapeButton(addButton(QMessageBox::Cancel));
}

UnsavedPrompt::Choice UnsavedPrompt::choice() const {
    const QAbstractButton* b = clickedButton();
    return b == m_save ? SaveThem : b == m_goOn ? GoOn : Cancel;
}

}  // namespace attnviz::ui
