// SPDX-License-Identifier: GPL-3.0-or-later
#include "image_grid.h"

#include <QCursor>
#include <QEvent>
#include <QGridLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QTableWidget>
#include <QToolButton>
#include <QToolTip>
#include <QVBoxLayout>
#include <QWidgetAction>
#include <cmath>

#include "class_accuracy.h"
#include "core/image_set.h"
#include "image_model.h"
#include "image_panel.h"
#include "render/colormaps.h"
#include "stale_mark.h"

namespace attnviz::ui {
namespace {

// "Sneaker 49.7 %" (render's wording, the class in the installed language); "" without result.
QString predictionText(const ColumnResult& r) {
    if (!r.image || r.image->analysis.probabilities.empty()) return {};
    const ImageAnalysis& a = r.image->analysis;
    const size_t k = size_t(a.predicted);
    const QString name = k < r.image->classes.size() ? classLabel(r.image->classes[k])
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
    const QString line = ImageGrid::tr("accuracy %1 %").arg(100 * *h.tokenAccuracy, 0, 'f', 1);
    const QString source = h.source.empty() ? ImageGrid::tr("images not trained on")
                                            : QString::fromStdString(h.source).toHtmlEscaped();
    //: Tooltip of an image model's column header: %1 the images, %2 how many, %3 the accuracy
    const QString tip = ImageGrid::tr(
                            "<b>Held-out accuracy</b>, recorded in the checkpoint when "
                            "it was trained: %3 % of %2 images right (%1)")
                            .arg(source)
                            .arg(h.sentences ? QString::number(*h.sentences) : QString("?"))
                            .arg(100 * *h.tokenAccuracy, 0, 'f', 1);
    return {line, tip};
}

constexpr int kPanelWidth = 180, kPanelHeight = 212;  // two rows of heads at 1366 × 768
}  // namespace

ImageGrid::ImageGrid(ImageModel* model, QWidget* parent)
    : QWidget(parent),
      m_model(model),
      m_layout(new QGridLayout(this)),
      m_empty(new QLabel),
      m_classAccuracy(new ClassAccuracies(this)) {
    connect(m_classAccuracy, &ClassAccuracies::ready, this, &ImageGrid::classAccuraciesReady);
    m_layout->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_layout->addWidget(m_empty, 0, 0);
    connect(m_model, &ImageModel::resultsChanged, this, &ImageGrid::resultsArrived);
    connect(m_model, &ImageModel::requestChanged, this, &ImageGrid::refresh);
    connect(m_model, &ImageModel::columnChanged, this, &ImageGrid::columnArrived);
    connect(m_model, &ImageModel::staleMarksChanged, this, &ImageGrid::markStale);
    rebuild();
}

// A run finished: its columns were shown as they came when they are the grid's columns;
// else (new columns, or a shared scale, which waits for every column) the grid is made anew.
void ImageGrid::resultsArrived() {
    if (m_model->lastRunInPlace() && size_t(columnCount()) == m_model->results().size()) {
        markStale();
        return;
    }
    rebuild();
}

// Column c's result of the new image came ahead of the others: shown now.
void ImageGrid::columnArrived(int c) {
    if (c < 0 || c >= columnCount() || size_t(c) >= m_model->results().size()) return;
    refreshHeader(c);
    m_columns[size_t(c)].filled = false;
    if (inView(c)) fillColumn(c);
    markStale();
}

// Every column whose result is of an earlier image and has been for a while: dimmed.
void ImageGrid::markStale() {
    for (int c = 0; c < columnCount(); ++c) {
        const bool marked = m_model->staleMarked(c);
        Column& col = m_columns[size_t(c)];
        if (isDimmed(col.header) == marked) continue;
        setDimmed(col.header, marked);
        for (ImagePanelView* v : col.panels) setDimmed(v, marked);
    }
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
        col.header->installEventFilter(this);  // its tooltip asks for the class accuracies
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
    for (int c = 0; c < columnCount(); ++c) {
        refreshHeader(c);
        m_columns[size_t(c)].filled = false;
    }
    m_sharedTop = m_model->request().shared ? m_model->sharedTop() : 0;
    fillVisible();
}

void ImageGrid::refreshHeader(int c) {
    const ColumnResult& r = m_model->results()[size_t(c)];
    const QString quality = size_t(c) < m_model->columns().size() && m_quality
                                ? heldOutAccuracy(m_model->columns()[size_t(c)]).first
                                : QString();
    m_columns[size_t(c)].header->setText(QString::fromStdString(r.name) +
                                         (quality.isEmpty() ? "" : "\n" + quality) + "\n" +
                                         predictionText(r));
    setHeaderTip(c);
}

// The held-out accuracy, each class's once computed (asked for when the tooltip is about to
// be seen: eventFilter), and what a click does.
void ImageGrid::setHeaderTip(int c) {
    QStringList parts;
    if (size_t(c) < m_model->columns().size() && m_quality) {
        const ModelColumn& column = m_model->columns()[size_t(c)];
        const QString recorded = heldOutAccuracy(column).second;
        if (!recorded.isEmpty()) parts << recorded;
        const QString perClass = classAccuracyTip(column);
        if (!perClass.isEmpty()) parts << perClass;
    }
    //: Tooltip of an image model's column header
    parts << tr("Click for the probability of every class");
    m_columns[size_t(c)].header->setToolTip(parts.join("<hr>"));
}

QString ImageGrid::classAccuracyTip(const ModelColumn& column) const {
    const ClassAccuracies::Outcome* o = m_classAccuracy->find(column);
    if (!o) {
        //: Tooltip of an image model's column header while its per-class accuracy is computed
        return m_classAccuracy->computing(column) ? tr("<b>Per class</b>: being computed…")
                                                  : QString();
    }
    if (o->foreign)
        //: Tooltip of an image model's column header
        return tr(
            "<b>Per class</b>: none, the model does not read the images and classes of a "
            "bundled image set (Fashion-MNIST, the clothing photos)");
    if (!o->error.isEmpty())
        //: Tooltip of an image model's column header: %1 why the images could not be read
        return tr("<b>Per class</b>: the held-out images could not be read (%1)")
            .arg(o->error.toHtmlEscaped());
    QString tip =
        o->task == kClothingPhotosTask || o->task == kClothingCutoutTask
            //: Tooltip of an image model's column header, above each class's accuracy: %1 how
            //: many photos (406)
            ? tr("<b>Per class</b>, on the %1 validation clothing photos (never trained on, "
                 "but the checkpoint was chosen on them; test accuracy: docs/results.md):")
                  .arg(QLocale().toString(qulonglong(o->images)))
            //: Tooltip of an image model's column header, above each class's accuracy: %1 how
            //: many images (5,000)
            : tr("<b>Per class</b>, on the last %1 Fashion-MNIST training images (held "
                 "out, never trained on; test accuracy: docs/results.md):")
                  .arg(QLocale().toString(qulonglong(o->images)));
    tip += "<table>";
    const std::vector<std::string>& names = column.model->classNames();
    for (size_t k = 0; k < o->perClass.size() && k < names.size(); ++k)
        tip += QString("<tr><td>%1</td><td align=\"right\">&nbsp;%2 %</td></tr>")
                   .arg(classLabel(names[k]).toHtmlEscaped())
                   .arg(100 * o->perClass[k], 0, 'f', 1);
    return tip + "</table>";
}

bool ImageGrid::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::ToolTip && m_quality)
        for (int c = 0; c < columnCount() && size_t(c) < m_model->columns().size(); ++c)
            if (m_columns[size_t(c)].header == watched &&
                !m_classAccuracy->find(m_model->columns()[size_t(c)])) {
                m_classAccuracy->request(m_model->columns()[size_t(c)]);
                setHeaderTip(c);  // "being computed…", shown now
            }
    return QWidget::eventFilter(watched, event);
}

// One more model's accuracies are known: in its header's tooltip, and in the tooltip shown.
void ImageGrid::classAccuraciesReady() {
    for (int c = 0; c < columnCount(); ++c) {
        QToolButton* header = m_columns[size_t(c)].header;
        const QString before = header->toolTip();
        setHeaderTip(c);
        if (header->toolTip() != before && QToolTip::isVisible() && header->underMouse())
            QToolTip::showText(QCursor::pos(), header->toolTip(), header);
    }
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
    std::vector<int> seen;
    for (int c = 0; c < columnCount(); ++c) {
        if (!inView(c)) continue;
        seen.push_back(c);
        if (!m_columns[size_t(c)].filled) fillColumn(c);
    }
    m_model->setVisibleColumns(std::move(seen));  // analysed first next time
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
                m_model->setQuery(ImageQuery::patch(row, column));
            });
            m_layout->addWidget(v, 2 + int(i), c);
            col.panels.push_back(v);
        }
        col.panels[i]->setPanel(std::move(shown.panels[i]), style, q.shared);
    }
}

QTableWidget* ImageGrid::showProbabilities(int c) {
    if (c < 0 || c >= columnCount() || !m_model->results()[size_t(c)].image) return nullptr;
    const render::ImageModelResult& r = *m_model->results()[size_t(c)].image;
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
