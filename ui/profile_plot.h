// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <qcustomplot.h>

#include "view_state.h"
#include "workspace.h"

namespace attnviz::ui {

// The weights of one query over the keys as lines (the papers' picture of Gaussian windows
// around a word): one line per model (its heads' mean), or one per head of one model.
class ProfilePlot : public QCustomPlot {
    Q_OBJECT
public:
    explicit ProfilePlot(QWidget* parent = nullptr);

    // column < 0: one line per model; else one line per head of that column's model.
    void showProfile(const Results& results, const ViewState& view, int column);
    void clearProfile(const QString& message);
    int lineCount() const { return graphCount(); }
    QString caption() const;

private:
    QCPTextElement* m_title;
};

}  // namespace attnviz::ui
