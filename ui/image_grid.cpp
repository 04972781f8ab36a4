// SPDX-License-Identifier: GPL-3.0-or-later
#include "image_grid.h"

#include <QEvent>
#include <cmath>
#include <QGridLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QTableWidget>
#include <QToolButton>
#include <QVBoxLayout>
#include <QWidgetAction>

#include "image_model.h"
#include "image_panel.h"
#include "render/colormaps.h"

namespace attnviz::ui {
namespace {

// "Sneaker 49.7 %" (render's wording, the class in the installed language); "" without result.
QString predictionText(const ImageColumnResult& r) {
    if (!r.result || r.result->analysis.probabilities.empty()) return {};
    const ImageAnalysis& a = r.result->analysis;
    const size_t k = size_t(a.predicted);
    const QString name = k < r.result->classes.size() ? classLabel(r.result->classes[k])
                                                      : QString::number(a.predicted);
    return name + " " + QString::number(100 * a.probabilities[k], 'f', 1) + " %";
}

// The model's held-out accuracy recorded in its checkpoint when it was trained, as a text
// column's header gives its BLEU ("accuracy 89.0 %"), and what it was measured on, for the
// tooltip; both "" when the checkpoint records none.
std::pair<QString, QString> heldOutAccuracy(const ModelColumn& column) {
    if (!column.model || !column.model->training().heldOut) return {};
    const HeldOutInfo& h = *column.model->training().heldOut;
    if (!h.tokenAccuracy) return {};
    //: An image model's column header: its held-out accuracy, e.g. "accuracy 89.0 %"
    const QString line =
        ImageGrid::tr("accuracy %1 %").arg(100 * *h.tokenAccuracy, 0, 'f', 1);
    const QString source = h.source.empty() ? ImageGrid::tr("images not trained on")
                                            : QString::fromStdString(h.source).toHtmlEscaped();
    //: Tooltip of an image model's column header: %1 the images, %2 how many, %3 the accuracy
    const QString tip = ImageGrid::tr("<b>Held-out accuracy</b>, recorded in the checkpoint when "
                                      "it was trained: %3 % of %2 images right (%1)")
                            .arg(source)
                            .arg(h.sentences ? QString::number(*h.sentences) : QString("?"))
                            .arg(100 * *h.tokenAccuracy, 0, 'f', 1);
    return {line, tip};
}

constexpr int kPanelWidth = 180, kPanelHeight = 212;  // two rows of heads at 1366 × 768
}  // namespace

ImageGrid::ImageGrid(ImageModel* model, QWidget* parent)
    : QWidget(parent), m_model(model), m_layout(new QGridLayout(this)), m_empty(new QLabel) {
    m_layout->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_layout->addWidget(m_empty, 0, 0);
    connect(m_model, &ImageModel::resultsChanged, this, &ImageGrid::rebuild);
    connect(m_model, &ImageModel::requestChanged, this, &ImageGrid::refresh);
    rebuild();
}

void ImageGrid::rebuild() {
    for (Column& c : m_columns) {
        delete c.header;
        delete c.error;
        qDeleteAll(c.panels);
    }
    m_columns.clear();
    const auto& results = m_model->results();
    m_empty->setText(m_model->columns().empty() ? tr("No image models are open.")
                                                : tr("Choose an image above."));
    m_empty->setVisible(results.empty());
    for (size_t c = 0; c < results.size(); ++c) {
        Column col;
        col.header = new QToolButton;
        col.header->setToolButtonStyle(Qt::ToolButtonTextOnly);
        connect(col.header, &QToolButton::clicked, this, [this, c] {
            emit columnClicked(int(c));
            showProbabilities(int(c));
        });
        m_layout->addWidget(col.header, 0, int(c), Qt::AlignHCenter);
        col.error = new QLabel;
        col.error->setWordWrap(true);
        m_layout->addWidget(col.error, 1, int(c));
        m_layout->setColumnMinimumWidth(int(c), panelSize().width());  // before it is filled
        m_columns.push_back(std::move(col));
    }
    refresh();
}

void ImageGrid::refresh() {
    for (size_t c = 0; c < m_columns.size(); ++c) {
        const auto& r = m_model->results()[c];
        const auto [quality, qualityTip] = size_t(c) < m_model->columns().size() && m_quality
                                               ? heldOutAccuracy(m_model->columns()[c])
                                               : std::pair<QString, QString>();
        m_columns[c].header->setText(QString::fromStdString(r.name) +
                                     (quality.isEmpty() ? "" : "\n" + quality) + "\n" +
                                     predictionText(r));
        //: Tooltip of an image model's column header
        const QString click = tr("Click for the probability of every class");
        m_columns[c].header->setToolTip(qualityTip.isEmpty() ? click
                                                             : qualityTip + "<hr>" + click);
        m_columns[c].filled = false;
    }
    m_sharedTop = m_model->request().shared ? m_model->sharedTop() : 0;
    fillVisible();
}

bool ImageGrid::inView(int c) const {
    const QRect seen = visibleRegion().boundingRect();
    if (seen.isEmpty()) return false;
    QRect cell = m_layout->cellRect(0, c);
    if (!cell.isValid() || width() < m_layout->minimumSize().width()) {
        // Not laid out at its full width yet: where its columns of kPanelWidth will go.
        const int w = panelSize().width(), step = w + std::max(0, m_layout->horizontalSpacing());
        cell = QRect(m_layout->contentsMargins().left() + c * step, 0, w, 1);
    }
    return cell.right() >= seen.left() && cell.left() <= seen.right();
}

void ImageGrid::fillVisible() {
    if (!isVisible()) return;  // filled when shown
    for (int c = 0; c < columnCount(); ++c)
        if (!m_columns[size_t(c)].filled && inView(c)) fillColumn(c);
}

void ImageGrid::fill(int c) {
    if (c >= 0 && c < columnCount() && !m_columns[size_t(c)].filled) fillColumn(c);
}

void ImageGrid::moveEvent(QMoveEvent* event) {
    QWidget::moveEvent(event);
    fillVisible();
}

void ImageGrid::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    fillVisible();
}

void ImageGrid::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    fillVisible();
}

void ImageGrid::fillColumn(int c) {
    Column& col = m_columns[size_t(c)];
    col.filled = true;
    render::ImageColumn shown;
    QString error;
    try {
        shown = m_model->selectedColumn(c);
    } catch (const std::exception& e) {
        error = QString::fromStdString(e.what());
    }
    col.error->setText(error);
    col.error->setVisible(!error.isEmpty());
    while (col.panels.size() > shown.panels.size()) {
        delete col.panels.back();
        col.panels.pop_back();
    }
    const ImageRequest& q = m_model->request();
    render::OverlayStyle style;
    style.colormap = q.colormap;
    style.opacity = q.opacity;
    style.scaleMax = m_sharedTop;
    for (size_t i = 0; i < shown.panels.size(); ++i) {
        if (i == col.panels.size()) {
            auto* v = new ImagePanelView;
            v->setFixedSize(panelSize());
            connect(v, &ImagePanelView::patchClicked, this, [this, c](int row, int column) {
                emit columnClicked(c);
                m_model->setQuery(QString("%1,%2").arg(row).arg(column));
            });
            m_layout->addWidget(v, 2 + int(i), c);
            col.panels.push_back(v);
        }
        col.panels[i]->setPanel(std::move(shown.panels[i]), style, q.shared);
    }
}

QTableWidget* ImageGrid::showProbabilities(int c) {
    if (c < 0 || c >= columnCount() || !m_model->results()[size_t(c)].result) return nullptr;
    const render::ImageModelResult& r = *m_model->results()[size_t(c)].result;
    // A menu holds the list: a popup that closes on Esc, on a click outside and when the
    // window goes (a table made a Qt::Popup itself took every input and closed on none).
    auto* popup = new QMenu(this);
    popup->setAttribute(Qt::WA_DeleteOnClose);
    auto* table = new QTableWidget(int(r.analysis.probabilities.size()), 2, popup);
    table->setFocusPolicy(Qt::NoFocus);  // the menu keeps the keys: Esc closes it
    table->setSelectionMode(QAbstractItemView::NoSelection);
    table->setHorizontalHeaderLabels({tr("Class"), tr("Probability")});
    table->verticalHeader()->hide();
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    for (int k = 0; k < table->rowCount(); ++k) {
        const QString name =
            size_t(k) < r.classes.size() ? classLabel(r.classes[size_t(k)]) : QString::number(k);
        auto* item = new QTableWidgetItem(name);
        auto* p = new QTableWidgetItem(
            QString::number(100 * r.analysis.probabilities[size_t(k)], 'f', 1) + " %");
        p->setData(Qt::UserRole, r.analysis.probabilities[size_t(k)]);
        p->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        QFont f = item->font();
        f.setBold(k == r.analysis.predicted);
        item->setFont(f);
        p->setFont(f);
        table->setItem(k, 0, item);
        table->setItem(k, 1, p);
    }
    table->resizeColumnsToContents();
    table->resizeRowsToContents();
    // The menu takes its entry's size hint: the whole list, no scroll bar.
    table->setFixedSize(table->horizontalHeader()->length() + 2 * table->frameWidth(),
                        table->verticalHeader()->length() + table->horizontalHeader()->height() +
                            2 * table->frameWidth());
    table->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    table->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    auto* action = new QWidgetAction(popup);
    action->setDefaultWidget(table);
    popup->addAction(action);
    QToolButton* h = header(c);
    popup->popup(h->mapToGlobal(QPoint(0, h->height())));
    return table;
}

QSize ImageGrid::panelSize() const {
    return QSize(int(std::lround(kPanelWidth * m_zoom)), int(std::lround(kPanelHeight * m_zoom)));
}

void ImageGrid::setZoom(double zoom) {
    if (zoom == m_zoom) return;
    m_zoom = zoom;
    for (size_t c = 0; c < m_columns.size(); ++c) {
        m_layout->setColumnMinimumWidth(int(c), panelSize().width());
        for (ImagePanelView* v : m_columns[c].panels) v->setFixedSize(panelSize());
    }
    fillVisible();  // more or fewer columns in view
}

void ImageGrid::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) {
        m_model->dropSelections();  // the panels' titles in the new language
        rebuild();
    }
    QWidget::changeEvent(event);
}

}  // namespace attnviz::ui
