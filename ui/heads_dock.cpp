// SPDX-License-Identifier: GPL-3.0-or-later
#include "heads_dock.h"

#include <QAbstractTableModel>
#include <QComboBox>
#include <QFileDialog>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMap>
#include <QProgressBar>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <cmath>
#include <limits>

#include "chart_view.h"
#include "core/head_importance.h"
#include "core/head_stats.h"
#include "core/head_table.h"
#include "render/charts.h"
#include "render/figure_file.h"
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
        // Over the sentence list only (NaN: not computed).
        double inputDependence = std::numeric_limits<double>::quiet_NaN();
        int compared = 0;  // rows that input dependence compared
        double importance = std::numeric_limits<double>::quiet_NaN();     // normalised per block
        double rawImportance = std::numeric_limits<double>::quiet_NaN();  // E|∂L/∂ξ_h|
    };

    using QAbstractTableModel::QAbstractTableModel;

    // The rows, over the current sentence or (overSet) over the sentence list.
    void setRows(std::vector<Row> rows, bool overSet) {
        beginResetModel();
        m_rows = std::move(rows);
        m_overSet = overSet;
        endResetModel();
        emit headerDataChanged(Qt::Horizontal, 0, HeadsDock::ColumnCount - 1);
    }
    const Row& row(int r) const { return m_rows[size_t(r)]; }

    int rowCount(const QModelIndex& parent = {}) const override {
        return parent.isValid() ? 0 : int(m_rows.size());
    }
    int columnCount(const QModelIndex& parent = {}) const override {
        return parent.isValid() ? 0 : HeadsDock::ColumnCount;
    }
    QVariant data(const QModelIndex& index, int role) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

private:
    std::vector<Row> m_rows;
    bool m_overSet = false;
};

// What the table shows: its rows and the status line that goes with them.
struct HeadsContent {
    std::vector<HeadsTableModel::Row> rows;
    int models = 0;     // columns with rows
    QString summary;    // "48 heads of 2 models · current sentence"
    QStringList notes;  // a line each: failed columns, skipped sentences
};

// A running computation (over the set, or pruning), shared with its worker (which may
// outlive the dock).
struct SetJob {
    std::atomic<bool> cancelled{false};
    // Over the set, per model: a step per sentence, and one when it is finished. Pruning: the
    // evaluations done.
    std::atomic<int> done{0};
};

// What pruning a model needs from the set computation that gave its importance.
struct PruneInput {
    ModelColumn column;
    std::vector<Example> examples;           // the sentences the importance was computed over
    std::vector<HeadImportance> importance;  // every head, in capture order
};

// What a set computation hands back: the table's content, and the models it can prune.
struct SetResult {
    HeadsContent content;
    std::vector<PruneInput> prunable;
};

namespace {

// "name: reason" failures with one reason said once: "dense, random: the source has …".
QString grouped(const QStringList& failures) {
    QStringList reasons;
    QMap<QString, QStringList> names;
    for (const QString& f : failures) {
        const int colon = f.indexOf(": ");
        const QString reason = colon < 0 ? f : f.mid(colon + 2);
        if (!names.contains(reason)) reasons << reason;
        names[reason] << (colon < 0 ? QString() : f.left(colon));
    }
    QStringList out;
    for (const QString& r : reasons) out << names[r].join(", ") + ": " + r;
    return out.join("; ");
}

using Row = HeadsTableModel::Row;

// The statistic in column `c` (Entropy … Importance).
double statistic(const Row& r, int c) {
    const HeadStats& s = r.stats;
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
        case HeadsDock::InputDependence:
            return r.inputDependence;
        case HeadsDock::Importance:
            return r.importance;
        default:
            return s.fit.r2;
    }
}

QString formatted(double x, int c) {
    if (std::isnan(x) && c >= HeadsDock::InputDependence) return QStringLiteral("—");
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

// Every head of every column over the set's sentences, as `attnviz-cli analyze --data
// --importance` computes them (core/head_table.h): per column, on a clone taken under its
// lock, each sentence analysed (seq2seq without a target: decoded greedily), each head's
// statistics over all of them, and its importance when the model has examples. Stops between
// sentences, models and heads once the job is cancelled (nothing reads the result then).
// Advances job.done by sentences + 1 per column. The models with importance are prunable.
SetResult computeSet(const std::vector<ModelColumn>& columns, const std::vector<std::string>& lines,
                     SetJob& job) {
    SetResult result;
    HeadsContent& out = result.content;
    QStringList failures;
    int withoutTarget = 0;  // lines without a target, for the seq2seq models
    const int sentenceCount = int(sentenceSet(lines, false).size());  // as for any model
    const auto cancelled = [&] { return job.cancelled.load(std::memory_order_relaxed); };
    for (size_t c = 0; c < columns.size(); ++c) {
        const ModelColumn& column = columns[c];
        const QString name = QString::fromStdString(column.name);
        const int before = job.done.load();
        try {
            Model m = [&] {
                std::lock_guard<std::mutex> lock(*column.lock);
                return column.model->clone();
            }();
            const bool seq2seq = m.config().hasEncoder();
            const std::vector<SetSentence> sentences = sentenceSet(lines, seq2seq);
            std::vector<Analysis> runs;
            int skipped = 0;
            std::string firstProblem;
            for (const SetSentence& s : sentences) {
                if (cancelled()) return result;
                try {
                    runs.push_back(s.target ? m.analyze(s.source, std::string_view(*s.target))
                                            : m.analyze(s.source));
                } catch (const std::exception& e) {  // too long, empty: analyse the rest
                    if (firstProblem.empty()) firstProblem = e.what();
                    ++skipped;
                }
                ++job.done;
            }
            if (runs.empty()) {
                failures << QString("%1: no sentence could be analysed (%2)")
                                .arg(name, QString::fromStdString(firstProblem));
                job.done = before + sentenceCount + 1;
                continue;
            }
            if (skipped > 0) {
                out.notes << QString("%1: %2 of %3 skipped (first: %4)")
                                 .arg(name, plural(skipped, "sentence"))
                                 .arg(sentenceCount)
                                 .arg(QString::fromStdString(firstProblem));
            }

            // Importance, in capture order: one call per model.
            std::vector<HeadImportance> importance;
            const ImportanceExamples ex = importanceExamples(m, sentences);
            if (seq2seq) withoutTarget = ex.withoutTarget;
            if (cancelled()) return result;
            if (!ex.examples.empty()) {
                try {
                    importance = headImportance(m, ex.examples);
                    result.prunable.push_back({column, ex.examples, importance});
                } catch (const std::exception& e) {
                    out.notes << QString("%1: no importance: %2").arg(name, e.what());
                }
                if (ex.unusable > 0) {
                    out.notes << QString("%1: importance over %2 of %3 (%4 empty or too long)")
                                     .arg(name, plural(qsizetype(ex.examples.size()), "sentence"))
                                     .arg(sentenceCount)
                                     .arg(ex.unusable);
                }
            } else if (ex.unusable > 0) {
                out.notes
                    << QString("%1: no importance: every sentence is empty or too long").arg(name);
            }

            const std::vector<CapturedBlock>& blocks = runs.front().blocks;
            for (size_t k = 0; k < blocks.size(); ++k) {
                const CapturedBlock& b = blocks[k];
                Eigen::Index keys = 0;  // the most keys of any sentence: the fit's bound
                for (const Analysis& r : runs) keys = std::max(keys, r.blocks[k].weights[0].cols());
                for (int h = 0; h < b.heads && h < int(b.weights.size()); ++h) {
                    if (cancelled()) return result;
                    const HeadSetStats s = headSetStats(runs, k, h);
                    Row row{int(c),  name, b.kind, b.layer, h, QString::fromStdString(b.variant),
                            s.stats, false};
                    row.fitAtBound =
                        s.stats.rows > 0 && std::abs(s.stats.fit.offset) >= double(keys) - 1e-9;
                    if (s.compared > 0) row.inputDependence = s.inputDependence;
                    row.compared = s.compared;
                    for (const HeadImportance& i : importance) {
                        if (i.block == int(k) && i.kind == b.kind && i.layer == b.layer &&
                            i.head == h) {
                            row.importance = i.normalised;
                            row.rawImportance = i.importance;
                        }
                    }
                    out.rows.push_back(std::move(row));
                }
            }
            ++out.models;
        } catch (const std::exception& e) {
            failures << QString("%1: %2").arg(name, e.what());
        }
        job.done = before + sentenceCount + 1;
    }
    out.summary = QString("%1 of %2 · %3")
                      .arg(plural(qsizetype(out.rows.size()), "head"), plural(out.models, "model"),
                           plural(sentenceCount, "sentence"));
    if (withoutTarget > 0 && withoutTarget == sentenceCount) {
        out.notes.prepend(QString("%1 without a target: no importance for seq2seq models (it "
                                  "needs \"source TAB target\" lines)")
                              .arg(plural(withoutTarget, "line")));
    } else if (withoutTarget > 0) {
        out.notes.prepend(
            QString("%1 without a target: importance of seq2seq models over the other %2")
                .arg(plural(withoutTarget, "line"))
                .arg(sentenceCount - withoutTarget));
    }
    if (!failures.isEmpty()) {
        out.notes
            << QString("%1 failed: %2").arg(plural(failures.size(), "column"), grouped(failures));
    }
    return result;
}

// The pruning curves of one model (core/head_importance.h) on a clone taken under its lock;
// job.done counts the evaluations. Returns early once the job is cancelled (nothing reads the
// result then).
struct PruneOutcome {
    PruneCurves curves;
    QString error;
};
PruneOutcome computePrune(const PruneInput& in, SetJob& job) {
    PruneOutcome out;
    try {
        Model m = [&] {
            std::lock_guard<std::mutex> lock(*in.column.lock);
            return in.column.model->clone();
        }();
        out.curves = pruneHeads(
            m, in.examples, in.importance, HeadsDock::kPruneSeed,
            [&](int done, int) { job.done = done; }, &job.cancelled);
    } catch (const std::exception& e) {
        out.error = e.what();
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
    if (role == Qt::ToolTipRole && c == HeadsDock::InputDependence && m_overSet) {
        return r.compared > 0
                   ? QString("Over %1 query rows of sentences of the same length").arg(r.compared)
                   : QString(
                         "No two sentences of the list have the same length here: "
                         "nothing to compare");
    }
    if (role == Qt::ToolTipRole && c == HeadsDock::Importance && std::isfinite(r.rawImportance))
        return QString("E|∂L/∂ξ| = %1 before normalising").arg(r.rawImportance, 0, 'g', 4);
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
    const double x = statistic(r, c);
    if (!value) return formatted(x, c);
    // Sorting needs an order: a statistic that is not a number goes last (descending).
    return std::isfinite(x) ? x : -std::numeric_limits<double>::infinity();
}

QVariant HeadsTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= HeadsDock::ColumnCount)
        return {};
    static const char* const titles[] = {"Model",   "Block",      "Layer",     "Head", "Variant",
                                         "Entropy", "Confidence", "Distance",  "μ",    "σ",
                                         "R²",      "Input dep.", "Importance"};
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
        "a window",
        "Input dependence (our definition): the rows of all sentences grouped by the table's "
        "shape and the query position i; the mean, over every pair of sentences in a group, of "
        "the total-variation distance ½ Σ_j |p_ij − p′_ij| between their rows. From 0 to 1: "
        "exactly 0 for heads whose weights depend on positions only (Gaussian windows, random "
        "synthesizers), above 0 for dot-product. Only sentences of the same length are "
        "compared. Over the sentence list only (— otherwise, and when no two sentences have "
        "the same length)",
        "Head importance (Michel, Levy & Neubig 2019): I_h = E_x |∂L(x)/∂ξ_h| at ξ = 1, with "
        "ξ_h a gate on the head's output and L(x) the summed token cross-entropy of sentence x "
        "under teacher forcing, divided by the ℓ2 norm of its block's scores as in the paper. "
        "It needs reference targets: \"source TAB target\" lines for translation models; a "
        "language model's line is its own target. Normalised within each block, so compare "
        "heads of one block: a block with one head scores 1 by construction. Over the sentence "
        "list only (— otherwise)"};
    if (role == Qt::DisplayRole) return QString(titles[section]);
    if (role == Qt::ToolTipRole) {
        QString tip = tips[section];
        if (section >= HeadsDock::Entropy && section <= HeadsDock::R2) {
            tip += m_overSet ? ". Over every sentence of the sentence list (all their rows; one "
                               "Gaussian fit for all)"
                             : ". Over the current sentence";
        }
        if (section >= HeadsDock::Entropy)
            tip += ", each row normalised over its allowed keys (docs/analysis.md).";
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
      m_filter(new QLineEdit),
      m_overSet(new QPushButton("Over the sentence list")),
      m_progress(new QProgressBar),
      m_cancel(new QPushButton("Cancel")),
      m_prune(new QPushButton("Pruning curves")),
      m_pruneModels(new QComboBox),
      m_poll(new QTimer(this)),
      m_current(std::make_unique<HeadsContent>()),
      m_set(std::make_unique<HeadsContent>()) {
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
    // Compact rows: a laptop screen shows a dozen heads, not five.
    m_view->verticalHeader()->setMinimumSectionSize(m_view->fontMetrics().height() + 4);
    m_view->verticalHeader()->setDefaultSectionSize(m_view->fontMetrics().height() + 6);
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
    m_overSet->setToolTip(
        "Statistics over every sentence of the Sentences dock: entropy, confidence, distance "
        "and Gaussian fit averaged over the set; input dependence; importance (Michel et al. "
        "2019) when the lines have targets (\"source TAB target\"), or for language models. "
        "Shown until another sentence is chosen.");
    m_progress->setToolTip("Sentences analysed and models finished");
    m_progress->setMaximumWidth(160);
    m_progress->hide();
    m_cancel->setToolTip(
        "Stop the computation over the sentence list or the pruning (the table and the curves "
        "stay as they are)");
    m_cancel->hide();
    m_prune->setToolTip(
        QString(
            "Pruning curves (Michel et al. 2019) of the model beside: its heads removed one by "
            "one, least important first and in a random order (seed %1), loss and BLEU over the "
            "same sentences after each removal, in a window of their own. Needs the importance "
            "of a computation over the sentence list (\"source TAB target\" lines, or a "
            "language model)")
            .arg(kPruneSeed));
    m_pruneModels->setToolTip("The model to prune: those with importance over the sentence list");
    m_pruneModels->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_poll->setInterval(50);

    auto* top = new QHBoxLayout;
    top->addWidget(m_status, 1);
    top->addWidget(m_overSet);
    top->addWidget(m_progress);
    top->addWidget(m_cancel);
    top->addWidget(m_prune);
    top->addWidget(m_pruneModels);
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
    connect(m_overSet, &QPushButton::clicked, this, [this] { computeOverSet(); });
    connect(m_cancel, &QPushButton::clicked, this, &HeadsDock::cancel);
    connect(m_prune, &QPushButton::clicked, this, [this] { computePruning(); });
    connect(m_poll, &QTimer::timeout, this, [this] {
        if (const SetJob* job = m_setJob ? m_setJob.get() : m_pruneJob.get())
            m_progress->setValue(job->done.load());
    });
    m_current->summary = "No models";
    setPrunable({});
    updateStatus();
}

HeadsDock::~HeadsDock() {
    ++*m_latest;  // running workers stop early; their watchers go with the dock
    if (m_setJob) m_setJob->cancelled = true;
    if (m_pruneJob) m_pruneJob->cancelled = true;
}

bool HeadsDock::busy() const {
    return m_shown != m_latest->load();
}

int HeadsDock::headCount() const {
    return m_model->rowCount();
}

void HeadsDock::setResults(std::shared_ptr<const attnviz::Results> results) {
    const int request = ++*m_latest;
    // A new current sentence: its statistics replace the set's (the rule the status says).
    const bool wasSet = m_showSet;
    m_showSet = false;
    m_setNote.clear();
    m_pruneNote.clear();
    if (!results) {
        m_shown = request;
        *m_current = HeadsContent{{}, 0, "No models", {}};
        showContent(*m_current, false);
        emit computed();
        return;
    }
    if (wasSet) showContent(*m_current, false);  // until the new sentence's statistics come
    auto* watcher = new QFutureWatcher<HeadsComputation>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher] {
        watcher->deleteLater();
        HeadsComputation c = watcher->result();
        if (c.request != m_latest->load()) return;  // superseded: a newer request runs
        m_shown = c.request;
        const int rows = int(c.rows.size());
        m_current->rows = std::move(c.rows);
        m_current->models = c.models;
        m_current->summary = !c.error.isEmpty() ? c.error
                             : c.models == 0
                                 ? QString(c.failures.isEmpty() ? "No models"
                                                                : "No statistics: no model could "
                                                                  "analyse the sentence")
                                 : QString("%1 of %2 · current sentence")
                                       .arg(plural(rows, "head"), plural(c.models, "model"));
        m_current->notes.clear();
        if (!c.failures.isEmpty()) {
            m_current->notes << QString("%1 failed: %2")
                                    .arg(plural(c.failures.size(), "column"), grouped(c.failures));
        }
        if (m_showSet) {  // a set result arrived meanwhile: it stays until the next sentence
            updateStatus();
            return;
        }
        showContent(*m_current, false);
        emit computed();
    });
    watcher->setFuture(QtConcurrent::run([results, request, latest = m_latest] {
        return computeHeads(*results, request, *latest);
    }));
    updateStatus();
}

void HeadsDock::setSentenceSet(std::vector<attnviz::ModelColumn> columns, QStringList lines) {
    const bool sameModels =
        std::equal(columns.begin(), columns.end(), m_columns.begin(), m_columns.end(),
                   [](const ModelColumn& a, const ModelColumn& b) { return a.model == b.model; });
    const bool changed = !sameModels || lines != m_lines;
    m_columns = std::move(columns);
    m_lines = std::move(lines);
    if (changed && (setBusy() || pruneBusy())) {
        const bool set = setBusy();
        cancel();
        if (set)
            m_setNote = "Over the sentence list: cancelled, the models or the sentences changed";
    }
    if (changed && !m_prunable.empty()) {  // its importance was over other models or lines
        m_pruneNote =
            "Pruning curves: the models or the sentences changed; compute over the sentence "
            "list again";
        setPrunable({});
    }
    if (changed) updateStatus();
}

bool HeadsDock::computeOverSet(QString* why) {
    cancel();
    std::vector<std::string> lines;
    for (const QString& l : m_lines) lines.push_back(l.toStdString());
    const int sentences = int(sentenceSet(lines, false).size());
    QString reason;
    if (m_columns.empty()) {
        reason = "no models";
    } else if (sentences < 2) {
        reason = QString(
                     "the sentence list has %1; statistics over a set need 2 or more (File › "
                     "Open sentence list…)")
                     .arg(plural(sentences, "sentence"));
    }
    if (!reason.isEmpty()) {
        if (why) *why = reason;
        m_setNote = "Over the sentence list: " + reason;
        updateStatus();
        return false;
    }
    auto job = std::make_shared<SetJob>();
    m_setJob = job;
    m_setNote.clear();
    startRun(int(m_columns.size()) * (sentences + 1), "Sentences analysed and models finished");
    auto* watcher = new QFutureWatcher<SetResult>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, job] {
        watcher->deleteLater();
        if (job != m_setJob || job->cancelled) return;  // cancelled: nobody waits for it
        setFinished(*job, watcher->result());
    });
    watcher->setFuture(QtConcurrent::run([columns = m_columns, lines = std::move(lines), job] {
        return computeSet(columns, lines, *job);
    }));
    updateStatus();
    return true;
}

void HeadsDock::cancel() {
    if (!m_setJob && !m_pruneJob) return;
    if (m_setJob) {
        m_setJob->cancelled = true;
        m_setNote = "Over the sentence list: cancelled";
    }
    if (m_pruneJob) {
        m_pruneJob->cancelled = true;
        m_pruneNote = "Pruning curves: cancelled";
    }
    endRun();
    updateStatus();
}

// The progress bar over `steps`, Cancel, and the buttons off while a computation runs.
void HeadsDock::startRun(int steps, const QString& what) {
    m_progress->setRange(0, steps);
    m_progress->setValue(0);
    m_progress->setToolTip(what);
    m_progress->show();
    m_cancel->show();
    m_overSet->setEnabled(false);
    m_prune->setEnabled(false);
    m_poll->start();
}

void HeadsDock::endRun() {
    m_setJob.reset();
    m_pruneJob.reset();
    m_poll->stop();
    m_progress->hide();
    m_cancel->hide();
    m_overSet->setEnabled(true);
    m_prune->setEnabled(!m_prunable.empty());
}

void HeadsDock::setFinished(const SetJob& job, SetResult result) {
    m_progress->setValue(job.done.load());
    HeadsContent& content = result.content;
    if (content.models == 0) {  // every model failed: the table stays as it was
        endRun();
        m_setNote = "Over the sentence list: " + content.notes.join("\n");
        updateStatus();
        return;
    }
    m_pruneNote.clear();
    setPrunable(std::move(result.prunable));
    endRun();
    content.summary += " · shown until another sentence is chosen";
    *m_set = std::move(content);
    m_showSet = true;
    showContent(*m_set, true);
    emit computed();
}

// The models that "Pruning curves" offers; the chosen one stays chosen when still there.
void HeadsDock::setPrunable(std::vector<PruneInput> prunable) {
    const QString chosen = m_pruneModels->currentText();
    m_prunable = std::move(prunable);
    m_pruneModels->clear();
    for (const PruneInput& in : m_prunable)
        m_pruneModels->addItem(QString::fromStdString(in.column.name));
    const int again = m_pruneModels->findText(chosen);
    if (again >= 0) m_pruneModels->setCurrentIndex(again);
    m_pruneModels->setEnabled(!m_prunable.empty());
    m_prune->setEnabled(!m_prunable.empty() && !m_setJob && !m_pruneJob);
}

bool HeadsDock::computePruning(QString* why) {
    const int index = m_pruneModels->currentIndex();
    QString reason;
    if (m_prunable.empty()) {
        reason =
            "no model has importance yet: compute over the sentence list first, with \"source "
            "TAB target\" lines (or a language model)";
    } else if (index < 0 || index >= int(m_prunable.size())) {
        reason = "choose a model";
    } else if (m_setJob || m_pruneJob) {
        reason = "a computation is running";
    }
    if (!reason.isEmpty()) {
        if (why) *why = reason;
        m_pruneNote = "Pruning curves: " + reason;
        updateStatus();
        return false;
    }
    const PruneInput& in = m_prunable[size_t(index)];
    const QString name = QString::fromStdString(in.column.name);
    auto job = std::make_shared<SetJob>();
    m_pruneJob = job;
    m_pruneNote = QString("Pruning curves of %1: computing over %2…")
                      .arg(name, plural(qsizetype(in.examples.size()), "sentence"));
    startRun(2 * (int(in.importance.size()) + 1),
             "Evaluations: heads removed least important first, then in a random order");
    auto* watcher = new QFutureWatcher<PruneOutcome>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, job, name] {
        watcher->deleteLater();
        if (job != m_pruneJob || job->cancelled) return;  // cancelled: nobody waits for it
        PruneOutcome out = watcher->result();
        if (!out.error.isEmpty()) {
            endRun();
            m_pruneNote = QString("Pruning curves of %1 failed: %2").arg(name, out.error);
            updateStatus();
            return;
        }
        pruneFinished(*job, std::move(out.curves), name);
    });
    watcher->setFuture(QtConcurrent::run([in, job] { return computePrune(in, *job); }));
    updateStatus();
    return true;
}

void HeadsDock::pruneFinished(const SetJob& job, PruneCurves curves, const QString& name) {
    m_progress->setValue(job.done.load());
    endRun();
    m_curves = std::move(curves);
    m_curvesModel = name;
    m_pruneNote = QString("Pruning curves of %1 (%2): in their window")
                      .arg(name, plural(m_curves->sentences, "sentence"));
    showCurves();
    updateStatus();
    emit pruned();
}

// The curves' window: made with the first curves, non-modal, shown and raised.
void HeadsDock::showCurves() {
    if (!m_pruneWindow) {
        m_pruneWindow = new QWidget(this, Qt::Window);
        m_pruneChart = new ChartView;
        m_pruneInfo = new QLabel;
        m_pruneInfo->setWordWrap(true);
        m_pruneInfo->setTextInteractionFlags(Qt::TextSelectableByMouse);
        auto* exportButton = new QPushButton("E&xport…");
        exportButton->setToolTip(
            "Write the curves as SVG, PDF or PNG, as attnviz-cli render --prune");
        auto* close = new QPushButton("Close");
        auto* bottom = new QHBoxLayout;
        bottom->addWidget(m_pruneInfo, 1);
        bottom->addWidget(exportButton);
        bottom->addWidget(close);
        auto* v = new QVBoxLayout(m_pruneWindow);
        v->addWidget(m_pruneChart, 1);
        v->addLayout(bottom);
        connect(exportButton, &QPushButton::clicked, this, &HeadsDock::exportFromDialog);
        connect(close, &QPushButton::clicked, m_pruneWindow, &QWidget::close);
        m_pruneWindow->resize(720, 460);
    }
    m_pruneWindow->setWindowTitle("Pruning curves · " + m_curvesModel);
    m_pruneChart->setCharts(render::pruningCharts(*m_curves, m_curvesModel.toStdString()));
    m_pruneInfo->setText(
        QString("%1 heads removed one by one, least important first (normalised importance) "
                "and in a random order (seed %2); loss and BLEU over the %3 the importance was "
                "computed over.")
            .arg(m_curves->byImportance.empty() ? 0 : int(m_curves->byImportance.size()) - 1)
            .arg(kPruneSeed)
            .arg(plural(m_curves->sentences, "sentence")));
    m_pruneWindow->show();
    m_pruneWindow->raise();
}

bool HeadsDock::exportPruning(const QString& path, QString* error) const {
    if (!m_curves) {
        if (error) *error = "no pruning curves yet";
        return false;
    }
    const auto paint =
        render::chartPainter(render::pruningCharts(*m_curves, m_curvesModel.toStdString()),
                             render::FigureStyle{}, error);
    return paint && render::writeFigure(path, QSizeF(504, 360), true, 150, paint, error);
}

void HeadsDock::exportFromDialog() {
    if (!m_curves) return;
    const QString path = QFileDialog::getSaveFileName(m_pruneWindow, "Export pruning curves",
                                                      m_curvesModel + "-pruning.svg",
                                                      "SVG (*.svg);;PDF (*.pdf);;PNG (*.png)");
    if (path.isEmpty()) return;
    QString error;
    m_pruneInfo->setText(exportPruning(path, &error) ? "Wrote " + path
                                                     : "Cannot export the curves: " + error);
}

void HeadsDock::showContent(const HeadsContent& content, bool overSet) {
    m_model->setRows(content.rows, overSet);
    m_view->resizeColumnsToContents();
    updateStatus();
}

void HeadsDock::updateStatus() {
    QString text;
    QStringList notes;
    if (!m_showSet && busy()) {
        text = "Computing…";
    } else {
        const HeadsContent& c = m_showSet ? *m_set : *m_current;
        text = c.summary;
        if (!m_filter->text().isEmpty() && m_model->rowCount() > 0)
            text += QString(" · %1 shown").arg(m_proxy->rowCount());
        notes = c.notes;
    }
    if (!m_setNote.isEmpty()) notes << m_setNote;
    if (!m_pruneNote.isEmpty()) notes << m_pruneNote;
    if (!notes.isEmpty()) text += "\n" + notes.join("\n");
    m_status->setText(text);
    m_status->setToolTip(notes.join("\n"));
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
