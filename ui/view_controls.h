// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

#include "view_state.h"

class QComboBox;
class QSpinBox;
class QCheckBox;

namespace attnviz::ui {

// The row of view controls above the grid: block kind, layer, layout (compare: models ×
// heads; mean: one mean-of-heads panel per model; focus: one model's layers × heads),
// words, lines, quality in the headers, colours, scaling and shared colour scale. Edits emit
// changed(); showView() sets them silently.
class ViewControls : public QWidget {
    Q_OBJECT
public:
    explicit ViewControls(QWidget* parent = nullptr);
    void showView(const ViewState& view);
    // `base` with the controls' values; each block keeps its own selected query.
    ViewState applied(const ViewState& base) const;
    void setBlockIndex(int i);  // 0 encoder self, 1 decoder self, 2 cross
    enum Layout { Compare, Mean, Focus };
    void setLayoutIndex(int i);
    // The model the focus layout shows when chosen (the clicked column).
    void setFocusColumn(int column) { m_focusColumn = column; }

signals:
    void changed();

protected:
    void changeEvent(QEvent* event) override;  // retranslates on QEvent::LanguageChange

private:
    void createLayout();  // the controls in groups that wrap (FlowLayout)
    void retranslateUi();
    void retranslateLabels();  // the labels before the controls
    void retranslateBoxes();  // retranslateUi's combo box items
    QComboBox *m_block, *m_colormap, *m_scaling, *m_layout, *m_show;
    QSpinBox *m_layer, *m_labels;
    QCheckBox *m_shared, *m_words, *m_lines, *m_quality;
    int m_focusColumn = 0;
};

}  // namespace attnviz::ui
