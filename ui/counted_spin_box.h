// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QSpinBox>

namespace attnviz::ui {

// A spin box of an index (a layer) that people read counted from 1: value() is the index
// from 0, as the view, the workspace and the CLI's --layer hold it; the box shows value() + 1
// and reads what is typed the same way.
class CountedSpinBox : public QSpinBox {
public:
    using QSpinBox::QSpinBox;

protected:
    QString textFromValue(int value) const override { return locale().toString(value + 1); }
    int valueFromText(const QString& text) const override {
        return locale().toInt(text.trimmed()) - 1;
    }
    QValidator::State validate(QString& text, int& /*pos*/) const override {
        // The range as people count it: minimum()+1 … maximum()+1.
        if (text.trimmed().isEmpty()) return QValidator::Intermediate;
        bool ok = false;
        const int shown = locale().toInt(text.trimmed(), &ok);
        if (!ok) return QValidator::Invalid;
        return shown - 1 >= minimum() && shown - 1 <= maximum() ? QValidator::Acceptable
                                                                : QValidator::Intermediate;
    }
};

}  // namespace attnviz::ui
