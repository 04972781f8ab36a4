// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

#include "view_state.h"

class QComboBox;
class QSpinBox;
class QCheckBox;

namespace attnviz::ui {

// The row of view controls above the grid: block kind, layer, mean of heads, colours,
// scaling and shared colour scale. Edits emit changed(); showView() sets them silently.
class ViewControls : public QWidget {
    Q_OBJECT
public:
    explicit ViewControls(QWidget* parent = nullptr);
    void showView(const ViewState& view);
    // `base` with the controls' values; the query is cleared when the block kind changes.
    ViewState applied(const ViewState& base) const;
    void setBlockIndex(int i);  // 0 encoder self, 1 decoder self, 2 cross

signals:
    void changed();

private:
    QComboBox *m_block, *m_colormap, *m_scaling;
    QSpinBox* m_layer;
    QCheckBox *m_shared, *m_mean, *m_words, *m_lines;
};

}  // namespace attnviz::ui
