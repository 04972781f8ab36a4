// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

#include "core/workspace.h"
#include "view_state.h"

class QLabel;
class QDoubleSpinBox;
class QLineEdit;

namespace attnviz::ui {

// The current column's variant for the block in view: its formula and parameter counts,
// and for hard-coded Gaussian attention live settings (sigma, each head's offset) that
// change the model at once (Model::reconfigure: Gaussians have no parameters).
class VariantPanel : public QWidget {
    Q_OBJECT
public:
    explicit VariantPanel(QWidget* parent = nullptr);

    void showColumn(const ModelColumn* column, BlockKind kind);
    QDoubleSpinBox* sigma() const { return m_sigma; }
    QLineEdit* offsets() const { return m_offsets; }
    QString text() const;

    // Text for a column header's tooltip: variants, formulas, parameter counts.
    static QString describe(const Model& model);

signals:
    // The model was reconfigured: analyses must run again.
    void modelChanged();
    void message(const QString& text);

private:
    void apply();
    const ModelColumn* m_column = nullptr;
    BlockKind m_kind = BlockKind::EncoderSelf;
    QLabel* m_info;
    QWidget* m_gaussian;
    QDoubleSpinBox* m_sigma;
    QLineEdit* m_offsets;
    bool m_updating = false;
};

}  // namespace attnviz::ui
