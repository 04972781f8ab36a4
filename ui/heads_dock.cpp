// SPDX-License-Identifier: GPL-3.0-or-later
#include "heads_dock.h"

#include <QAbstractTableModel>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <cmath>
#include <limits>

#include "core/head_stats.h"
#include "view_state.h"

namespace attnviz::ui {

// The rows of the Heads table, one per head, in the results' order (column, then block as
// captured, then head).
class HeadsTableModel : public QAbstractTableModel {
public:
    struct Row {
        int column = 0;  // index into the results
        QString model;
        BlockKind kind = BlockKind::EncoderSelf;
        int layer = 0;
        int head = 0;
        QString variant;
        HeadStats stats;
        bool fitAtBound = false;  // |μ| at its bound N: a sink at the row's start or end
    };

    using QAbstractTableModel::QAbstractTableModel;

    void setRows(std::vector<Row> rows) {
        beginResetModel();
        m_rows = std::move(rows);
        endResetModel();
    }
    const Row& row(int r) const { return m_rows[size_t(r)]; }

    int rowCount(const QModelIndex& parent = {}) const override {
        return parent.isValid() ? 0 : int(m_rows.size());
    }
    int columnCount(const QModelIndex& parent = {}) const override {
        return parent.isValid() ? 0 : HeadsDock::R2 + 1;
    }
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    std::vector<Row> m_rows;
};

namespace {

using Row = HeadsTableModel::Row;

// The statistic in column `c` (Entropy … R2).
double statistic(const HeadStats& s, int c) {
    switch (c) {
        case HeadsDock::Entropy:
            return s.entropy;
        case HeadsDock::Confidence:
            return s.confidence;
        case HeadsDock::Distance:
            return s.distance;
        case HeadsDock::Mu:
            return s.fit.offset;
        case HeadsDock::Sigma:
            return s.fit.sigma;
        default:
            return s.fit.r2;
    }
}

QString formatted(double x, int c) {
    if (!std::isfinite(x)) return QStringLiteral("–");
    const bool positions = c == HeadsDock::Distance || c == HeadsDock::Mu || c == HeadsDock::Sigma;
    return QString::number(x, 'f', positions ? 2 : 3);
}

QString plural(qsizetype n, const QString& word) {
    return QString("%1 %2%3").arg(n).arg(word, n == 1 ? "" : "s");
}

// What a worker hands back for request `request`.
struct HeadsComputation {
    int request = 0;
    std::vector<Row> rows;
    int models = 0;        // columns with an analysis
    QStringList failures;  // "name: reason" of the columns without one
    QString error;         // the computation itself failed
};

// Every head of every analysed column, with its statistics over this one sentence, as
// `attnviz-cli analyze` computes them (cli/analyze.cpp): per captured block, head h's weights
// [Nq, Nk] (a single sentence: weights[h]), causal in decoder self-attention. Returns early,
// incomplete, once `latest` has moved past `request` (no one will read the result).
HeadsComputation computeHeads(const Results& results, int request, const std::atomic<int>& latest) {
    HeadsComputation out;
    out.request = request;
    try {
        for (size_t c = 0; c < results.size(); ++c) {
            const ColumnResult& r = results[c];
            if (!r.error.empty()) {
                out.failures << QString::fromStdString(r.name + ": " + r.error);
                continue;
            }
            ++out.models;
            for (const CapturedBlock& b : r.analysis.blocks) {
                const bool causal = b.kind == BlockKind::DecoderSelf;
                for (int h = 0; h < b.heads && h < int(b.weights.size()); ++h) {
                    if (latest.load(std::memory_order_relaxed) != request) return out;
                    const Mat& w = b.weights[size_t(h)];
                    Row row{int(c),
                            QString::fromStdString(r.name),
                            b.kind,
                            b.layer,
                            h,
                            QString::fromStdString(b.variant),
                            headStats({{&w, causal}}),
                            false};
                    row.fitAtBound = row.stats.rows > 0 &&
                                     std::abs(row.stats.fit.offset) >= double(w.cols()) - 1e-9;
                    out.rows.push_back(std::move(row));
                }
            }
        }
    } catch (const std::exception& e) {
        out.rows.clear();
        out.error = QString("The head statistics could not be computed: ") + e.what();
    }
    return out;
}

}  // namespace

QVariant HeadsTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const Row& r = m_rows[size_t(index.row())];
    const int c = index.column();
    if (role == Qt::TextAlignmentRole)
        return c >= HeadsDock::Layer && c != HeadsDock::Variant
                   ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                   : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && c == HeadsDock::Mu && r.fitAtBound)
        return QString(
            "μ is at its bound (± the number of keys): the head puts its weight on "
            "the first (or last) key, a sink rather than a local window.");
    if (role != Qt::DisplayRole && role != HeadsDock::ValueRole) return {};
    const bool value = role == HeadsDock::ValueRole;
    switch (c) {
        case HeadsDock::Model:
            return value ? QVariant(index.row()) : QVariant(r.model);
        case HeadsDock::Block:
            return value ? QVariant(int(r.kind)) : QVariant(kindLabel(r.kind));
        case HeadsDock::Layer:
            return r.layer;
        case HeadsDock::Head:
            return r.head;
        case HeadsDock::Variant:
            return r.variant;
        default:
            break;
    }
    const double x = statistic(r.stats, c);
    if (!value) return formatted(x, c);
    // Sorting needs an order: a statistic that is not a number goes last (descending).
    return std::isfinite(x) ? x : -std::numeric_limits<double>::infinity();
}

QVariant HeadsTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section > HeadsDock::R2) return {};
    static const char* const titles[] = {"Model",   "Block",   "Layer",      "Head",
                                         "Variant", "Entropy", "Confidence", "Distance",
                                         "μ",       "σ",       "R²"};
    static const char* const tips[] = {
        "The model column (sorting by it gives back the workspace's order)",
        "Encoder self-attention, decoder self-attention or cross-attention",
        "The block's layer, from 0",
        "The head within its block, from 0",
        "The block's attention variant",
        "Mean entropy −Σ_j p_ij ln p_ij of the query rows, in nats: 0 when all weight is on one "
        "key, ln N when spread evenly over N keys",
        "Mean over the query rows of the largest weight max_j p_ij (Voita et al. 2019): near 1, "
        "each query looks at one key",
        "Mean over the query rows of Σ_j p_ij |i − j|: how far a query looks, in positions",
        "μ: the centre j − i of the Gaussian window that best fits the head (−1: the previous "
        "token). At ± the number of keys (the bound), a sink at the start or end of the row",
        "σ: the width of that best-fitting Gaussian window, in positions",
        "R² = 1 − SSE / Σ (p_ij − p̄)² of that Gaussian window: 1 when the head is exactly such "
        "a window"};
    if (role == Qt::DisplayRole) return QString(titles[section]);
    if (role == Qt::ToolTipRole) {
        QString tip = tips[section];
        if (section >= HeadsDock::Entropy)
            tip +=
                ". Over the current sentence, each row normalised over its allowed keys "
                "(docs/analysis.md).";
        return tip;
    }
    return {};
}

HeadsDock::HeadsDock(QWidget* parent)
    : QWidget(parent),
      m_model(new HeadsTableModel(this)),
      m_proxy(new QSortFilterProxyModel(this)),
      m_view(new QTableView),
      m_status(new QLabel),
      m_filter(new QLineEdit) {
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(ValueRole);
    m_proxy->setFilterKeyColumn(Model);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_view->setModel(m_proxy);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->setAlternatingRowColors(true);
    m_view->verticalHeader()->hide();
    m_view->setAccessibleName("Heads");
    // Table order until a header is clicked; clicking on past descending returns to it.
    m_view->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
    m_view->horizontalHeader()->setSortIndicatorClearable(true);
    m_view->setSortingEnabled(true);
    m_view->installEventFilter(this);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_filter->setPlaceholderText("Filter by model");
    m_filter->setClearButtonEnabled(true);
    m_filter->setMaximumWidth(200);

    auto* top = new QHBoxLayout;
    top->addWidget(m_status, 1);
    top->addWidget(m_filter);
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(2, 2, 2, 2);
    v->addLayout(top);
    v->addWidget(m_view, 1);

    connect(m_view, &QTableView::clicked, this, &HeadsDock::activate);
    connect(m_filter, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_proxy->setFilterFixedString(text);
        updateStatus();
    });
    m_summary = "No models";
    updateStatus();
}

HeadsDock::~HeadsDock() {
    ++*m_latest;  // running workers stop early; their watchers go with the dock
}

bool HeadsDock::busy() const {
    return m_shown != m_latest->load();
}

int HeadsDock::headCount() const {
    return m_model->rowCount();
}

void HeadsDock::setResults(std::shared_ptr<const attnviz::Results> results) {
    const int request = ++*m_latest;
    if (!results) {
        m_model->setRows({});
        m_shown = request;
        m_summary = "No models";
        m_failed.clear();
        updateStatus();
        emit computed();
        return;
    }
    auto* watcher = new QFutureWatcher<HeadsComputation>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher] {
        watcher->deleteLater();
        HeadsComputation c = watcher->result();
        if (c.request != m_latest->load()) return;  // superseded: a newer request runs
        m_shown = c.request;
        const int rows = int(c.rows.size());
        m_model->setRows(std::move(c.rows));
        m_summary = !c.error.isEmpty() ? c.error
                    : c.models == 0    ? QString("No models")
                                       : QString("%1 of %2 · current sentence")
                                          .arg(plural(rows, "head"), plural(c.models, "model"));
        m_failed = c.failures.isEmpty()
                       ? QString()
                       : QString("%1 failed: %2")
                             .arg(plural(c.failures.size(), "column"), c.failures.join("; "));
        m_view->resizeColumnsToContents();
        updateStatus();
        emit computed();
    });
    watcher->setFuture(QtConcurrent::run([results, request, latest = m_latest] {
        return computeHeads(*results, request, *latest);
    }));
    updateStatus();
}

void HeadsDock::updateStatus() {
    if (busy()) {
        m_status->setText("Computing…");
        return;
    }
    QString text = m_summary;
    if (!m_filter->text().isEmpty() && m_model->rowCount() > 0)
        text += QString(" · %1 shown").arg(m_proxy->rowCount());
    if (!m_failed.isEmpty()) text += "\n" + m_failed;
    m_status->setText(text);
    m_status->setToolTip(m_failed);
}

void HeadsDock::activate(const QModelIndex& proxyIndex) {
    const QModelIndex i = m_proxy->mapToSource(proxyIndex);
    if (!i.isValid()) return;
    const HeadsTableModel::Row& r = m_model->row(i.row());
    emit headActivated(r.column, r.kind, r.layer, r.head);
}

bool HeadsDock::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_view && event->type() == QEvent::KeyPress) {
        const int key = static_cast<QKeyEvent*>(event)->key();
        if ((key == Qt::Key_Return || key == Qt::Key_Enter) && m_view->currentIndex().isValid()) {
            activate(m_view->currentIndex());
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

}  // namespace attnviz::ui
