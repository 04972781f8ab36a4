// SPDX-License-Identifier: GPL-3.0-or-later
#include "image_view.h"

#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDragEnterEvent>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QMimeData>
#include <QScrollArea>
#include <QShortcut>
#include <QSlider>
#include <QSpinBox>
#include <QVBoxLayout>
#include <algorithm>

#include "image_chooser.h"
#include "image_grid.h"
#include "image_model.h"
#include "image_panel.h"
#include "render/colormaps.h"

namespace attnviz::ui {

ImageView::ImageView(QWidget* parent)
    : QWidget(parent),
      m_model(new ImageModel(this)),
      m_chooser(new ImageChooser(m_model)),
      m_grid(new ImageGrid(m_model)),
      m_layer(new QSpinBox),
      m_heads(new QComboBox),
      m_query(new QComboBox),
      m_colormap(new QComboBox),
      m_opacity(new QSlider(Qt::Horizontal)),
      m_layerLabel(new QLabel),
      m_headsLabel(new QLabel),
      m_opacityLabel(new QLabel),
      m_colormapLabel(new QLabel),
      m_queryLabel(new QLabel) {
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(0, 0, 0, 0);
    v->addWidget(m_chooser);
    v->addWidget(createControls());
    m_scroll = new QScrollArea;
    m_scroll->setWidgetResizable(true);
    m_scroll->setWidget(m_grid);
    v->addWidget(m_scroll, 1);
    setAcceptDrops(true);
    auto* paste =
        new QShortcut(QKeySequence::Paste, this, nullptr, nullptr, Qt::WidgetWithChildrenShortcut);
    connect(paste, &QShortcut::activated, this,
            [this] { m_chooser->openMime(QApplication::clipboard()->mimeData()); });
    connect(m_model, &ImageModel::resultsChanged, this, &ImageView::columnsChanged);
    connect(m_model, &ImageModel::requestChanged, this, [this] {
        const QString q = m_model->request().query;
        const QSignalBlocker b(m_query);
        if (m_query->count() > 2) m_query->removeItem(2);
        if (q != "pooled" && q != "cls") m_query->addItem(tr("patch %1").arg(q), q);
        m_query->setCurrentIndex(std::max(0, m_query->findData(q)));
    });
    retranslateUi();
}

QWidget* ImageView::createControls() {
    auto* bar = new QWidget;
    auto* h = new QHBoxLayout(bar);
    h->setContentsMargins(0, 0, 0, 0);
    for (const char* id : {"all", "mean", "rollout"}) m_heads->addItem(QString(), QString(id));
    m_query->addItem(QString(), QString("pooled"));
    m_query->addItem(QString(), QString("cls"));
    for (const QString& name : render::colormapNames()) m_colormap->addItem(name, name);
    m_opacity->setRange(0, 100);
    m_opacity->setValue(60);
    m_opacity->setFixedWidth(120);
    m_layer->setRange(0, 0);
    const std::pair<QLabel*, QWidget*> items[] = {{m_layerLabel, m_layer},
                                                  {m_headsLabel, m_heads},
                                                  {m_queryLabel, m_query},
                                                  {m_opacityLabel, m_opacity},
                                                  {m_colormapLabel, m_colormap}};
    for (const auto& [label, field] : items) {
        label->setBuddy(field);
        h->addWidget(label);
        h->addWidget(field);
    }
    h->addStretch(1);
    connect(m_layer, &QSpinBox::valueChanged, this, &ImageView::applyControls);
    connect(m_opacity, &QSlider::valueChanged, this, &ImageView::applyControls);
    for (QComboBox* box : {m_heads, m_query, m_colormap})
        connect(box, &QComboBox::activated, this, &ImageView::applyControls);
    return bar;
}

void ImageView::retranslateUi() {
    m_layerLabel->setText(tr("&Layer:"));
    m_headsLabel->setText(tr("&Heads:"));
    m_queryLabel->setText(tr("&Query:"));
    m_opacityLabel->setText(tr("&Opacity:"));
    m_colormapLabel->setText(tr("Colour &map:"));
    m_heads->setItemText(0, tr("every head"));
    m_heads->setItemText(1, tr("mean of heads"));
    m_heads->setItemText(2, tr("rollout"));
    m_heads->setToolTip(
        tr("Rollout: the attention carried through every layer up to this one "
           "(Abnar & Zuidema 2020)"));
    m_query->setItemText(0, tr("what the classifier reads"));
    m_query->setItemText(1, tr("class token"));
    m_query->setToolTip(
        tr("Whose attention the overlay shows; click a patch in any panel to "
           "make it the query"));
}

void ImageView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) retranslateUi();
    QWidget::changeEvent(event);
}

void ImageView::applyControls() {
    ImageRequest r = m_model->request();
    r.layer = m_layer->value();
    r.heads = m_heads->currentData().toString();
    r.query = m_query->currentData().toString();
    r.opacity = m_opacity->value() / 100.0;
    r.colormap = m_colormap->currentData().toString();
    m_model->setRequest(r);
}

void ImageView::showHead(int column, int layer, int head) {
    m_layer->setValue(layer);
    m_heads->setCurrentIndex(0);  // every head
    applyControls();
    if (column >= 0 && column < m_grid->columnCount() && head >= 0 &&
        head < int(m_grid->panels(column).size()))
        m_scroll->ensureWidgetVisible(m_grid->panels(column)[size_t(head)]);
}

void ImageView::columnsChanged() {
    int layers = 0;
    for (const auto& r : m_model->results())
        if (r.result) layers = std::max(layers, int(r.result->analysis.blocks.size()));
    if (layers == 0 || m_layer->maximum() == layers - 1) return;
    const QSignalBlocker b(m_layer);
    m_layer->setRange(0, layers - 1);
    m_layer->setValue(layers - 1);  // the last layer first, as the CLI
    applyControls();
}

ExportDialog::Source imageExportSource(const ImageModel* model) {
    return [model](ExportDialog::What what, const render::FigureStyle& style, int,
                   QString* error) -> render::FigurePainter {
        if (what == ExportDialog::Profile || what == ExportDialog::Loss) {
            if (error) *error = ImageView::tr("Image models export their panels only.");
            return nullptr;
        }
        render::ImageFigure f{{}, style, model->request().opacity};
        f.style.colormap = model->request().colormap;
        f.style.shared = false;  // each panel on its own scale, as on screen
        for (int c = 0; c < int(model->results().size()); ++c) {
            try {
                f.columns.push_back(model->selectedColumn(c));
            } catch (const std::exception&) {  // a model that cannot: its panel says why
            }
        }
        return render::imageFigurePainter(f, error);
    };
}

void ImageView::dragEnterEvent(QDragEnterEvent* event) {
    if (event->mimeData()->hasImage() || event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void ImageView::dropEvent(QDropEvent* event) {
    if (m_chooser->openMime(event->mimeData())) event->acceptProposedAction();
}

}  // namespace attnviz::ui
