// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QMessageBox>

class QPushButton;

namespace attnviz::ui {

// The question asked before models trained here and not saved would be lost or left out of a
// workspace (quitting, switching model sets, saving a workspace): "Save models…" (the
// default), a button that goes on without them (its text given: "Save without them", "Quit
// without saving", …) and Cancel. MainWindow runs it and does what was chosen.
class UnsavedPrompt : public QMessageBox {
    Q_OBJECT
public:
    enum Choice { SaveThem, GoOn, Cancel };
    UnsavedPrompt(const QString& title, const QString& text, const QString& goOn,
                  QWidget* parent = nullptr);
    // After exec(): the button pressed; Cancel when the box was closed otherwise.
    Choice choice() const;
    QPushButton* saveButton() const { return m_save; }
    QPushButton* goOnButton() const { return m_goOn; }

private:
    QPushButton *m_save, *m_goOn;
};

}  // namespace attnviz::ui
