// SPDX-License-Identifier: GPL-3.0-or-later
#include "comparison_grid.h"

#include <QContextMenuEvent>
#include <QMenu>

#include "colormaps.h"

namespace attnviz::ui {

ComparisonGrid::ComparisonGrid(QWidget* parent) : QWidget(parent), m_layout(new QGridLayout(this)) {
    m_layout->setSpacing(2);
    m_layout->setContentsMargins(4, 4, 4, 4);
}

void ComparisonGrid::setResults(std::shared_ptr<const Results> results) {
    m_results = std::move(results);
    rebuild();
}

void ComparisonGrid::setView(const ViewState& view) {
    const bool colorsOnly = view.kind == m_view.kind && view.layer == m_view.layer &&
                            view.meanHeads == m_view.meanHeads && view.shared == m_view.shared &&
                            view.allLayersOf == m_view.allLayersOf;
    m_view = view;
    if (!colorsOnly) {
        rebuild();
        return;
    }
    for (auto& col : m_panels)
        for (auto* p : col) {
            p->setGradient(colormap(m_view.colormap));
            p->setScaling(m_view.scaling);
            p->setHighlightedRow(m_view.query);
        }
}

HeatmapPanel* ComparisonGrid::panel(int column, int row) const {
    if (column < 0 || column >= int(m_panels.size())) return nullptr;
    if (row < 0 || row >= int(m_panels[size_t(column)].size())) return nullptr;
    return m_panels[size_t(column)][size_t(row)];
}

QLabel* ComparisonGrid::header(int column) const {
    return column >= 0 && column < int(m_headers.size()) ? m_headers[size_t(column)] : nullptr;
}

void ComparisonGrid::syncView(HeatmapPanel* from, const QCPRange& keys, const QCPRange& queries) {
    for (auto& col : m_panels)
        for (auto* p : col)
            if (p != from) p->setView(keys, queries);
}

void ComparisonGrid::rebuild() {
    if (!m_results) return;
    const Results& res = *m_results;
    const ViewState& v = m_view;
    const std::vector<std::pair<int, int>> spec = columnPlan(res, v);  // (model, layer)
    auto blockOf = [&](size_t c) -> const CapturedBlock* {
        const ColumnResult& r = res[size_t(spec[c].first)];
        return r.error.isEmpty() ? findBlock(r.analysis, v.kind, spec[c].second) : nullptr;
    };
    int rows = 1;
    if (!v.meanHeads)
        for (size_t c = 0; c < spec.size(); ++c)
            if (const CapturedBlock* b = blockOf(c)) rows = std::max(rows, b->heads);
    const int cols = int(spec.size());
    if (cols != m_columns || rows != m_rows) {  // new shape: new panels
        for (auto* h : m_headers) delete h;
        for (auto& col : m_panels)
            for (auto* p : col) delete p;
        m_headers.clear();
        m_panels.assign(static_cast<size_t>(cols), {});
        for (int c = 0; c < cols; ++c) {
            auto* label = new QLabel(this);
            label->setAlignment(Qt::AlignCenter);
            label->setWordWrap(true);
            // A fixed height: headers whose text wraps differently must not re-lay out the panels.
            label->setFixedHeight(4 * label->fontMetrics().lineSpacing() + 4);
            label->setContextMenuPolicy(Qt::CustomContextMenu);
            connect(label, &QLabel::customContextMenuRequested, this,
                    [this, c, label](const QPoint& at) {
                        if (m_view.allLayersOf >= 0) return;  // columns are layers, not models
                        QMenu menu;
                        menu.addAction("Move &left", this,
                                       [this, c] { emit moveColumnRequested(c, -1); })
                            ->setEnabled(c > 0);
                        menu.addAction("Move &right", this,
                                       [this, c] { emit moveColumnRequested(c, +1); })
                            ->setEnabled(c + 1 < m_columns);
                        menu.addAction("&Remove column", this,
                                       [this, c] { emit removeColumnRequested(c); });
                        menu.exec(label->mapToGlobal(at));
                    });
            m_layout->addWidget(label, 0, c);
            m_headers.push_back(label);
            for (int h = 0; h < rows; ++h) {
                auto* p = new HeatmapPanel(this);
                p->setGradient(colormap(v.colormap));
                p->setScaling(v.scaling);
                connect(p, &HeatmapPanel::rowClicked, this, [this, c](int row) {
                    emit queryClicked(m_view.allLayersOf >= 0 ? m_view.allLayersOf : c, row);
                });
                connect(p, &HeatmapPanel::viewChanged, this,
                        [this, p](const QCPRange& k, const QCPRange& q) { syncView(p, k, q); });
                m_layout->addWidget(p, h + 1, c);
                m_panels[size_t(c)].push_back(p);
            }
        }
        m_columns = cols;
        m_rows = rows;
        m_layout->setRowStretch(0, 0);
        for (int h = 1; h <= rows; ++h) m_layout->setRowStretch(h, 1);
    }
    // Matrices shown, [column][row], and the largest weight for a shared scale.
    std::vector<std::vector<Mat>> shown(static_cast<size_t>(cols));
    Scalar globalMax = 0;
    for (size_t c = 0; c < spec.size(); ++c) {
        const CapturedBlock* b = blockOf(c);
        if (!b) continue;
        if (v.meanHeads) {
            shown[c].push_back(headMean(*b));
        } else {
            shown[c] = b->weights;
        }
        for (const auto& w : shown[c])
            globalMax = std::max(globalMax, w.size() ? w.maxCoeff() : Scalar(0));
    }
    for (int c = 0; c < cols; ++c) {
        const ColumnResult& r = res[size_t(spec[size_t(c)].first)];
        const int layer = spec[size_t(c)].second;
        const CapturedBlock* b = blockOf(size_t(c));
        QString header = "<b>" + r.name.toHtmlEscaped() + "</b>";
        if (v.allLayersOf >= 0) header += QString(" <b>· layer %1</b>").arg(layer);
        if (b) header += "<br><small>" + QString::fromStdString(b->variant) + "</small>";
        if (r.untrained) header += " <small>(untrained)</small>";
        if (r.error.isEmpty() && r.analysis.decoded) {
            QStringList out = toQt(r.analysis.targetTokens).mid(1);
            if (out.size() > 6) out = out.mid(0, 6) << "…";
            header += "<br><small>→ " + out.join(' ').toHtmlEscaped() + "</small>";
        }
        m_headers[size_t(c)]->setText(header);
        m_headers[size_t(c)]->setToolTip(m_info.value(spec[size_t(c)].first));
        const QString where = QString("%1 L%2").arg(kindLabel(v.kind)).arg(layer);
        for (int h = 0; h < rows; ++h) {
            HeatmapPanel* p = m_panels[size_t(c)][size_t(h)];
            if (!r.error.isEmpty()) {
                p->setTitle(r.name);
                p->setMessage(h == 0 ? r.error : QString());
                continue;
            }
            if (!b || h >= int(shown[size_t(c)].size())) {
                p->setTitle(QString("%1\n%2").arg(r.name, where));
                p->setMessage(
                    !b && h == 0
                        ? QString("no %1 block\nin layer %2").arg(kindLabel(v.kind)).arg(layer)
                        : QString());
                continue;
            }
            const QString head =
                v.meanHeads ? QString("mean of %1 heads").arg(b->heads) : QString("head %1").arg(h);
            p->setTitle(QString("%1\n%2 · %3").arg(r.name, where, head));
            p->setToolTipTitle(QString("%1 · %2 · %3").arg(r.name, where, head));
            const Mat& w = shown[size_t(c)][size_t(h)];
            p->setMatrix(w, queryTokens(r.analysis, v.kind), keyTokens(r.analysis, v.kind));
            p->setColorRange(0, v.shared ? globalMax : (w.size() ? w.maxCoeff() : Scalar(1)));
            p->setHighlightedRow(v.query);
        }
    }
}

}  // namespace attnviz::ui
