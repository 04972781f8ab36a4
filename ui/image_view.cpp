// SPDX-License-Identifier: GPL-3.0-or-later
#include "image_view.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDragEnterEvent>
#include <QEvent>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMimeData>
#include <QScrollArea>
#include <QShortcut>
#include <QSlider>
#include <QSpinBox>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <mutex>

#include "color_bar.h"
#include "core/dump.h"
#include "core/error.h"
#include "core/rollout.h"
#include "counted_spin_box.h"
#include "export_sources.h"
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
      m_layer(new CountedSpinBox),  // layers counted from 1 for people
      m_heads(new QComboBox),
      m_query(new QComboBox),
      m_colormap(new QComboBox),
      m_opacity(new QSlider(Qt::Horizontal)),
      m_shared(new QCheckBox),
      m_colorBar(new ColorBar),
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
    auto* row = new QHBoxLayout;
    row->addWidget(m_scroll, 1);
    row->addWidget(m_colorBar);  // the shared scale, outside the scrolled grid
    v->addLayout(row, 1);
    m_colorBar->hide();
    setAcceptDrops(true);
    auto* paste =
        new QShortcut(QKeySequence::Paste, this, nullptr, nullptr, Qt::WidgetWithChildrenShortcut);
    connect(paste, &QShortcut::activated, this,
            [this] { m_chooser->requestMime(QApplication::clipboard()->mimeData()); });
    connect(m_model, &ImageModel::resultsChanged, this, &ImageView::columnsChanged);
    for (auto changed : {&ImageModel::resultsChanged, &ImageModel::requestChanged})
        connect(m_model, changed, this, &ImageView::updateColorBar);
    connect(m_model, &ImageModel::requestChanged, this, [this] {
        // The combo box holds the query's text ("pooled", "cls", "R,C"): its data only.
        const QString q = QString::fromStdString(imageQueryName(m_model->request().query));
        const QSignalBlocker b(m_query);
        if (m_query->count() > 2) m_query->removeItem(2);
        if (q != "pooled" && q != "cls") {
            m_query->addItem(patchText(q), q);
        }
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
    h->addWidget(m_shared);
    h->addStretch(1);
    connect(m_shared, &QCheckBox::toggled, this, &ImageView::applyControls);
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
    m_shared->setText(tr("&Shared scale"));
    m_shared->setToolTip(
        tr("One colour scale for every panel, from 0 to the largest patch weight of all "
           "(shown beside the panels), so that panels can be compared; off, each panel's "
           "scale tops at its own largest weight"));
    m_heads->setItemText(0, tr("every head"));
    m_heads->setItemText(1, tr("mean of heads"));
    m_heads->setItemText(2, tr("rollout"));
    m_heads->setToolTip(
        tr("Rollout: the attention carried through every layer up to this one "
           "(Abnar & Zuidema 2020)"));
    if (m_query->count() > 2) m_query->setItemText(2, patchText(m_query->itemData(2).toString()));
    m_query->setItemText(0, tr("what the classifier reads"));
    m_query->setItemText(1, tr("class token"));
    m_query->setToolTip(
        tr("Whose attention the overlay shows; click a patch in any panel to "
           "make it the query"));
    // As wide as a clicked patch's text (two-digit rows and columns) in this language, so that
    // it is never cut and the box does not grow, moving its neighbours, on a click.
    QComboBox probe;
    probe.setFont(m_query->font());
    for (int i = 0; i < 2; ++i) probe.addItem(m_query->itemText(i));
    probe.addItem(patchText("10,10"));
    m_query->setMinimumWidth(probe.sizeHint().width());
}

QString ImageView::patchText(const QString& query) {
    // "R,C" from 0 in the data; counted from 1 for people, as layers and heads are.
    const QStringList rc = query.split(',');
    //: The query box: the patch clicked, its grid row and column counted from 1
    return tr("patch (row %1, column %2)")
        .arg(rc.value(0).toInt() + 1)
        .arg(rc.value(1).toInt() + 1);
}

void ImageView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) retranslateUi();
    QWidget::changeEvent(event);
}

void ImageView::applyControls() {
    ImageRequest r = m_model->request();
    r.layer = m_layer->value();
    r.heads = m_heads->currentData().toString();
    r.query = parseImageQuery(m_query->currentData().toString().toStdString());
    r.opacity = m_opacity->value() / 100.0;
    r.colormap = m_colormap->currentData().toString();
    r.shared = m_shared->isChecked();
    m_model->setRequest(r);
}

void ImageView::updateColorBar() {
    const ImageRequest& q = m_model->request();
    const bool shown = q.shared && !m_model->results().empty();
    if (shown) m_colorBar->setScale(q.colormap, render::Scaling::Linear, m_model->sharedTop());
    m_colorBar->setVisible(shown);
}

void ImageView::showHead(int column, int layer, int head) {
    m_layer->setValue(layer);
    m_heads->setCurrentIndex(0);  // every head
    applyControls();
    m_grid->fill(column);  // out of view it has no panels yet
    if (column >= 0 && column < m_grid->columnCount() && head >= 0 &&
        head < int(m_grid->panels(column).size()))
        m_scroll->ensureWidgetVisible(m_grid->panels(column)[size_t(head)]);
}

void ImageView::columnsChanged() {
    int layers = 0;
    for (const auto& r : m_model->results())
        if (r.image) layers = std::max(layers, int(r.image->analysis.blocks.size()));
    if (layers == 0 || (m_layer->maximum() == layers - 1 && m_pendingLayer < 0)) return;
    const QSignalBlocker b(m_layer);
    m_layer->setRange(0, layers - 1);
    // The last layer first, as the CLI; a restored workspace's own.
    m_layer->setValue(m_pendingLayer >= 0 && m_pendingLayer < layers ? m_pendingLayer : layers - 1);
    m_pendingLayer = -1;
    applyControls();
}

SessionImage ImageView::state() const {
    SessionImage s;
    s.testIndex = m_chooser->testIndex();
    s.file = m_chooser->imageFile().toStdString();
    s.pastedPng = m_chooser->pastedPng();  // a pasted image has no file: kept inside
    const InvertMode inv = m_chooser->invert();
    s.invert = inv == InvertMode::Yes ? "yes" : inv == InvertMode::No ? "no" : "auto";
    s.prepare = prepareModeName(m_chooser->prepare());
    const ImageRequest& q = m_model->request();
    s.query = imageQueryName(q.query);
    s.layer = q.layer;
    s.heads = q.heads.toStdString();
    s.opacity = q.opacity;
    s.colormap = q.colormap.toStdString();
    s.sharedScale = q.shared;
    return s;
}

// A workspace's query text read, when every image model's grid has it; else pooled with the
// reason in *problems.
ImageQuery ImageView::checkedQuery(const QString& query, QStringList* problems) const {
    try {
        const ImageQuery q = parseImageQuery(query.toStdString());
        for (const ModelColumn& c : m_model->columns()) {
            if (!c.model->config().isVision()) continue;
            try {
                checkImageQuery(q, patchGrid(c.model->config()));
            } catch (const std::exception& e) {
                *problems << tr("Query %1 does not fit %2 (%3): what the classifier reads is shown")
                                 .arg(query, QString::fromStdString(c.name),
                                      QString::fromUtf8(e.what()));
                return {};
            }
        }
        return q;
    } catch (const std::exception& e) {
        //: %1 the workspace's query text, %2 why it cannot be read
        *problems << tr("Query %1 cannot be read (%2): what the classifier reads is shown")
                         .arg(query, QString::fromUtf8(e.what()));
        return {};
    }
}

QStringList ImageView::restore(const SessionImage& s) {
    QStringList problems;
    const QString colormap = QString::fromStdString(s.colormap);
    int deepest = 0;
    for (const ModelColumn& c : m_model->columns())
        deepest = std::max(deepest, c.model->config().encLayers);
    if (m_colormap->findData(colormap) < 0)
        problems << tr("Unknown colour map \"%1\": %2 is shown")
                        .arg(colormap, m_colormap->currentText());
    if (s.layer >= deepest && deepest > 0)
        //: %1 the workspace's layer, %2 the models' last layer (layers counted from 1)
        problems << tr("Layer %1: the models have layers 1 … %2, the last is shown")
                        .arg(s.layer + 1)
                        .arg(deepest);
    {
        const QSignalBlocker b1(m_layer), b2(m_opacity), b3(m_shared);
        m_heads->setCurrentIndex(std::max(0, m_heads->findData(QString::fromStdString(s.heads))));
        m_opacity->setValue(int(std::lround(100 * s.opacity)));
        m_shared->setChecked(s.sharedScale);
        if (m_colormap->findData(colormap) >= 0)
            m_colormap->setCurrentIndex(m_colormap->findData(colormap));
        const int layer = s.layer >= 0 && s.layer < deepest ? s.layer : std::max(0, deepest - 1);
        m_pendingLayer = layer;
        if (layer <= m_layer->maximum()) m_layer->setValue(layer);
    }
    applyControls();
    m_model->setQuery(checkedQuery(QString::fromStdString(s.query), &problems));
    m_chooser->setInvert(parseInvertMode(s.invert));
    m_chooser->setPrepare(parsePrepareMode(s.prepare));
    if (s.testIndex >= 0)
        m_chooser->chooseTestImageWhenLoaded(s.testIndex);
    else if (!s.file.empty())
        m_chooser->requestImageFile(QString::fromStdString(s.file));
    else if (!s.pastedPng.empty())
        m_chooser->requestPastedPng(s.pastedPng);
    return problems;
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
        f.style.shared = model->request().shared;  // one scale and bar, or each its own
        f.columns = model->selectedColumns();
        return render::imageFigurePainter(f, error);
    };
}

namespace {

// Each analysed model's image dump, an array when there are several (as `attnviz-cli render
// --image --out F.json`).
std::string imageDumps(const ImageModel& model) {
    FloatJson dumps = FloatJson::array();
    const auto& results = model.results();
    for (size_t c = 0; c < results.size() && c < model.columns().size(); ++c) {
        if (!results[c].image) continue;
        const ModelColumn& col = model.columns()[c];
        std::lock_guard<std::mutex> g(*col.lock);
        dumps.push_back(imageAttentionDump(col.path.empty() ? col.name : col.path, *col.model,
                                           results[c].image->analysis, model.source()));
    }
    if (dumps.empty()) throw Error("no model could read the image");
    return (dumps.size() == 1 ? dumps[0] : dumps).dump() + "\n";
}

}  // namespace

bool writeImageDataExport(const ImageModel* model, const QString& path, QString* error) {
    const std::string ext = QFileInfo(path).suffix().toLower().toStdString();
    return writeExportFile(
        path,
        [&] {
            if (model->busy() || model->results().empty())
                throw Error("nothing to export yet (the analysis is still running)");
            if (ext == "json") return imageDumps(*model);
            if (ext != "csv" && ext != "npy")
                throw Error("the data format comes from the extension: .csv, .json or .npy");
            return render::imageDataBytes(model->selectedColumns(), ext);
        },
        error);
}

void ImageView::dragEnterEvent(QDragEnterEvent* event) {
    if (event->mimeData()->hasImage() || event->mimeData()->hasUrls())
        event->acceptProposedAction();
}

void ImageView::dropEvent(QDropEvent* event) {
    if (m_chooser->requestMime(event->mimeData())) event->acceptProposedAction();
}

}  // namespace attnviz::ui
