// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <qcustomplot.h>

#include "core/selection.h"

namespace attnviz::ui {

// The weights of one query over the keys as lines (the papers' picture of Gaussian windows
// around a word): one line per model (its heads' mean), or one per head of one model.
class ProfilePlot : public QCustomPlot {
    Q_OBJECT
public:
    explicit ProfilePlot(QWidget* parent = nullptr);

    // Draws a profile (core/selection.h); with no line, says why (no query selected yet, or
    // no model has it).
    void showProfile(const Profile& profile, bool querySelected);
    void clearProfile(const QString& message);
    int lineCount() const { return graphCount(); }
    QString caption() const;

protected:
    void changeEvent(QEvent* event) override;  // retranslates on QEvent::LanguageChange

private:
    void retranslateUi();
    QCPTextElement* m_title;
};

}  // namespace attnviz::ui
