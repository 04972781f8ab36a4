// SPDX-License-Identifier: GPL-3.0-or-later
#include "heatmap_panel.h"

#include <QScopedValueRollback>
#include <QToolTip>
#include <algorithm>
#include <cmath>
#include <memory>

#include "render/colormaps.h"
#include "render/figure.h"
#include "render/scaling.h"

namespace attnviz::ui {
namespace {

// Token labels as the panel keeps them.
QStringList labelsOf(const std::vector<std::string>& tokens) {
    QStringList out;
    out.reserve(qsizetype(tokens.size()));
    for (const auto& t : tokens) out << QString::fromStdString(t);
    return out;
}

QSharedPointer<QCPAxisTickerText> labels(const QStringList& tokens) {
    auto t = QSharedPointer<QCPAxisTickerText>::create();
    for (int i = 0; i < tokens.size(); ++i) t->addTick(i, tokens[i]);
    return t;
}

// The figures' colour map as a gradient: a stop at every level, so that QCustomPlot's
// 256 levels are exactly the colour map's.
QCPColorGradient gradientOf(const QString& name) {
    const render::ColorMap map = render::ColorMap::named(name);
    const auto& levels = map.levels();
    QCPColorGradient g;
    g.clearColorStops();
    const int last = int(levels.size()) - 1;
    for (int i = 0; i <= last; ++i) g.setColorStopAt(i * (1.0 / last), QColor(levels[size_t(i)]));
    g.setColorInterpolation(QCPColorGradient::ciRGB);
    g.setLevelCount(last + 1);
    return g;
}

const Mat kNoWeights;

// QCustomPlot's paint buffer, with memory that outlives a resize. QCPPaintBufferPixmap makes a
// new pixmap at every new size, and a sentence of another length resizes every panel: each
// panel's ~2 MB were freed and allocated again, and clearing the new buffer touched every page
// of it afresh (page faults were a tenth of the UI thread's time per such edit). Here the
// pixels live in `m_store`, grown to the largest size asked for and never shrunk, and the
// image is a view of it at the current size. It grows by a quarter more than asked (the next
// sentence's labels may be a few pixels wider). QCustomPlot::setOpenGl would put its own buffers
// back; the app does not use OpenGL.
class ReusedPaintBuffer : public QCPAbstractPaintBuffer {
public:
    ReusedPaintBuffer(const QSize& size, double ratio) : QCPAbstractPaintBuffer(size, ratio) {
        ReusedPaintBuffer::reallocateBuffer();
    }
    QCPPainter* startPainting() override { return new QCPPainter(&m_image); }
    void draw(QCPPainter* painter) const override {
        if (painter && painter->isActive()) painter->drawImage(0, 0, m_image);
    }
    void clear(const QColor& color) override { m_image.fill(color); }

protected:
    void reallocateBuffer() override {
        setInvalidated();
        const QSize px = (QSizeF(mSize) * mDevicePixelRatio).toSize().expandedTo(QSize(1, 1));
        const size_t words = size_t(px.width()) * size_t(px.height());
        if (m_capacity < words) {
            m_image = QImage();  // the view of the old store goes first
            m_capacity = words + words / 4;
            m_store.reset(new quint32[m_capacity]);
            std::fill_n(m_store.get(), m_capacity, 0u);  // transparent, were it shown unpainted
        }
        // [height, width] premultiplied ARGB over m_store; never detached (not shared).
        m_image = QImage(reinterpret_cast<uchar*>(m_store.get()), px.width(), px.height(),
                         qsizetype(px.width()) * 4, QImage::Format_ARGB32_Premultiplied);
        m_image.setDevicePixelRatio(mDevicePixelRatio);
    }

private:
    std::unique_ptr<quint32[]> m_store;
    size_t m_capacity = 0;  // pixels m_store holds
    QImage m_image;
};

}  // namespace

// The QCustomPlot filling the panel: its own handling of each event first (drag, zoom),
// then the panel's, as when the panel was the plot.
class HeatmapPanel::Plot : public QCustomPlot {
public:
    explicit Plot(HeatmapPanel* panel) : QCustomPlot(panel), m_panel(panel) {
        // QCustomPlot stops every mouse event at itself; a plain wheel is to go on to the
        // grid's scroll area (wheelEvent below). Its mouse handlers accept what they take.
        setAttribute(Qt::WA_NoMousePropagation, false);
        // Our buffer before the first replot makes one (setupPaintBuffers keeps what it finds).
        mPaintBuffers.clear();
        mPaintBuffers.append(QSharedPointer<QCPAbstractPaintBuffer>(
            new ReusedPaintBuffer(viewport().size(), bufferDevicePixelRatio())));
    }
    using QCustomPlot::updateLayout;  // the panel lays the map out (fitLayout)

protected:
    void mouseMoveEvent(QMouseEvent* event) override {
        QCustomPlot::mouseMoveEvent(event);
        m_panel->plotMouseMove(event);
    }
    void mousePressEvent(QMouseEvent* event) override {
        QCustomPlot::mousePressEvent(event);
        m_panel->plotMousePress(event);
    }
    void mouseDoubleClickEvent(QMouseEvent* event) override {
        QCustomPlot::mouseDoubleClickEvent(event);
        m_panel->plotDoubleClick();
    }
    // The map fitted to the new size, then drawn once: before the panel is next painted (or
    // by a replot already queued), not here. QCustomPlot's own resizeEvent draws every layer
    // at once, so a new sentence that resized the grid drew every panel twice, also the
    // panels scrolled out of view (a quarter of the UI thread's time per edit).
    void resizeEvent(QResizeEvent* /*event*/) override {
        setViewport(rect());
        m_panel->plotResized();
        m_panel->replotBeforePainting();
    }
    // A plain wheel scrolls the grid and Ctrl+wheel zooms it (ComparisonGrid); Shift+wheel
    // zooms into the map around the pointer, in every panel at once.
    void wheelEvent(QWheelEvent* event) override {
        if (event->modifiers() & Qt::ShiftModifier) {
            m_panel->plotWheelZoom(event);
            event->accept();
            return;
        }
        event->ignore();
    }
    void paintEvent(QPaintEvent* event) override {
        m_panel->plotPainting();
        QCustomPlot::paintEvent(event);
    }

private:
    HeatmapPanel* m_panel;
};

HeatmapPanel::HeatmapPanel(QWidget* parent) : Panel(parent), m_plot(new Plot(this)) {
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    QCustomPlot* plot = m_plot;
    // One paint buffer instead of QCustomPlot's two: nothing is drawn on the overlay layer
    // alone, and every replot clears each buffer at the plot's size (a 47-token panel is
    // about 750 × 775 px: two buffers were most of the UI thread's time per edit).
    plot->layer("overlay")->setMode(QCPLayer::lmLogical);
    plot->plotLayout()->insertRow(0);
    m_title =
        new QCPTextElement(plot, QString(), QFont(render::figureFontFamily(), 8, QFont::DemiBold));
    plot->plotLayout()->addElement(0, 0, m_title);
    m_map = new QCPColorMap(plot->xAxis, plot->yAxis);
    m_map->setInterpolate(false);
    m_map->setTightBoundary(false);
    m_map->setGradient(gradientOf("viridis"));
    m_map->setDataRange(QCPRange(0, 1));
    plot->yAxis->setRangeReversed(true);  // query 0 at the top
    for (QCPAxis* a : {plot->xAxis, plot->yAxis}) {
        a->grid()->setVisible(false);
        a->setSubTicks(false);
        a->setTickLength(0, 3);
        a->setTickLabelFont(QFont(render::figureFontFamily(), 8));
    }
    plot->xAxis->setTickLabelRotation(90);  // one label per column, never overlapping
    plot->xAxis->setLabelFont(QFont(render::figureFontFamily(), 7, -1, true));
    plot->xAxis->setLabelColor(QColor("#555555"));
    m_highlight = new QCPItemRect(plot);
    m_highlight->setPen(QPen(QColor(render::kQueryOutline), 2));
    m_highlight->setBrush(Qt::NoBrush);
    m_highlight->setVisible(false);
    m_message = new QCPItemText(plot);
    m_message->setClipToAxisRect(false);
    m_message->position->setType(QCPItemPosition::ptViewportRatio);
    m_message->position->setCoords(0.5, 0.5);
    m_message->setPositionAlignment(Qt::AlignCenter);
    m_message->setTextAlignment(Qt::AlignCenter);
    m_message->setColor(QColor("#b00020"));
    m_message->setVisible(false);
    // Drag pans (both axes), Shift+wheel zooms (Plot::wheelEvent), never past the map;
    // double-click resets.
    plot->setInteractions(QCP::iRangeDrag);
    auto emitView = [this] {
        if (m_settingView) return;
        clampToMap();
        emitArea();
    };
    connect(plot->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, emitView);
    connect(plot->yAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, emitView);
    plot->setMouseTracking(true);
    // Whatever replots first (a queued replot, a paint) leaves nothing for the other to draw.
    connect(plot, &QCustomPlot::beforeReplot, this, [this] { m_dirty = false; });
}

QCustomPlot* HeatmapPanel::plot() const {
    return m_plot;
}

void HeatmapPanel::emitArea() {
    const QCPRange k = m_plot->xAxis->range(), q = m_plot->yAxis->range();
    emit areaChanged(TableArea{k.lower, k.upper, q.lower, q.upper});
}

void HeatmapPanel::setArea(const TableArea& a) {
    setView(QCPRange(a.keysFrom, a.keysTo), QCPRange(a.queriesFrom, a.queriesTo));
    clampToMap();  // another panel's map may be larger
}

QSize HeatmapPanel::sizeHint() const {
    // The plot's, without the spare room fitLayout leaves around the map: that room follows
    // the size the panel was given, and would keep a panel once made large from shrinking.
    const QMargins spare = m_plot->plotLayout()->margins();
    return static_cast<const QWidget*>(m_plot)->sizeHint().shrunkBy(spare);
}

void HeatmapPanel::resizeEvent(QResizeEvent* event) {
    Panel::resizeEvent(event);
    m_plot->setGeometry(rect());
}

// Also in a panel whose layout waits for its next paint: its note is a text of the window.
void HeatmapPanel::changeEvent(QEvent* event) {
    Panel::changeEvent(event);
    if (event->type() != QEvent::LanguageChange || !m_weights) return;
    updateTickLabels();
    requestReplot();
}

void HeatmapPanel::setColors(const ViewState& view) {
    setColormap(view.colormap);
    setScaling(view.scaling);
    m_ownBarWanted = !view.shared;  // from the next table on (setTable)
}

void HeatmapPanel::redrawNow() {
    if (m_layoutDue) fitLayout();
    m_plot->replot(QCustomPlot::rpImmediateRefresh);
}

// The table on screen again: the same numbers, labels and scale (a model's whole analysis
// after its first stage while the view shows the encoder; the last arrival, then the final
// results). 47 × 47 values compared cost microseconds; drawing them again, milliseconds.
bool HeatmapPanel::showsAlready(const SelectedTable& t) const {
    return m_weights && t.weights && m_map->visible() && t.scaleMax == m_max &&
           t.diverging == m_diverging && t.weights->rows() == m_weights->rows() &&
           t.weights->cols() == m_weights->cols() && *t.weights == *m_weights &&
           labelsOf(*t.queries) == m_queries && labelsOf(*t.keys) == m_keys;
}

void HeatmapPanel::setTable(const SelectedTable& t) {
    if (hasOwnColorBar() != m_ownBarWanted) setOwnColorBar(m_ownBarWanted);
    if (showsAlready(t)) {  // kept: the new results' table, drawn as it is
        m_weights = t.weights;
        setQuery(m_row < rows() ? m_row : -1);
        return;
    }
    const bool sameShape = rows() == t.weights->rows() && cols() == t.weights->cols();
    m_weights = t.weights;
    m_queries = labelsOf(*t.queries);
    m_keys = labelsOf(*t.keys);
    m_labelWidth = -1;
    m_max = t.scaleMax;
    if (t.diverging != m_diverging) {
        m_diverging = t.diverging;
        const QString map = m_diverging ? QStringLiteral("rdbu") : m_colormap;
        m_map->setGradient(gradientOf(map));
        if (m_scale) m_scale->setGradient(gradientOf(map));
    }
    m_message->setVisible(false);
    m_map->setVisible(true);
    const int nq = rows(), nk = cols();
    // A map of one row or column has no extent in QCPColorMap (its cells are as wide as the
    // range between the first and last centre): such a side gets two half cells at ±¼, the
    // same value, so the one cell spans -½..½ like every other cell.
    const int dk = nk == 1 ? 2 : nk, dq = nq == 1 ? 2 : nq;
    m_map->data()->setSize(dk, dq);
    m_map->data()->setRange(nk == 1 ? QCPRange(-0.25, 0.25) : QCPRange(0, std::max(0, nk - 1)),
                            nq == 1 ? QCPRange(-0.25, 0.25) : QCPRange(0, std::max(0, nq - 1)));
    applyScaling();
    updateTickLabels();
    if (!sameShape) {
        fitLayoutWhenSeen();
        resetView();
        updateGeometry();  // the minimum size follows the token count
    }
    setQuery(m_row < nq ? m_row : -1);
    requestReplot();
}

void HeatmapPanel::setZoom(double zoom) {
    if (zoom == m_zoom) return;
    m_zoom = zoom;
    updateGeometry();
}

void HeatmapPanel::setFill(QSize pixels, bool capped) {
    if (pixels == m_fill && capped == m_fillCap) return;
    m_fill = pixels;
    m_fillCap = capped;
    updateGeometry();
}

void HeatmapPanel::setLabelPoints(int points) {
    if (points == m_labelPoints) return;
    m_labelPoints = points;
    for (QCPAxis* a : {m_plot->xAxis, m_plot->yAxis})
        a->setTickLabelFont(QFont(render::figureFontFamily(), points));
    m_labelWidth = -1;
    m_title->setFont(QFont(render::figureFontFamily(), std::max(8, points), QFont::DemiBold));
    updateGeometry();
    fitLayout();
    requestReplot();
}

// Labels never overlap: when a cell is smaller than a label, only every k-th token is named,
// and the selected and hovered rows always are.
void HeatmapPanel::updateTickLabels() {
    const double labelH = QFontMetricsF(m_plot->xAxis->tickLabelFont()).height() * 0.8;
    auto thin = [&](const QStringList& tokens, double pixels, int keep1, int keep2) {
        const int n = int(tokens.size());
        const double cell = n > 0 && pixels > 0 ? pixels / n : labelH;
        const int k = std::max(1, int(std::ceil(labelH / std::max(1.0, cell))));
        auto t = QSharedPointer<QCPAxisTickerText>::create();
        for (int i = 0; i < n; ++i)
            if (k == 1 || i % k == 0 || i == keep1 || i == keep2) t->addTick(i, tokens[i]);
        return t;
    };
    const QRect r = m_plot->axisRect()->rect();
    m_plot->xAxis->setTicker(thin(m_keys, r.width(), -1, -1));
    m_plot->yAxis->setTicker(thin(m_queries, r.height(), m_row, m_hoverRow));
    // Thinned labels read like another sentence unless they say so.
    const int step = std::max(tickerStep(Qt::Horizontal), tickerStep(Qt::Vertical));
    //: Below a map whose token labels were thinned to fit: %1 tokens per label shown
    const QString note = step > 1 ? tr("labels: 1 in %1 tokens").arg(step) : QString();
    if (m_plot->xAxis->label() != note) m_plot->xAxis->setLabel(note);
}

int HeatmapPanel::labelStep(Qt::Orientation o) const {
    // As the panel will be drawn: laid out first if that was left for its next paint (the
    // layout is the panel's cache, not what it shows: const to its readers).
    if (m_layoutDue) const_cast<HeatmapPanel*>(this)->fitLayout();
    return tickerStep(o);
}

// The same for the tickers as they are now (the layout may be due).
int HeatmapPanel::tickerStep(Qt::Orientation o) const {
    const QCPAxis* a = o == Qt::Horizontal ? m_plot->xAxis : m_plot->yAxis;
    auto t = qSharedPointerDynamicCast<QCPAxisTickerText>(a->ticker());
    const int n = o == Qt::Horizontal ? cols() : rows();
    const int shown = t ? int(t->ticks().size()) : n;
    return shown > 0 ? int(std::ceil(double(n) / shown)) : 1;
}

QSize HeatmapPanel::minimumSizeHint() const {
    // Readable cells, but a long sentence does not make a panel taller than kMaxMinSide
    // (times the zoom): there the labels thin out instead (updateTickLabels).
    const int n = std::max(rows(), cols());
    const int readable = int(std::lround(kMinCell * m_zoom * m_labelPoints / 8.0));
    const int capped = n > 0 ? int(kMaxMinSide * m_zoom) / n : readable;
    int cell = std::max(3, std::min(readable, capped));
    // Around the map: measured at the last layout when there was one (title, labels, colour
    // bar and margins as drawn), else estimated.
    const QSize around = m_around.isValid() ? m_around : estimatedAround();
    const int aroundW = around.width(), aroundH = around.height();
    if (m_fill.height() > 0 && rows() > 0) {  // as tall as the view, cells square
        int fill = int((m_fill.height() - aroundH) * m_zoom) / rows();
        if (m_fill.width() > 0 && cols() > 0)  // and no wider than the column's share
            fill = std::min(fill, int((m_fill.width() - aroundW) * m_zoom) / cols());
        const int filled = std::min(fill, int(kMaxFillCell * m_zoom));
        cell = m_fillCap ? std::max(int(kMinFitCell * m_zoom), filled) : std::max(cell, filled);
    }
    return QSize(aroundW + std::max(4, cols()) * cell, aroundH + std::max(4, rows()) * cell);
}

// The room around the map before the first layout: the widest token label (measured once per
// table, elided past 120 px), the title's lines and the panel's own colour bar.
QSize HeatmapPanel::estimatedAround() const {
    if (m_labelWidth < 0) {
        const QFontMetrics fm(m_plot->xAxis->tickLabelFont());
        m_labelWidth = 0;
        for (const auto& t : m_queries)
            m_labelWidth = std::max(m_labelWidth, fm.horizontalAdvance(t));
        for (const auto& t : m_keys) m_labelWidth = std::max(m_labelWidth, fm.horizontalAdvance(t));
    }
    const int label = std::min(m_labelWidth, 120) + 28;  // elided past that; ticks and padding
    const int lines = int(m_title->text().count('\n')) + 1;
    const int title = lines * QFontMetrics(m_title->font()).lineSpacing() + 8;
    const int bar = hasOwnColorBar() ? 52 : 0;  // its own colour bar and tick labels
    return QSize(label + 16 + bar, title + label + 8);
}

const Mat& HeatmapPanel::matrix() const {
    return m_weights ? *m_weights : kNoWeights;
}

// Cells hold colour-map positions in [0, 1], the figures' scaling (render/scaling.h).
void HeatmapPanel::applyScaling() {
    // Data cells: a side of one holds its cell twice (setTable). No table yet: nothing.
    const int dq = rows() > 0 && cols() > 0 ? m_map->data()->valueSize() : 0;
    const int dk = dq > 0 ? m_map->data()->keySize() : 0;
    for (int i = 0; i < dq; ++i)
        for (int j = 0; j < dk; ++j) {
            const double w = (*m_weights)(std::min(i, rows() - 1), std::min(j, cols() - 1));
            m_map->data()->setCell(j, i,
                                   m_diverging ? render::signedScalePosition(w, m_max, m_scaling)
                                               : render::scalePosition(w, m_max, m_scaling));
        }
    m_map->setDataScaleType(QCPAxis::stLinear);
    m_map->setDataRange(QCPRange(0, 1));
    updateScaleTicks();
}

void HeatmapPanel::setOwnColorBar(bool on) {
    m_ownBarWanted = on;
    if (on && !m_scale) {
        m_scale = new QCPColorScale(m_plot);
        m_plot->plotLayout()->addElement(1, 1, m_scale);
        m_scale->setBarWidth(8);
        m_scale->axis()->setTickLabelFont(QFont(render::figureFontFamily(), 7));
        m_scale->axis()->setSubTicks(false);
        m_scale->setGradient(gradientOf(m_diverging
                                            ? QStringLiteral("rdbu")
                                            : m_colormap));  // before linking: the map takes the
        m_scale->setDataRange(QCPRange(0, 1));               // scale's gradient and range
        m_map->setColorScale(m_scale);
        // The bar as tall as the map.
        auto* group = new QCPMarginGroup(m_plot);
        m_plot->axisRect()->setMarginGroup(QCP::msBottom | QCP::msTop, group);
        m_scale->setMarginGroup(QCP::msBottom | QCP::msTop, group);
        updateScaleTicks();
    }
    if (m_scale) {
        if (m_scale->visible() != on) updateGeometry();
        m_scale->setVisible(on);
        m_plot->plotLayout()->setColumnStretchFactor(1, on ? 0.01 : 0.0001);
        if (!on) m_scale->setMinimumSize(0, 0);
        fitLayout();
        requestReplot();
    }
}

// The bar's axis runs over colour-map positions [0, 1]; its ticks are labelled with the
// weights they stand for under the current scaling.
void HeatmapPanel::updateScaleTicks() {
    if (!m_scale) return;
    auto t = QSharedPointer<QCPAxisTickerText>::create();
    for (int k = 0; k <= 4; ++k)
        t->addTick(k / 4.0,
                   QString::number(m_diverging ? render::signedScaleValue(k / 4.0, m_max, m_scaling)
                                               : render::scaleValue(k / 4.0, m_max, m_scaling),
                                   'g', 2));
    m_scale->axis()->setTicker(t);
}

void HeatmapPanel::setScaling(Scaling s) {
    if (s == m_scaling) return;
    m_scaling = s;
    applyScaling();
    requestReplot();
}

void HeatmapPanel::setTitle(const QString& title) {
    m_title->setText(title);
}
QRect HeatmapPanel::titleRect() const {
    const QFontMetrics fm(m_title->font());
    QRect row = m_title->rect();  // its row of the plot's layout, once laid out
    if (row.isEmpty()) row = QRect(0, 0, m_plot->width(), fm.height() + 10);
    return fm.boundingRect(row, Qt::AlignCenter | Qt::TextWordWrap, m_title->text())
        .translated(m_plot->mapTo(this, QPoint(0, 0)));
}

QString HeatmapPanel::title() const {
    return m_title->text();
}

void HeatmapPanel::setMessage(const QString& message) {
    m_weights.reset();
    m_queries.clear();
    m_keys.clear();
    m_labelWidth = -1;
    m_map->setVisible(false);
    m_highlight->setVisible(false);
    // No token labels of a previous table around the message.
    m_plot->xAxis->setTicker(labels({}));
    m_plot->yAxis->setTicker(labels({}));
    m_plot->xAxis->setLabel(QString());
    m_messageText = message;
    wrapMessage();
    m_message->setVisible(true);
    fitLayout();
    updateGeometry();
    requestReplot();
}

// The message whole, wrapped at words to the panel's width (a QCPItemText does not wrap).
void HeatmapPanel::wrapMessage() {
    const QFontMetrics fm(m_message->font());
    const int width = std::max(60, this->width() - 16);
    QStringList lines;
    QString line;
    for (const QString& word : m_messageText.split(' ', Qt::SkipEmptyParts)) {
        const QString next = line.isEmpty() ? word : line + ' ' + word;
        if (!line.isEmpty() && fm.horizontalAdvance(next) > width) {
            lines << line;
            line = word;
        } else {
            line = next;
        }
    }
    if (!line.isEmpty()) lines << line;
    m_message->setText(lines.join('\n'));
}

void HeatmapPanel::plotResized() {
    if (m_message->visible()) wrapMessage();
    fitLayoutWhenSeen();
}

// A panel scrolled out of view is laid out when it is next painted (or asked how its labels
// are thinned): a new sentence of another length resizes every panel of the grid, and laying
// out all 48 at 47 tokens (the tick labels measured four times each) took 17–27 ms of the UI
// thread's 35–46 ms per edit, for the one or two panels a person sees.
void HeatmapPanel::fitLayoutWhenSeen() {
    if (m_plot->isVisible() && !m_plot->visibleRegion().isEmpty())
        fitLayout();
    else
        m_layoutDue = true;
}

// Lays out the map for the panel's size: labels thinned to the cells, what surrounds the map
// measured for minimumSizeHint, and square cells, the spare width or height left around the
// map (centred across, below it down) rather than stretching the cells.
void HeatmapPanel::fitLayout() {
    m_layoutDue = false;
    m_plot->plotLayout()->setMargins(QMargins());
    if (!m_weights || m_message->visible()) return;
    m_plot->updateLayout();  // the axis rect's new size (no drawing)
    updateTickLabels();
    m_plot->updateLayout();
    const QRect ar = m_plot->axisRect()->rect();
    const QSize around(width() - ar.width(), height() - ar.height());
    if (ar.width() > 0 && ar.height() > 0 && around != m_around) {
        m_around = around;
        updateGeometry();
    }
    if (rows() == 0 || cols() == 0 || ar.width() <= 0 || ar.height() <= 0) return;
    const double cell = std::min(double(ar.width()) / cols(), double(ar.height()) / rows());
    const int spareW = ar.width() - int(std::floor(cell * cols()));
    const int spareH = ar.height() - int(std::floor(cell * rows()));
    if (spareW < 2 && spareH < 2) return;
    m_plot->plotLayout()->setMargins(QMargins(spareW / 2, 0, spareW - spareW / 2, spareH));
    m_plot->updateLayout();
    updateTickLabels();
    m_plot->updateLayout();
}

// Drawn now when on screen; a panel scrolled out of view is drawn when it is next painted,
// so an edit costs only the panels a person can see.
void HeatmapPanel::requestReplot() {
    if (m_plot->isVisible() && !m_plot->visibleRegion().isEmpty()) {
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    } else {
        m_dirty = true;
    }
}

void HeatmapPanel::replotBeforePainting() {
    m_dirty = true;
    m_plot->update();
}

void HeatmapPanel::plotPainting() {
    if (m_layoutDue) {
        fitLayout();
        m_dirty = true;
    }
    if (m_dirty) {
        m_plot->replot(QCustomPlot::rpQueuedRefresh);  // draws the layers now; the plot below
    }
}

void HeatmapPanel::setColormap(const QString& name) {
    if (name == m_colormap) return;
    m_colormap = name;
    if (m_diverging) return;  // differences keep the diverging map
    m_map->setGradient(gradientOf(name));
    if (m_scale) m_scale->setGradient(gradientOf(name));
    requestReplot();
}

void HeatmapPanel::setQuery(int row) {
    const bool relabel = row != m_row;
    m_row = row;
    if (relabel) updateTickLabels();
    const bool on = row >= 0 && row < rows();
    const QPointF topLeft(-0.5, row - 0.5), bottomRight(double(cols()) - 0.5, row + 0.5);
    if (!relabel && m_highlight->visible() == on &&
        (!on || (m_highlight->topLeft->coords() == topLeft &&
                 m_highlight->bottomRight->coords() == bottomRight)))
        return;  // the outline is where it was: nothing to draw again
    m_highlight->setVisible(on);
    if (on) {
        m_highlight->topLeft->setCoords(topLeft);
        m_highlight->bottomRight->setCoords(bottomRight);
    }
    requestReplot();
}

void HeatmapPanel::setView(const QCPRange& keys, const QCPRange& queries) {
    m_settingView = true;
    m_plot->xAxis->setRange(keys);
    m_plot->yAxis->setRange(queries);
    m_settingView = false;
    requestReplot();
}

// Each axis's range within the map's extent (−½ .. n − ½): no wider, and shifted inside.
void HeatmapPanel::clampToMap() {
    auto clamp = [](const QCPRange& r, double extent) {
        const double size = std::min(r.size(), extent);
        const double lo = std::clamp(r.lower, -0.5, -0.5 + extent - size);
        return QCPRange(lo, lo + size);
    };
    if (rows() <= 0 || cols() <= 0) return;
    const QScopedValueRollback guard(m_settingView, true);
    m_plot->xAxis->setRange(clamp(m_plot->xAxis->range(), double(cols())));
    m_plot->yAxis->setRange(clamp(m_plot->yAxis->range(), double(rows())));
}

void HeatmapPanel::plotWheelZoom(QWheelEvent* event) {
    const QPoint delta = event->angleDelta();  // Shift may turn the wheel sideways
    const double steps = (delta.y() != 0 ? delta.y() : delta.x()) / 120.0;
    if (steps == 0) return;
    const double factor = std::pow(0.85, steps);  // < 1: in
    const QPointF p = event->position();
    {
        const QScopedValueRollback guard(m_settingView, true);
        m_plot->xAxis->scaleRange(factor, m_plot->xAxis->pixelToCoord(p.x()));
        m_plot->yAxis->scaleRange(factor, m_plot->yAxis->pixelToCoord(p.y()));
    }
    clampToMap();
    emitArea();
    requestReplot();
}

void HeatmapPanel::resetView() {
    setView(QCPRange(-0.5, double(cols()) - 0.5), QCPRange(-0.5, double(rows()) - 0.5));
}

QString HeatmapPanel::cellText(int i, int j) const {
    if (i < 0 || j < 0 || i >= rows() || j >= cols()) return {};
    const QString unknown = QStringLiteral("\u2047");
    const bool unknownToken =
        m_queries.value(i).endsWith(unknown) || m_keys.value(j).endsWith(unknown);
    //: A cell's tooltip: the panel's title, the query row and its token, the key column and its
    //: token, the weight
    const QString text =
        unknownToken ? tr("%1\nquery %2 \"%3\" → key %4 \"%5\"\nweight %6\n⁇ marks a word this "
                          "model does not know (it sees <unk>)")
                     : tr("%1\nquery %2 \"%3\" → key %4 \"%5\"\nweight %6");
    // Tokens numbered from 1, as everywhere in the app (the data's 0-based index is the CLI's).
    return text.arg(m_fullTitle.isEmpty() ? title() : m_fullTitle)
               .arg(i + 1)
               .arg(m_queries.value(i))
               .arg(j + 1)
               .arg(m_keys.value(j))
               .arg(double((*m_weights)(i, j)), 0, 'f', 4) +
           "\n" + clickHint();
}

// What a click on a row does, which nothing else on screen says (a newcomer found it by
// chance, issue 29).
QString HeatmapPanel::clickHint() {
    //: Last line of a heatmap cell's tooltip and the tooltip of a query label
    return tr("Click: this query row, outlined in every panel");
}

int HeatmapPanel::rowAt(const QPointF& p) const {
    const QRect r = m_plot->axisRect()->rect();
    // On the map, or left of it on the query labels.
    if (p.y() < r.top() || p.y() > r.bottom() || p.x() > r.right()) return -1;
    const int i = int(std::lround(m_plot->yAxis->pixelToCoord(p.y())));
    return i >= 0 && i < rows() ? i : -1;
}

void HeatmapPanel::plotMousePress(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton) {
        const int row = rowAt(event->position());
        if (row >= 0) emit rowClicked(row);
    }
}

void HeatmapPanel::plotDoubleClick() {
    resetView();
    emitArea();
}

void HeatmapPanel::plotMouseMove(QMouseEvent* event) {
    const QPointF p = event->position();
    const int j = int(std::lround(m_plot->xAxis->pixelToCoord(p.x())));
    const int i = int(std::lround(m_plot->yAxis->pixelToCoord(p.y())));
    const bool inside = m_plot->axisRect()->rect().contains(p.toPoint());
    QString text = inside ? cellText(i, j) : QString();
    if (const int row = inside ? -1 : rowAt(p); row >= 0)  // on a query's label
        //: Tooltip of a query label left of a heatmap: %1 its position, %2 its token
        text = tr("query %1 \"%2\"").arg(row + 1).arg(m_queries.value(row)) + "\n" + clickHint();
    const int hover = inside && i >= 0 && i < rows() ? i : -1;
    if (hover != m_hoverRow && labelStep(Qt::Vertical) > 1) {  // name the hovered row
        m_hoverRow = hover;
        updateTickLabels();
        requestReplot();
    }
    if (text.isEmpty()) {
        QToolTip::hideText();
    } else {
        QToolTip::showText(event->globalPosition().toPoint(), text, this);
    }
}

}  // namespace attnviz::ui
