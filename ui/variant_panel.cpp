// SPDX-License-Identifier: GPL-3.0-or-later
#include "variant_panel.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>
#include <cmath>

#include "language.h"

namespace attnviz::ui {

using nlohmann::json;

VariantPanel::VariantPanel(QWidget* parent) : QWidget(parent) {
    auto* v = new QVBoxLayout(this);
    m_info = new QLabel(tr("Click a panel to see its variant."));
    m_info->setWordWrap(true);
    m_info->setTextFormat(Qt::RichText);
    m_info->setTextInteractionFlags(Qt::TextSelectableByMouse);
    v->addWidget(m_info);
    m_options = new QWidget;
    m_form = new QFormLayout(m_options);
    v->addWidget(m_options);
    m_reset = new QPushButton;
    m_reset->setSizePolicy(QSizePolicy::Maximum, QSizePolicy::Fixed);
    connect(m_reset, &QPushButton::clicked, this, &VariantPanel::resetToTrained);
    v->addWidget(m_reset);
    v->addStretch(1);
    m_options->setVisible(false);
    m_reset->setVisible(false);
    retranslateUi();
}

void VariantPanel::retranslateUi() {
    m_reset->setText(tr("&Reset to trained values"));
    m_reset->setToolTip(
        tr("Puts every edited setting of this model back to what its checkpoint holds"));
}

QString VariantPanel::describe(const Model& m) {
    const ModelConfig& c = m.config();
    QString s;
    QStringList explained;                // each variant's one sentence once
    for (BlockKind k : c.blockKinds()) {  // a vit's encoder, a language model's decoder
        const BlockConfig& b = c.block(k);
        const VariantInfo& info = variantInfo(b.variant);
        //: A block of the model: its kind ("enc self"), its attention variant, its head count
        s += tr("<b>%1</b>: %2 (%3 heads)")
                 .arg(kindLabel(k), QString::fromStdString(b.variant))
                 .arg(b.heads) +
             QString("<br><code>%1</code><br>")
                 .arg(QString::fromStdString(info.formula).toHtmlEscaped());
        const QString variant = QString::fromStdString(b.variant);
        if (!explained.contains(variant)) {
            explained << variant;
            s += QString("<i>%1</i><br>").arg(engineText(info.summary).toHtmlEscaped());
        }
    }
    if (!m.config().stem.empty()) {  // an image model's convolutional stem (model-spec 3.10)
        QStringList widths;
        for (int w : m.config().stem) widths << QString::number(w);
        //: An image model's convolutional stem: %1 its channel counts, e.g. "24, 48, 64"
        s += tr("<b>stem</b>: 3 × 3 convolutions of stride 2 to %1 channels, before the patches")
                 .arg(widths.join(", ")) +
             "<br>";
    }
    const ParamCount p = countParameters(m.parameterInfo());
    s += "<br>" + tr("parameters: %1 (%2 trainable)").arg(p.total).arg(p.trainable);
    for (const auto& [role, n] : p.byRole)
        s += QString("<br>&nbsp;&nbsp;%1: %2").arg(QString::fromStdString(role)).arg(n);
    return s;
}

QString VariantPanel::text() const {
    return m_info->text();
}

QWidget* VariantPanel::editor(const std::string& name) const {
    auto it = m_editors.find(name);
    return it == m_editors.end() ? nullptr : it->second;
}

namespace {

// A spin box's bounds for an option's range (open ends become a large finite bound).
double lowest(const OptionSpec& o) {
    if (!std::isfinite(o.min)) return -1e6;
    return o.minExclusive ? o.min + 0.01 : o.min;
}
double highest(const OptionSpec& o) {
    return std::isfinite(o.max) ? o.max : 1e6;
}

QString numbersText(const json& v) {
    QStringList parts;
    for (const auto& x : v) parts << QString::number(x.get<double>());
    return parts.join(", ");
}

}  // namespace

// One editor per editable option of the block, by the option's type.
void VariantPanel::buildEditors(const BlockConfig& b) {
    m_options->hide();  // shown again below, with its new rows at once
    while (m_form->rowCount() > 0) m_form->removeRow(0);
    m_editors.clear();
    for (const OptionSpec& o : blockOptions(b.variant, b.options)) {
        if (!o.live || !b.has(o.name)) continue;
        const json& value = b.options[o.name];
        QWidget* w = nullptr;
        if (o.type == OptionType::Number) {
            auto* spin = new QDoubleSpinBox;
            spin->setRange(lowest(o), highest(o));
            spin->setSingleStep(0.1);
            spin->setDecimals(2);
            spin->setValue(value.get<double>());
            connect(spin, &QDoubleSpinBox::valueChanged, this, &VariantPanel::apply);
            w = spin;
        } else if (o.type == OptionType::Integer) {
            auto* spin = new QSpinBox;
            spin->setRange(int(std::max(lowest(o), -1e6)), int(std::min(highest(o), 1e6)));
            spin->setValue(value.get<int>());
            connect(spin, &QSpinBox::valueChanged, this, &VariantPanel::apply);
            w = spin;
        } else if (o.type == OptionType::Flag) {
            auto* box = new QCheckBox;
            box->setChecked(value.get<bool>());
            connect(box, &QCheckBox::toggled, this, &VariantPanel::apply);
            w = box;
        } else if (o.type == OptionType::Numbers) {
            auto* line = new QLineEdit(numbersText(value));
            connect(line, &QLineEdit::editingFinished, this, &VariantPanel::apply);
            w = line;
        } else {
            continue;  // variant lists change the tensors: not editable here
        }
        w->setToolTip(engineText(o.help) + " (" + QString::fromStdString(o.rule()) + ")");
        m_form->addRow(QString::fromStdString(o.name), w);
        m_editors[o.name] = w;
    }
    m_options->setVisible(!m_editors.empty());
}

void VariantPanel::changeEvent(QEvent* event) {
    // A shown column is described again by its owner (MainWindow::setView → showColumn).
    if (event->type() == QEvent::LanguageChange) {
        retranslateUi();
        if (!m_column) showColumn(nullptr, m_kind);
    }
    QWidget::changeEvent(event);
}

void VariantPanel::showColumn(const ModelColumn* column, BlockKind kind) {
    m_column = column ? std::optional<ModelColumn>(*column) : std::nullopt;
    m_kind = kind;
    if (!column) {
        m_info->setText(tr("Click a panel to see its variant."));
        buildEditors(BlockConfig{});
        updateReset();
        return;
    }
    m_info->setText("<b>" + QString::fromStdString(column->name).toHtmlEscaped() + "</b><br>" +
                    describe(*column->model));
    const ModelConfig& c = column->model->config();
    m_updating = true;
    // An image model's block is its encoder's (arch vit: no decoder), edited as a text one's.
    buildEditors(c.hasBlock(kind) ? c.block(kind) : BlockConfig{});
    m_updating = false;
    updateReset();
}

void VariantPanel::updateReset() {
    bool differs = false;
    if (m_column) {
        std::lock_guard<std::mutex> g(*m_column->lock);
        differs = isModified(*m_column);
    }
    m_reset->setVisible(m_column && !m_column->fileConfig.empty());
    m_reset->setEnabled(differs);
}

void VariantPanel::resetToTrained() {
    if (!m_column || m_column->fileConfig.empty()) return;
    try {
        const ModelConfig trained = ModelConfig::fromJsonText(m_column->fileConfig);
        std::lock_guard<std::mutex> g(*m_column->lock);
        m_column->model->reconfigure(trained);
    } catch (const std::exception& e) {
        emit message(QString::fromUtf8(e.what()));
        return;
    }
    const ModelColumn shown = *m_column;
    showColumn(&shown, m_kind);  // the editors show the checkpoint's values
    emit message(tr("%1: back to its trained values").arg(QString::fromStdString(shown.name)));
    emit modelChanged();
}

bool VariantPanel::editedValue(const OptionSpec& o, QWidget* w, json* value) {
    if (auto* spin = qobject_cast<QDoubleSpinBox*>(w)) {
        *value = spin->value();
    } else if (auto* ispin = qobject_cast<QSpinBox*>(w)) {
        *value = ispin->value();
    } else if (auto* box = qobject_cast<QCheckBox*>(w)) {
        *value = box->isChecked();
    } else if (auto* line = qobject_cast<QLineEdit*>(w)) {
        *value = json::array();
        for (const QString& part : line->text().split(',', Qt::SkipEmptyParts)) {
            bool ok = false;
            const double x = part.trimmed().toDouble(&ok);
            if (!ok) {
                //: %1 an option's name (not translated)
                emit message(tr("%1: numbers separated by commas, e.g. -1, 1")
                                 .arg(QString::fromStdString(o.name)));
                return false;
            }
            value->push_back(x);
        }
    }
    const std::string problem = o.check(*value);
    if (!problem.empty()) emit message(QString::fromStdString(problem));
    return problem.empty();
}

void VariantPanel::apply() {
    if (m_updating || !m_column) return;
    ModelConfig c = m_column->model->config();
    BlockConfig& b = c.block(m_kind);
    for (const OptionSpec& o : blockOptions(b.variant, b.options)) {
        if (QWidget* w = editor(o.name)) {
            json value;
            if (!editedValue(o, w, &value)) return;
            b.options[o.name] = value;
        }
    }
    try {
        std::lock_guard<std::mutex> g(*m_column->lock);
        m_column->model->reconfigure(c);
    } catch (const std::exception& e) {
        emit message(QString::fromUtf8(e.what()));
        return;
    }
    updateReset();
    emit modelChanged();
}

}  // namespace attnviz::ui
