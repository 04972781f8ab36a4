// SPDX-License-Identifier: GPL-3.0-or-later
#include "comparison_grid.h"

#include <QContextMenuEvent>
#include <QCoreApplication>
#include <QMenu>
#include <QResizeEvent>
#include <QScrollArea>
#include <QScrollBar>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace attnviz::ui {

namespace {

// A column's header: rich text wrapped within the column, at a fixed height. QLabel lays its
// document out again for each size hint and for heightForWidth (a third of the UI thread's
// time per new sentence at 47 tokens, most of it for hints the fixed height makes moot); this
// one's hints are the width of its widest unbreakable word, measured when its text is set.
class ColumnHeader : public QLabel {
public:
    explicit ColumnHeader(QWidget* parent) : QLabel(parent) {}
    void setHeader(const QString& html, int minWidth) {
        if (minWidth != m_minWidth) {
            m_minWidth = minWidth;
            updateGeometry();
        }
        setText(html);
    }
    bool hasHeightForWidth() const override { return false; }  // its height is fixed
    QSize minimumSizeHint() const override { return {m_minWidth, minimumHeight()}; }
    QSize sizeHint() const override { return minimumSizeHint(); }  // as wide as its panels

private:
    int m_minWidth = 0;
};

// The heads of the view's block and layer in one result's analysis; 0 when it has none.
int headsOf(const ColumnResult& r, BlockKind kind, int layer) {
    for (const auto& b : r.analysis.blocks)
        if (b.kind == kind && b.layer == layer) return b.heads;
    return 0;
}

// Head k of one trained model is not head k of another: a head-by-head difference between
// models whose blocks have different head counts pairs heads that do not correspond, or has
// none to pair some with (the core then says their tokens differ, which misleads). Said in
// the column's panels instead of drawing; "" when the difference is drawn.
QString differenceMismatch(const ViewState& view, const Results& results, const ColumnResult& r) {
    const int base = view.request().differenceBase;
    if (view.show != TableKind::Difference || view.meanHeads || view.allLayersOf >= 0 || base < 0 ||
        base >= int(results.size()) || !r.error.empty())
        return QString();
    const int mine = headsOf(r, view.kind, view.layer);
    const int theirs = headsOf(results[size_t(base)], view.kind, view.layer);
    if (mine == 0 || theirs == 0 || mine == theirs) return QString();
    //: In a panel of the "− column 1" view: %1 this model, %2 its head count, %3 the first
    //: column's model, %4 its head count
    return QCoreApplication::translate(
               "attnviz::ui::ComparisonGrid",
               "%1 and %3 have different head counts here (%2 and %4): the heads of separately "
               "trained models do not correspond, so there is no head-by-head difference. "
               "Layout › Mean compares their maps.")
        .arg(QString::fromStdString(r.name))
        .arg(mine)
        .arg(QString::fromStdString(results[size_t(base)].name))
        .arg(theirs);
}

}  // namespace

ComparisonGrid::ComparisonGrid(WorkspaceModel* model, QWidget* parent)
    : QWidget(parent), m_model(model), m_layout(new QGridLayout(this)) {
    m_layout->setSpacing(2);
    m_layout->setContentsMargins(4, 4, 4, 4);
    connect(m_model, &WorkspaceModel::resultsChanged, this, &ComparisonGrid::rebuild);
    connect(m_model, &WorkspaceModel::progressed, this, &ComparisonGrid::rebuild);
    connect(m_model, &WorkspaceModel::columnStatesChanged, this, [this] {
        for (int c = 0; c < m_columns; ++c) markColumn(c);
    });
    connect(m_model, &WorkspaceModel::viewChanged, this, &ComparisonGrid::viewChanged);
}

void ComparisonGrid::viewChanged() {
    const ViewState& view = m_model->view();
    const bool colorsOnly = view.kind == m_view.kind && view.layer == m_view.layer &&
                            view.meanHeads == m_view.meanHeads && view.shared == m_view.shared &&
                            view.allLayersOf == m_view.allLayersOf && view.lines == m_view.lines &&
                            view.show == m_view.show && view.mergeWords == m_view.mergeWords &&
                            view.quality == m_view.quality;
    m_view = view;
    if (!colorsOnly) {
        rebuild();
        return;
    }
    forEachPanel([this](Panel* p) {
        p->setColors(m_view);
        p->setQuery(m_view.query);
    });
    applySizes();
}

void ComparisonGrid::applySizes() {
    forEachPanel([this](Panel* p) {
        p->setZoom(m_view.zoom);
        p->setLabelPoints(m_view.labelPoints);
    });
    // One row of heatmaps (the mean layout, or one-head models): as tall as the view. Several
    // rows: each panel as large as its column's share of the width allows, at most as tall
    // as the view (two models' heads are not left small in wide columns).
    const int header = m_headers.empty() ? 0 : m_headers.front()->minimumHeight();  // fixed
    const QMargins mg = m_layout->contentsMargins();
    const int height =
        m_fillSize.height() > 0
            ? m_fillSize.height() - header - m_layout->verticalSpacing() - mg.top() - mg.bottom()
            : 0;
    const int spacing = m_layout->horizontalSpacing() * std::max(0, m_columns - 1);
    const int share =
        m_rows > 1 && m_columns > 0
            ? std::max(1, (m_fillSize.width() - mg.left() - mg.right() - spacing) / m_columns)
            : 0;
    // n rows in view: each row's share of the height, spacing and the headers' row aside.
    int n = m_rows > 1 ? std::min(m_rowsInView, m_rows) : 0;
    if (m_minRowHeight > 0)  // as many as fit at least that tall, at least one
        n = std::min(n, std::max(1, (height + m_layout->verticalSpacing()) /
                                        (m_minRowHeight + m_layout->verticalSpacing())));
    const QSize fill(share, n > 1 ? (height - (n - 1) * m_layout->verticalSpacing()) / n : height);
    forEachPanel([fill, n](Panel* p) { p->setFill(fill, n > 1); });
    fitViewport();
    m_layout->invalidate();
    updateGeometry();
}

void ComparisonGrid::setRowsInView(int n, int minRowHeight) {
    if (n == m_rowsInView && minRowHeight == m_minRowHeight) return;
    m_rowsInView = n;
    m_minRowHeight = minRowHeight;
    applySizes();
}

void ComparisonGrid::watchViewport(QAbstractScrollArea* area) {
    m_area = area;
    area->viewport()->installEventFilter(this);
}

// The room panels may fill: the viewport's, as if both scroll bars were shown (so that a bar
// appearing or not does not change it and start a loop).
bool ComparisonGrid::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::Resize) refillHeader(watched, static_cast<QResizeEvent*>(event));
    if (m_area && watched == m_area->viewport() && event->type() == QEvent::Resize) {
        const QScrollBar* across = m_area->horizontalScrollBar();
        const QScrollBar* down = m_area->verticalScrollBar();
        const QSize fill(m_area->viewport()->width() + (down->isVisible() ? down->width() : 0) -
                             down->sizeHint().width(),
                         m_area->viewport()->height() +
                             (across->isVisible() ? across->height() : 0) -
                             across->sizeHint().height());
        if (fill != m_fillSize) {
            m_fillSize = fill;
            applySizes();
        }
    }
    return QWidget::eventFilter(watched, event);
}

bool ComparisonGrid::event(QEvent* event) {
    const bool done = QWidget::event(event);  // a LayoutRequest has been laid out by now
    const auto type = event->type();
    if (type == QEvent::Move || type == QEvent::Resize || type == QEvent::LayoutRequest) {
        pinHeaders();
        reportVisibleColumns();
    }
    return done;
}

void ComparisonGrid::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() != QEvent::FontChange) return;
    for (QLabel* h : m_headers) h->setFixedHeight(headerHeight());
    rebuild();  // the decoded outputs elided to the new font
}

int ComparisonGrid::headerHeight() const {
    return m_headerLines * fontMetrics().lineSpacing() + 4;
}

void ComparisonGrid::fitHeaderLines(const Selection& s) {
    // Four lines: the model, its variant and two of output; the quality line and the
    // unknown-word count each take one of the output's, and a fifth line when both are shown.
    int lines = 4;
    for (const auto& col : s.columns) {
        const ColumnResult& r = (*m_model->results())[size_t(col.result)];
        if (shownQuality(col) && r.error.empty() && r.analysis.unknownSource > 0) lines = 5;
    }
    if (lines == m_headerLines) return;
    m_headerLines = lines;
    for (QLabel* h : m_headers) h->setFixedHeight(headerHeight());
}

void ComparisonGrid::pinHeaders() {
    // The scroll area moves the grid up by what it has scrolled; the headers' own row is the
    // layout's first, at its top margin.
    const int top = std::max(m_layout->contentsMargins().top(), -y());
    for (QLabel* h : m_headers) {
        h->move(h->x(), top);
        h->raise();
    }
}

void ComparisonGrid::reportVisibleColumns() {
    if (!m_area) return;
    const int from = -x(), to = -x() + m_area->viewport()->width();
    std::vector<int> shown;
    for (int c = 0; c < m_columns && c < int(m_columnResult.size()); ++c) {
        const QLabel* h = m_headers[size_t(c)];
        if (h->x() + h->width() > from && h->x() < to) shown.push_back(m_columnResult[size_t(c)]);
    }
    m_model->setVisibleColumns(std::move(shown));
}

void ComparisonGrid::markColumn(int c) {
    if (c < 0 || c >= m_columns || c >= int(m_columnResult.size())) return;
    //: Over a panel whose map is of an earlier sentence, while the new one is analysed
    const QString text =
        m_model->staleMarked(m_columnResult[size_t(c)]) ? tr("updating…") : QString();
    for (Panel* p : m_panels[size_t(c)]) p->setUpdating(text);
    // The header's decoded output is of the same earlier sentence: greyed with the panels.
    QPalette header = m_headers[size_t(c)]->palette();
    header.setColor(QPalette::WindowText,
                    palette().color(text.isEmpty() ? QPalette::Active : QPalette::Disabled,
                                    QPalette::WindowText));
    m_headers[size_t(c)]->setPalette(header);
}

QString ComparisonGrid::panelMessage(const SelectedColumn& col, const ColumnResult& r) const {
    switch (m_model->columnState(col.result)) {
        case WorkspaceModel::ColumnState::Partial:  // no such block before the decoding
            if (!col.tables.empty() || !r.error.empty()) break;
            //: In a panel: the model decodes the sentence; its decoder maps come next.
            //: %1: the block shown ("cross", "dec self")
            return tr("decoding…\nthe %1 maps follow").arg(kindLabel(m_view.kind));
        case WorkspaceModel::ColumnState::Stale:  // never analysed: the mark says it
            if (r.error.empty() && r.analysis.blocks.empty()) return QString();
            break;
        case WorkspaceModel::ColumnState::Current:
            break;
    }
    return QString::fromStdString(col.error);
}

void ComparisonGrid::wheelEvent(QWheelEvent* event) {
    if (event->modifiers() & Qt::ControlModifier) {
        const int steps = event->angleDelta().y() / 120;
        if (steps != 0) emit zoomRequested(std::pow(1.15, steps));
        event->accept();
        return;
    }
    event->ignore();  // the scroll area scrolls
}

Panel* ComparisonGrid::panelAt(int column, int row) const {
    if (column < 0 || column >= int(m_panels.size())) return nullptr;
    if (row < 0 || row >= int(m_panels[size_t(column)].size())) return nullptr;
    return m_panels[size_t(column)][size_t(row)];
}

void ComparisonGrid::revealPanel(int column, int row) {
    QWidget* p = panelAt(column, row);
    if (auto* s = qobject_cast<QScrollArea*>(m_area); s && p) s->ensureWidgetVisible(p);
}

namespace {

// The scroll position that puts a grid row whose top is `rowTop` just under the headers.
int rowScroll(int rowTop, int header, int spacing) {
    return std::max(0, rowTop - header - spacing);
}

}  // namespace

int ComparisonGrid::topRow() const {
    if (!m_area || m_rows <= 0) return 0;
    // The row whose place under the headers is nearest the scroll position (at the end of the
    // scroll range the last row may sit a few pixels lower than a full step would put it).
    const int at = m_area->verticalScrollBar()->value();
    int top = 0, nearest = -1;
    for (int r = 0; r < m_rows; ++r) {
        int y = -1;  // the row's highest panel (columns may have fewer rows)
        for (int c = 0; c < m_columns; ++c)
            if (const Panel* p = panelAt(c, r)) y = y < 0 ? p->y() : std::min(y, p->y());
        if (y < 0) continue;
        const int d = std::abs(rowScroll(y, headerHeight(), m_layout->verticalSpacing()) - at);
        if (nearest < 0 || d < nearest) nearest = d, top = r;
    }
    return top;
}

void ComparisonGrid::scrollToRow(int row) {
    if (!m_area || m_rows <= 0) return;
    row = std::clamp(row, 0, m_rows - 1);
    int y = -1;
    for (int c = 0; c < m_columns; ++c)
        if (const Panel* p = panelAt(c, row)) y = y < 0 ? p->y() : std::min(y, p->y());
    if (y < 0) return;
    m_area->verticalScrollBar()->setValue(
        rowScroll(y, headerHeight(), m_layout->verticalSpacing()));
}

QLabel* ComparisonGrid::header(int column) const {
    return column >= 0 && column < int(m_headers.size()) ? m_headers[size_t(column)] : nullptr;
}

void ComparisonGrid::syncArea(const Panel* from, const TableArea& area) {
    forEachPanel([from, &area](Panel* p) {
        if (p != from) p->setArea(area);
    });
}

// A header's decoded output is elided to its width: elided again when the width changes (the
// header is filled before the layout has given it its width).
void ComparisonGrid::refillHeader(QObject* watched, const QResizeEvent* event) {
    const auto it = std::find(m_headers.begin(), m_headers.end(), watched);
    if (it == m_headers.end() || event->size().width() == event->oldSize().width() ||
        !m_model->results())
        return;
    const int c = int(it - m_headers.begin());
    const Selection s = m_model->selection();
    if (c < int(s.columns.size()) && s.columns[size_t(c)].result < int(m_model->results()->size()))
        fillHeader(c, s.columns[size_t(c)]);
}

QLabel* ComparisonGrid::makeHeader(int c) {
    auto* label = new ColumnHeader(this);
    label->setAlignment(Qt::AlignCenter);
    label->setWordWrap(true);
    // A fixed height: headers whose text wraps differently must not re-lay out the panels.
    label->setFixedHeight(headerHeight());
    label->setAutoFillBackground(true);  // pinned over the panels (pinHeaders)
    label->installEventFilter(this);     // resized: refillHeader
    label->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(label, &QLabel::customContextMenuRequested, this, [this, c, label](const QPoint& at) {
        if (m_view.allLayersOf >= 0) return;  // columns are layers, not models
        QMenu menu;
        menu.addAction(tr("Move &left"), this, [this, c] { emit moveColumnRequested(c, -1); })
            ->setEnabled(c > 0);
        menu.addAction(tr("Move &right"), this, [this, c] { emit moveColumnRequested(c, +1); })
            ->setEnabled(c + 1 < m_columns);
        menu.addAction(tr("&Remove column"), this, [this, c] { emit removeColumnRequested(c); });
        menu.exec(label->mapToGlobal(at));
    });
    return label;
}

// A panel of the grid's kind in column c: told the view's colours, its clicks and zooms
// passed on.
Panel* ComparisonGrid::makePanelOf(int c) {
    Panel* p = makePanel(m_kind, this);
    p->setColors(m_view);
    connect(p, &Panel::rowClicked, this, [this, c](int row) {
        emit queryClicked(m_view.allLayersOf >= 0 ? m_view.allLayersOf : c, row);
    });
    connect(p, &Panel::areaChanged, this, [this, p](const TableArea& area) { syncArea(p, area); });
    return p;
}

void ComparisonGrid::reshape(int cols, int rows, PanelKind kind) {
    if (cols == m_columns && rows == m_rows && kind == m_kind) return;  // reused
    for (auto* h : m_headers) delete h;
    forEachPanel([](Panel* p) { delete p; });
    m_headers.clear();
    m_panels.assign(static_cast<size_t>(cols), {});
    m_kind = kind;
    for (int c = 0; c < cols; ++c) {
        m_headers.push_back(makeHeader(c));
        m_layout->addWidget(m_headers.back(), 0, c);
        for (int h = 0; h < rows; ++h) {
            m_panels[size_t(c)].push_back(makePanelOf(c));
            m_layout->addWidget(m_panels[size_t(c)].back(), h + 1, c);
        }
    }
    m_columns = cols;
    m_rows = rows;
    // Spare height to the panel rows, none to the headers nor to rows of an earlier shape
    // (a layout keeps its row count after the widgets are gone); spare width shared equally,
    // so that columns of one kind of panel are one width.
    for (int r = 0; r < m_layout->rowCount(); ++r)
        m_layout->setRowStretch(r, r >= 1 && r <= rows ? 1 : 0);
    for (int c = 0; c < m_layout->columnCount(); ++c)
        m_layout->setColumnStretch(c, c < cols ? 1 : 0);
}

void ComparisonGrid::rebuild() {
    QToolTip::hideText();  // it may describe a cell of the previous tables
    // The row of heads in view stays in view: a longer sentence makes taller maps, and the old
    // pixel offset would land in the middle of one.
    const int keepRow = m_area && m_area->verticalScrollBar()->value() > 0 ? topRow() : -1;
    m_view = m_model->view();
    const Selection s = m_model->selection();
    // Nothing to draw (rollout of cross-attention, a difference with one column, no model):
    // say why, where the panels would be.
    if (!m_empty) {
        m_empty = new QLabel(this);
        m_empty->setAlignment(Qt::AlignCenter);
        m_empty->setWordWrap(true);
        m_empty->setObjectName("emptyGridMessage");
    }
    const bool nothing =
        s.columns.empty() && !s.error.empty() && m_model->results() && !m_model->results()->empty();
    m_empty->setText(QString::fromStdString(s.error));
    m_empty->setVisible(nothing);
    if (nothing) m_layout->addWidget(m_empty, 1, 0);
    reshape(int(s.columns.size()), std::max(1, s.rows), panelKindFor(m_view, s));
    m_columnResult.clear();
    for (const auto& col : s.columns) m_columnResult.push_back(col.result);
    m_alignedRows = 0;  // panels side by side line up their tokens
    for (const auto& col : s.columns)
        for (const auto& t : col.tables)
            if (t.weights)
                m_alignedRows =
                    std::max(m_alignedRows, int(std::max(t.weights->rows(), t.weights->cols())));
    fitHeaderLines(s);
    for (int c = 0; c < m_columns; ++c) fillColumn(c, s.columns[size_t(c)], m_rows);
    // New panels in a shown grid: shown now, as QLayout would only a moment later (queued),
    // until when the layout leaves them out and the grid would be fitted to none of them.
    if (isVisible()) {
        for (auto* h : m_headers) h->show();
        forEachPanel([](Panel* p) { p->show(); });
    }
    for (int c = 0; c < m_columns; ++c) markColumn(c);
    applySizes();
    // Panels' minimum sizes follow their token counts: lay out again (the scroll area
    // follows), also when the tables arrived while the grid was hidden.
    m_layout->invalidate();
    updateGeometry();
    fitViewport();
    if (keepRow >= 0 && keepRow < m_rows) {
        m_layout->activate();  // the panels' new places, now
        scrollToRow(keepRow);
    }
}

// As tall and wide as the view, or as the panels need when more: the scroll area only
// grows its widget by itself, so a grid that needed more room before (a longer sentence,
// more rows) would keep panels stretched far past their size, rows pushed out of view.
void ComparisonGrid::fitViewport() {
    if (!m_area) return;
    const QSize want = m_area->viewport()->size().expandedTo(minimumSizeHint());
    if (size() != want) resize(want);
}

QString ComparisonGrid::variantLabel(const SelectedColumn& col) const {
    const QString shown = QString::fromStdString(col.variant);
    const auto& columns = m_model->columns();
    if (col.result < 0 || col.result >= int(columns.size()) || !columns[size_t(col.result)].model)
        return shown;
    const ModelConfig& c = columns[size_t(col.result)].model->config();
    auto name = [this](const BlockConfig& b) {
        const auto trainable = b.options.find("trainable");
        if (b.variant == "random" && trainable != b.options.end() && trainable->is_boolean() &&
            !trainable->get<bool>())
            //: Column header: the random synthesizer whose table is not trained
            return tr("fixed random");
        return QString::fromStdString(b.variant);
    };
    const BlockConfig& own = c.block(c.blockKinds().front());
    const BlockConfig& here = c.block(m_view.kind);
    if (here.variant == own.variant) return name(here);
    //: Column header: the model's variant, then the block shown and its own variant, e.g.
    //: "dense (cross: dot)"
    return tr("%1 (%2: %3)").arg(name(own), kindLabel(m_view.kind), name(here));
}

QString ComparisonGrid::qualityLine(const HeldOutInfo& h) {
    QStringList parts;
    //: Column header: the model's held-out BLEU score, e.g. "BLEU 15.9"
    if (h.bleu) parts << tr("BLEU %1").arg(*h.bleu, 0, 'f', 1);
    //: Column header: the model's held-out token accuracy, e.g. "acc 35.1%"
    else if (h.tokenAccuracy)
        parts << tr("acc %1%").arg(100 * *h.tokenAccuracy, 0, 'f', 1);
    //: Column header: the best head's alignment error rate, e.g. "AER 0.41"
    if (h.bestAer) parts << tr("AER %1").arg(*h.bestAer, 0, 'f', 2);
    return parts.join(" · ");
}

QString ComparisonGrid::qualityTip(const HeldOutInfo& h) {
    if (qualityLine(h).isEmpty()) return QString();
    QStringList lines;
    if (h.bleu)
        lines << tr(
            "BLEU: the greedy translations against the references, 0–100, higher is "
            "better");
    else
        lines << tr(
            "acc: the share of next tokens predicted right (teacher forcing), higher is "
            "better");
    if (h.bestAer)
        lines << tr(
            "AER: alignment error rate of the best head's (or layer's) cross-attention "
            "against reference word alignments, 0–1, lower is better");
    //: Column header tooltip: the examples the metrics were measured on, e.g. "the first 200
    //: usable lines of dev.tsv"
    const QString source = h.source.empty() ? tr("examples not trained on")
                                            : QString::fromStdString(h.source).toHtmlEscaped();
    return tr("<b>Held-out quality</b>, recorded in the checkpoint when it was trained, on %1:")
               .arg(source) +
           "<br>" + lines.join("<br>");
}

std::optional<HeldOutInfo> ComparisonGrid::shownQuality(const SelectedColumn& col) const {
    const auto& columns = m_model->columns();
    if (!m_view.quality || col.result < 0 || col.result >= int(columns.size()) ||
        !columns[size_t(col.result)].model)
        return std::nullopt;
    const auto& heldOut = columns[size_t(col.result)].model->training().heldOut;
    if (!heldOut || qualityLine(*heldOut).isEmpty()) return std::nullopt;
    return heldOut;
}

void ComparisonGrid::fillHeader(int c, const SelectedColumn& col) {
    const ColumnResult& r = (*m_model->results())[size_t(col.result)];
    QString header = "<b>" + QString::fromStdString(col.title).toHtmlEscaped() + "</b>";
    QString tip = m_info.value(col.result);
    const auto quality = shownQuality(col);
    if (quality) {  // the second line, short enough for a narrow column
        header += "<br><small>" + qualityLine(*quality).toHtmlEscaped() + "</small>";
        tip = qualityTip(*quality) + (tip.isEmpty() ? "" : "<hr>" + tip);
    }
    if (!col.variant.empty()) header += "<br><small>" + variantLabel(col) + "</small>";
    //: Column header: the model was never trained (random weights)
    if (r.untrained) header += QString(" <small>%1</small>").arg(tr("(untrained)"));
    const bool unknown = r.error.empty() && r.analysis.unknownSource > 0;
    if (r.error.empty() && r.analysis.decoded) {
        // The whole output in the tooltip; the header elides it to its width.
        const QString out = QString::fromStdString(r.analysis.targetText);
        // <small> text, on one line when the quality or the unknown-word count needs the other.
        QFont small = m_headers[size_t(c)]->font();
        small.setPointSizeF(small.pointSizeF() * 0.83);
        const int lines = std::max(1, 2 - int(unknown) - int(quality.has_value()));
        const QString shown = QFontMetrics(small).elidedText(
            "→ " + out, Qt::ElideRight, lines * std::max(60, m_headers[size_t(c)]->width() - 12));
        header += "<br><small>" + shown.toHtmlEscaped() + "</small>";
        //: Column header tooltip: the model's decoded output sentence
        tip =
            tr("<b>Output</b>: %1").arg(out.toHtmlEscaped()) + (tip.isEmpty() ? "" : "<hr>" + tip);
    }
    if (unknown) {
        // Words the model never saw: said, not hidden (their labels end in ⁇).
        const int words = int(r.analysis.sourceTokens.size()) - 1;  // without <eos>
        header += QString("<br><small><font color='#b00020'>%1</font></small>")
                      .arg(tr("%1 of %2 words unknown").arg(r.analysis.unknownSource).arg(words));
        tip = tr("<b>%1 of %2 words are unknown to this model</b> (it sees &lt;unk&gt;; their "
                 "labels end in ⁇)")
                  .arg(r.analysis.unknownSource)
                  .arg(words) +
              "<br>" + tip;
    }
    // Its widest word is the model's name (bold); the other lines are short words or elided.
    QFont bold = m_headers[size_t(c)]->font();
    bold.setBold(true);
    const QFontMetrics fm(bold);
    int widest = 0;
    for (const QString& word : QString::fromStdString(col.title).split(' ', Qt::SkipEmptyParts))
        widest = std::max(widest, fm.horizontalAdvance(word));
    static_cast<ColumnHeader*>(m_headers[size_t(c)])->setHeader(header, widest + 4);
    m_headers[size_t(c)]->setToolTip(tip);
}

void ComparisonGrid::fillColumn(int c, const SelectedColumn& col, int rows) {
    const ColumnResult& r = (*m_model->results())[size_t(col.result)];
    fillHeader(c, col);
    const QString name = QString::fromStdString(r.name);
    const QString where = QString("%1 L%2").arg(kindLabel(m_view.kind)).arg(col.layer);
    const QString mismatch = differenceMismatch(m_view, *m_model->results(), r);
    for (int h = 0; h < rows; ++h) {
        Panel* p = m_panels[size_t(c)][size_t(h)];
        // The model is named once, in the header; each panel says where it is.
        if (h >= int(col.tables.size()) || !mismatch.isEmpty()) {  // no table to draw: why
            p->setTitle(r.error.empty() ? where : QString());
            p->setToolTipTitle(r.error.empty() ? QString("%1 · %2").arg(name, where) : name);
            // In every panel of the column.
            p->setMessage(mismatch.isEmpty() ? panelMessage(col, r) : mismatch);
            continue;
        }
        SelectedTable t = col.tables[size_t(h)];
        // Pieces that continue a word marked, as in every figure (render/token_labels.h).
        t.queries = render::markPieces(t.queries, r.analysis);
        t.keys = render::markPieces(t.keys, r.analysis);
        const QString what = QString::fromStdString(t.where);
        p->setTitle(what);
        p->setToolTipTitle(QString("%1 · %2").arg(name, what));
        p->setColors(m_view);
        p->setAlignedRows(m_alignedRows);
        p->setTable(t);
        p->setQuery(m_view.query);
    }
}

}  // namespace attnviz::ui
