// SPDX-License-Identifier: GPL-3.0-or-later
#include "variant_panel.h"

#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

#include "core/attention/attention.h"

namespace attnviz::ui {

VariantPanel::VariantPanel(QWidget* parent) : QWidget(parent) {
    auto* v = new QVBoxLayout(this);
    m_info = new QLabel("Click a panel to see its variant.");
    m_info->setWordWrap(true);
    m_info->setTextFormat(Qt::RichText);
    m_info->setTextInteractionFlags(Qt::TextSelectableByMouse);
    v->addWidget(m_info);
    m_gaussian = new QWidget;
    auto* form = new QFormLayout(m_gaussian);
    m_sigma = new QDoubleSpinBox;
    m_sigma->setRange(0.1, 20.0);
    m_sigma->setSingleStep(0.1);
    m_sigma->setDecimals(2);
    m_offsets = new QLineEdit;
    m_offsets->setToolTip("One offset per head, repeated over the heads (e.g. -1, 1)");
    form->addRow("&Sigma", m_sigma);
    form->addRow("&Offsets", m_offsets);
    v->addWidget(m_gaussian);
    v->addStretch(1);
    m_gaussian->setVisible(false);
    connect(m_sigma, &QDoubleSpinBox::valueChanged, this, &VariantPanel::apply);
    connect(m_offsets, &QLineEdit::editingFinished, this, &VariantPanel::apply);
}

QString VariantPanel::describe(const Model& m) {
    const ModelConfig& c = m.config();
    QString s;
    for (BlockKind k : {BlockKind::EncoderSelf, BlockKind::DecoderSelf, BlockKind::Cross}) {
        if (!c.hasEncoder() && k != BlockKind::DecoderSelf) continue;
        const BlockConfig& b = c.block(k);
        const VariantInfo& info = variantInfo(b.variant);
        s += QString("<b>%1</b>: %2 (%3 heads)<br><code>%4</code><br>")
                 .arg(kindLabel(k), QString::fromStdString(b.variant))
                 .arg(b.heads)
                 .arg(QString::fromStdString(info.formula).toHtmlEscaped());
    }
    const ParamCount p = countParameters(m.parameterInfo());
    s += QString("<br>parameters: %1 (%2 trainable)").arg(p.total).arg(p.trainable);
    for (const auto& [role, n] : p.byRole)
        s += QString("<br>&nbsp;&nbsp;%1: %2").arg(QString::fromStdString(role)).arg(n);
    return s;
}

QString VariantPanel::text() const {
    return m_info->text();
}

void VariantPanel::showColumn(const ModelColumn* column, BlockKind kind) {
    m_column = column;
    m_kind = kind;
    if (!column) {
        m_info->setText("Click a panel to see its variant.");
        m_gaussian->setVisible(false);
        return;
    }
    m_info->setText("<b>" + QString::fromStdString(column->name).toHtmlEscaped() + "</b><br>" +
                    describe(*column->model));
    const ModelConfig& c = column->model->config();
    const bool gaussian =
        (c.hasEncoder() || kind == BlockKind::DecoderSelf) && c.block(kind).variant == "gaussian";
    m_gaussian->setVisible(gaussian);
    if (!gaussian) return;
    m_updating = true;
    const BlockConfig& b = c.block(kind);
    m_sigma->setValue(b.sigma);
    QStringList o;
    for (double x : b.offsets) o << QString::number(x);
    m_offsets->setText(o.join(", "));
    m_updating = false;
}

void VariantPanel::apply() {
    if (m_updating || !m_column) return;
    ModelConfig c = m_column->model->config();
    BlockConfig& b = c.block(m_kind);
    std::vector<double> offsets;
    for (const QString& part : m_offsets->text().split(',', Qt::SkipEmptyParts)) {
        bool ok = false;
        const double x = part.trimmed().toDouble(&ok);
        if (!ok) {
            emit message("Offsets must be numbers separated by commas, e.g. -1, 1");
            return;
        }
        offsets.push_back(x);
    }
    if (offsets.empty()) {
        emit message("Give at least one offset");
        return;
    }
    b.sigma = m_sigma->value();
    b.offsets = offsets;
    try {
        std::lock_guard<std::mutex> g(*m_column->lock);
        m_column->model->reconfigure(c);
    } catch (const std::exception& e) {
        emit message(QString::fromUtf8(e.what()));
        return;
    }
    emit modelChanged();
}

}  // namespace attnviz::ui
