// SPDX-License-Identifier: GPL-3.0-or-later
#include "view_controls.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>

#include "counted_spin_box.h"
#include "flow_layout.h"
#include "language.h"
#include "render/colormaps.h"

namespace attnviz::ui {

ViewControls::ViewControls(QWidget* parent)
    : QWidget(parent),
      m_block(new QComboBox),
      m_colormap(new QComboBox),
      m_scaling(new QComboBox),
      m_layout(new QComboBox),
      m_show(new QComboBox),
      m_layer(new CountedSpinBox),  // layers counted from 1 for people
      m_labels(new QSpinBox),
      m_shared(new QCheckBox),
      m_words(new QCheckBox),
      m_lines(new QCheckBox),
      m_quality(new QCheckBox) {
    // Each item's data is its id; its text is retranslateUi's.
    for (int id : {int(Compare), int(Mean), int(Focus)}) m_layout->addItem(QString(), id);
    for (auto kind :
         {TableKind::Weights, TableKind::Rollout, TableKind::Difference, TableKind::FitResidual})
        m_show->addItem(QString(), int(kind));
    // Each box as wide as its longest choice: the bar wraps on a narrow screen (createLayout),
    // so no choice is cut ("Encoder self-atte" at 1024 pixels).
    for (QComboBox* box : {m_block, m_layout, m_show})
        box->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    for (auto kind : {BlockKind::EncoderSelf, BlockKind::DecoderSelf, BlockKind::Cross})
        m_block->addItem(QString(), int(kind));
    m_layer->setRange(0, 255);
    m_labels->setRange(ViewState::kLabelMin, ViewState::kLabelMax);
    m_labels->setValue(8);
    m_colormap->addItems(render::colormapNames());  // the names are ids too: never translated
    // The scaling's name (render/scaling.h, workspace files) is the item's data.
    for (const char* id : {"linear", "power", "log"}) m_scaling->addItem(QString(), id);
    m_shared->setChecked(true);
    m_quality->setChecked(true);
    createLayout();
    connect(m_block, &QComboBox::currentIndexChanged, this, &ViewControls::changed);
    connect(m_layer, &QSpinBox::valueChanged, this, &ViewControls::changed);
    connect(m_layout, &QComboBox::currentIndexChanged, this, &ViewControls::changed);
    connect(m_show, &QComboBox::currentIndexChanged, this, &ViewControls::changed);
    connect(m_labels, &QSpinBox::valueChanged, this, &ViewControls::changed);
    connect(m_colormap, &QComboBox::currentTextChanged, this, &ViewControls::changed);
    connect(m_scaling, &QComboBox::currentIndexChanged, this, &ViewControls::changed);
    connect(m_shared, &QCheckBox::toggled, this, &ViewControls::changed);
    connect(m_words, &QCheckBox::toggled, this, &ViewControls::changed);
    connect(m_lines, &QCheckBox::toggled, this, &ViewControls::changed);
    connect(m_quality, &QCheckBox::toggled, this, &ViewControls::changed);
    retranslateUi();
}

void ViewControls::createLayout() {
    // Each label stays with its box; on a narrow screen the groups wrap to a second line
    // instead of being squeezed until their texts are cut.
    auto* row = new FlowLayout(this);
    auto group = [row](std::initializer_list<QWidget*> widgets) {
        auto* g = new QWidget;
        auto* h = new QHBoxLayout(g);
        h->setContentsMargins(0, 0, 0, 0);
        for (QWidget* w : widgets) h->addWidget(w);
        row->addWidget(g);
    };
    group({rowLabel(m_block), m_block});
    group({rowLabel(m_layer), m_layer});
    group({rowLabel(m_layout), m_layout, m_show});
    group({m_words, m_lines, m_quality});
    group({rowLabel(m_colormap), m_colormap});
    group({rowLabel(m_scaling), m_scaling, m_shared});
    group({rowLabel(m_labels), m_labels});
}

void ViewControls::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) retranslateUi();
    QWidget::changeEvent(event);
}

void ViewControls::retranslateUi() {
    // Short texts, so that the bar is one line on a 1366-pixel screen (it wraps at 1024).
    //: Check box: one colour scale for every panel
    m_shared->setText(tr("S&hared scale"));
    m_shared->setToolTip(tr("One colour scale for every panel, its colour bar beside the grid, "
                            "so that panels compare; off, each panel tops at its own largest "
                            "weight"));
    m_words->setText(tr("&Words"));
    m_lines->setText(tr("Li&nes"));
    m_lines->setToolTip(
        tr("Draw each head as lines from the query tokens (left) to the key tokens (right), "
           "stronger lines for larger weights; hover a token to see only its lines, click a "
           "query to select it"));
    m_words->setToolTip(
        tr("Merge subword pieces into words: a word's weight as a key is the sum over its pieces, "
           "as a query the mean (Clark et al., 2019). Words start where the tokenizer marks a "
           "word start (▁); Chinese, Japanese and Korean text has no spaces, so there each "
           "character is a word (the panels then say \"CJK by character\")"));
    //: Check box: show each model's held-out quality (BLEU, accuracy, AER) in its column header
    m_quality->setText(tr("&Quality"));
    m_quality->setToolTip(
        tr("Show each model's held-out quality in its column header, as its checkpoint records "
           "it: BLEU for translation models (else token accuracy) and the best head's AER; "
           "nothing for models without these numbers. Hover a header for what they mean"));
    m_layout->setItemText(0, tr("Compare: models × heads"));
    //: Layout combo box item: the mean of each model's heads, one panel per model
    m_layout->setItemText(1, tr("Mean: a panel per model"));
    //: Layout combo box item: every layer and head of one model (the clicked one)
    m_layout->setItemText(2, tr("Focus: a model's layers"));
    m_layout->setToolTip(
        tr("Compare every model's heads; the mean of each model's heads, one large panel per "
           "model; or every layer and head of the clicked model (Ctrl+Shift+L)"));
    retranslateBoxes();
    retranslateLabels();
}

// The What, Block and Scaling boxes' items and the label size's suffix.
void ViewControls::retranslateBoxes() {
    //: Combo box item: what the panels show (the attention weights themselves)
    m_show->setItemText(0, tr("Weights"));
    //: Combo box item: what the panels show (attention rollout, Abnar & Zuidema 2020)
    m_show->setItemText(1, tr("Rollout"));
    //: Combo box item: what the panels show (each model minus the first column)
    m_show->setItemText(2, tr("− column 1"));
    //: Tooltip of the combo box item "− column 1"
    m_show->setItemData(2,
                        tr("Each model's maps minus the first column's, head k minus head k. "
                           "Heads of separately trained models do not correspond: this compares "
                           "maps, not matching heads"),
                        Qt::ToolTipRole);
    //: Combo box item: what the panels show (each head minus its best-fitting Gaussian window)
    m_show->setItemText(3, tr("− Gaussian fit"));
    m_show->setToolTip(
        tr("What the panels hold: the attention weights; attention rollout through the "
           "self-attention layers (Abnar & Zuidema 2020); each model minus the first column "
           "(same block, layer and head; move a column first to compare against it); or each "
           "head minus its best-fitting Gaussian window. Differences use a blue–white–red scale "
           "centred at 0 (docs/analysis.md).\n"
           "− column 1 compares maps, not matching heads: separately trained models' heads do "
           "not correspond (head k of one model is not head k of another), so a head's "
           "difference says how two maps differ, not how one head changed. Layout › Mean "
           "compares each model's mean map; models with different head counts are not "
           "subtracted head by head (their panels say so)."));
    m_block->setItemText(0, tr("Encoder self-attention"));
    m_block->setItemText(1, tr("Decoder self-attention"));
    m_block->setItemText(2, tr("Cross-attention"));
    //: Spin box suffix: points, the unit of the label size
    m_labels->setSuffix(tr(" pt"));
    m_labels->setToolTip(tr("Size of the token labels on screen (figures have their own)"));
    //: Colour scaling of the weights: linear
    m_scaling->setItemText(0, tr("linear"));
    //: Colour scaling of the weights: a power (gamma) curve
    m_scaling->setItemText(1, tr("power"));
    //: Colour scaling of the weights: logarithmic
    m_scaling->setItemText(2, tr("log"));
}

void ViewControls::retranslateLabels() {
    setRowLabel(m_block, tr("&Block"));
    setRowLabel(m_layer, tr("&Layer"));
    setRowLabel(m_layout, tr("La&yout"));
    setRowLabel(m_colormap, tr("&Colours"));
    setRowLabel(m_scaling, tr("Sc&aling"));
    //: View bar: the size of the token labels on screen (points)
    setRowLabel(m_labels, tr("Lab&els"));
}

void ViewControls::showView(const ViewState& v) {
    const QSignalBlocker b1(m_block), b2(m_layer), b3(m_layout), b4(m_colormap), b5(m_scaling),
        b6(m_shared), b7(m_words), b8(m_lines), b9(m_labels), b10(m_show), b11(m_quality);
    m_show->setCurrentIndex(m_show->findData(int(v.show)));
    m_block->setCurrentIndex(m_block->findData(int(v.kind)));
    m_layer->setValue(v.layer);
    m_layout->setCurrentIndex(v.allLayersOf >= 0 ? Focus : v.meanHeads ? Mean : Compare);
    m_colormap->setCurrentText(v.colormap);
    m_scaling->setCurrentIndex(
        m_scaling->findData(QString::fromStdString(render::scalingName(v.scaling))));
    m_shared->setChecked(v.shared);
    m_words->setChecked(v.mergeWords);
    m_lines->setChecked(v.lines);
    m_quality->setChecked(v.quality);
    m_labels->setValue(v.labelPoints);
}

ViewState ViewControls::applied(const ViewState& base) const {
    ViewState v = base;
    v.kind = BlockKind(m_block->currentData().toInt());
    v.layer = m_layer->value();
    switch (m_layout->currentIndex()) {
        case Mean:
            v.meanHeads = true;
            v.allLayersOf = -1;
            break;
        case Focus:
            v.meanHeads = false;
            v.allLayersOf = base.allLayersOf >= 0 ? base.allLayersOf : std::max(0, m_focusColumn);
            break;
        default:
            v.meanHeads = false;
            v.allLayersOf = -1;
    }
    v.colormap = m_colormap->currentText();
    v.scaling = render::scalingFromName(m_scaling->currentData().toString().toStdString());
    v.shared = m_shared->isChecked();
    v.mergeWords = m_words->isChecked();
    v.lines = m_lines->isChecked();
    v.quality = m_quality->isChecked();
    v.show = TableKind(m_show->currentData().toInt());
    v.labelPoints = m_labels->value();
    if (v.mergeWords != base.mergeWords) {
        v.query = -1;  // rows mean other tokens now, in every block
        v.blockQueries = {-1, -1, -1};
    } else if (v.kind != base.kind) {
        // Each block keeps its own selected query: switching away and back restores it.
        v.blockQueries[size_t(int(base.kind))] = base.query;
        v.query = v.blockQueries[size_t(int(v.kind))];
    }
    return v;
}

void ViewControls::setLayoutIndex(int i) {
    m_layout->setCurrentIndex(i);
}

void ViewControls::setBlockIndex(int i) {
    m_block->setCurrentIndex(i);
}

}  // namespace attnviz::ui
