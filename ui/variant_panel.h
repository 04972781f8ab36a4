// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>
#include <map>
#include <optional>
#include <string>

#include "core/attention/attention.h"
#include "core/workspace.h"
#include "view_state.h"

class QLabel;
class QFormLayout;
class QPushButton;

namespace attnviz::ui {

// The current column's variant for the block in view: its summary, formula and parameter
// counts, and an editor for every option its table marks editable (changes no tensor, e.g.
// a Gaussian's sigma and offsets), applied to the model at once (Model::reconfigure), and
// a button that puts them back to the checkpoint's.
class VariantPanel : public QWidget {
    Q_OBJECT
public:
    explicit VariantPanel(QWidget* parent = nullptr);

    void showColumn(const ModelColumn* column, BlockKind kind);
    // The editor of option `name` of the block in view (QDoubleSpinBox, QSpinBox, QCheckBox
    // or QLineEdit by the option's type); null when it has none.
    QWidget* editor(const std::string& name) const;
    QString text() const;
    // "Reset to trained values": every option of the shown model (all its blocks) back to its
    // checkpoint's, the editors and the analyses following. Enabled only when some value
    // differs (core isModified); a model without a checkpoint has nothing to go back to.
    QPushButton* resetButton() const { return m_reset; }
    void resetToTrained();

    // Text for a column header's tooltip: variants, formulas, parameter counts.
    static QString describe(const Model& model);

signals:
    // The model was reconfigured: analyses must run again.
    void modelChanged();
    void message(const QString& text);

protected:
    void changeEvent(QEvent* event) override;  // retranslates on QEvent::LanguageChange

private:
    void retranslateUi();
    void apply();
    void updateReset();  // m_reset enabled when the shown model differs from its checkpoint
    void buildEditors(const BlockConfig& block);
    // The edited value of one option as JSON; false (and a message) when it is not valid.
    bool editedValue(const OptionSpec& spec, QWidget* editor, nlohmann::json* value);
    // A copy, not a pointer into the window's column list (which reallocates as columns are
    // added): the model and its lock are shared, so editing still reconfigures that model.
    std::optional<ModelColumn> m_column;
    BlockKind m_kind = BlockKind::EncoderSelf;
    QLabel* m_info;
    QWidget* m_options;  // the editors' box
    QFormLayout* m_form;
    QPushButton* m_reset;
    std::map<std::string, QWidget*> m_editors;
    bool m_updating = false;
};

}  // namespace attnviz::ui
