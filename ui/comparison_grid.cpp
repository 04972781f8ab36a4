// SPDX-License-Identifier: GPL-3.0-or-later
#include "comparison_grid.h"

#include "colormaps.h"

namespace attnviz::ui {
namespace {

QStringList toQt(const std::vector<std::string>& tokens) {
    QStringList out;
    for (const auto& t : tokens) out << QString::fromStdString(t);
    return out;
}

const CapturedBlock* findBlock(const Analysis& a, BlockKind kind, int layer) {
    for (const auto& b : a.blocks)
        if (b.kind == kind && b.layer == layer) return &b;
    return nullptr;
}

QString kindLabel(BlockKind k) {
    switch (k) {
        case BlockKind::EncoderSelf:
            return "enc self";
        case BlockKind::DecoderSelf:
            return "dec self";
        case BlockKind::Cross:
            return "cross";
    }
    return {};
}

}  // namespace

ComparisonGrid::ComparisonGrid(QWidget* parent) : QWidget(parent), m_layout(new QGridLayout(this)) {
    m_layout->setSpacing(2);
    m_layout->setContentsMargins(4, 4, 4, 4);
}

void ComparisonGrid::setResults(std::shared_ptr<const Results> results) {
    m_results = std::move(results);
    rebuild();
}

void ComparisonGrid::setBlock(BlockKind kind, int layer) {
    m_kind = kind;
    m_layer = layer;
    rebuild();
}

void ComparisonGrid::setColormap(const QString& name) {
    m_colormap = name;
    for (auto& col : m_panels)
        for (auto* p : col) p->setGradient(colormap(name));
}

void ComparisonGrid::setSharedScale(bool shared) {
    m_shared = shared;
    rebuild();
}

HeatmapPanel* ComparisonGrid::panel(int column, int head) const {
    if (column < 0 || column >= int(m_panels.size())) return nullptr;
    if (head < 0 || head >= int(m_panels[size_t(column)].size())) return nullptr;
    return m_panels[size_t(column)][size_t(head)];
}

void ComparisonGrid::rebuild() {
    if (!m_results) return;
    const Results& res = *m_results;
    int rows = 1;
    for (const auto& r : res)
        if (const CapturedBlock* b =
                r.error.isEmpty() ? findBlock(r.analysis, m_kind, m_layer) : nullptr)
            rows = std::max(rows, b->heads);
    const int cols = int(res.size());
    if (cols != m_columns || rows != m_rows) {  // new shape: new panels
        for (auto* h : m_headers) delete h;
        for (auto& col : m_panels)
            for (auto* p : col) delete p;
        m_headers.clear();
        m_panels.assign(size_t(cols), {});
        for (int c = 0; c < cols; ++c) {
            auto* label = new QLabel(this);
            label->setAlignment(Qt::AlignCenter);
            label->setWordWrap(true);
            m_layout->addWidget(label, 0, c);
            m_headers.push_back(label);
            for (int h = 0; h < rows; ++h) {
                auto* p = new HeatmapPanel(this);
                p->setGradient(colormap(m_colormap));
                m_layout->addWidget(p, h + 1, c);
                m_panels[size_t(c)].push_back(p);
            }
        }
        m_columns = cols;
        m_rows = rows;
        m_layout->setRowStretch(0, 0);
        for (int h = 1; h <= rows; ++h) m_layout->setRowStretch(h, 1);
    }
    float globalMax = 0;
    for (const auto& r : res)
        if (const CapturedBlock* b =
                r.error.isEmpty() ? findBlock(r.analysis, m_kind, m_layer) : nullptr)
            for (const auto& w : b->weights)
                globalMax = std::max(globalMax, w.size() ? w.maxCoeff() : 0.0f);
    for (int c = 0; c < cols; ++c) {
        const ColumnResult& r = res[size_t(c)];
        QString header = "<b>" + r.name.toHtmlEscaped() + "</b>";
        const CapturedBlock* b =
            r.error.isEmpty() ? findBlock(r.analysis, m_kind, m_layer) : nullptr;
        if (b) header += "<br><small>" + QString::fromStdString(b->variant) + "</small>";
        if (r.untrained) header += " <small>(untrained)</small>";
        if (r.error.isEmpty() && r.analysis.decoded) {
            QStringList out = toQt(r.analysis.targetTokens).mid(1);
            if (out.size() > 6) out = out.mid(0, 6) << "…";
            header += "<br><small>→ " + out.join(' ').toHtmlEscaped() + "</small>";
        }
        m_headers[size_t(c)]->setText(header);
        for (int h = 0; h < rows; ++h) {
            HeatmapPanel* p = m_panels[size_t(c)][size_t(h)];
            if (!r.error.isEmpty()) {
                p->setTitle(r.name);
                p->setMessage(h == 0 ? r.error : QString());
                continue;
            }
            if (!b || h >= b->heads) {
                p->setTitle(QString("%1 · %2 L%3").arg(r.name, kindLabel(m_kind)).arg(m_layer));
                p->setMessage(
                    !b && h == 0
                        ? QString("no %1 block\nin layer %2").arg(kindLabel(m_kind)).arg(m_layer)
                        : QString());
                continue;
            }
            const Analysis& a = r.analysis;
            const QStringList src = toQt(a.sourceTokens), tgt = toQt(a.targetTokens);
            const QStringList& q = m_kind == BlockKind::EncoderSelf ? src : tgt;
            const QStringList& k = m_kind == BlockKind::DecoderSelf ? tgt : src;
            p->setTitle(QString("head %1").arg(h));
            p->setToolTipTitle(QString("%1 · %2 L%3 · head %4")
                                   .arg(r.name, kindLabel(m_kind))
                                   .arg(m_layer)
                                   .arg(h));
            const Mat& w = b->weights[size_t(h)];
            p->setMatrix(w, q, k);
            p->setColorRange(0, m_shared ? globalMax : (w.size() ? w.maxCoeff() : 1.0f));
        }
    }
}

}  // namespace attnviz::ui
