// SPDX-License-Identifier: GPL-3.0-or-later
#include "heads_table.h"

#include <QCoreApplication>
#include <QLocale>
#include <QMap>
#include <algorithm>
#include <cmath>
#include <mutex>

#include "core/head_table.h"
#include "view_state.h"

namespace attnviz::ui {
namespace {

using Row = HeadsTableModel::Row;

// The statistic in column `c` (Entropy … Importance).
double statistic(const Row& r, int c) {
    const HeadStats& s = r.stats;
    switch (c) {
        case HeadsColumns::Entropy:
            return s.entropy;
        case HeadsColumns::Confidence:
            return s.confidence;
        case HeadsColumns::Distance:
            return s.distance;
        case HeadsColumns::Mu:
            return s.fit.offset;
        case HeadsColumns::Sigma:
            return s.fit.sigma;
        case HeadsColumns::InputDependence:
            return r.inputDependence;
        case HeadsColumns::Importance:
            return r.importance;
        default:
            return s.fit.r2;
    }
}

QString formatted(double x, int c) {
    if (std::isnan(x) && c >= HeadsColumns::InputDependence) return QStringLiteral("—");
    if (!std::isfinite(x)) return QStringLiteral("–");
    const bool positions = c == HeadsColumns::Distance || c == HeadsColumns::Mu || c == HeadsColumns::Sigma;
    return QString::number(x, 'f', positions ? 2 : 3);
}

}  // namespace

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

QString plural(qsizetype n, const QString& word) {
    // Whole phrases, singular and plural, for the words the Heads dock counts.
    static const struct {
        const char *word, *one, *many;
    } phrases[] = {{"head", QT_TRANSLATE_NOOP("attnviz::ui::HeadsTable", "%1 head"),
                    QT_TRANSLATE_NOOP("attnviz::ui::HeadsTable", "%1 heads")},
                   {"model", QT_TRANSLATE_NOOP("attnviz::ui::HeadsTable", "%1 model"),
                    QT_TRANSLATE_NOOP("attnviz::ui::HeadsTable", "%1 models")},
                   {"column", QT_TRANSLATE_NOOP("attnviz::ui::HeadsTable", "%1 column"),
                    QT_TRANSLATE_NOOP("attnviz::ui::HeadsTable", "%1 columns")},
                   {"sentence", QT_TRANSLATE_NOOP("attnviz::ui::HeadsTable", "%1 sentence"),
                    QT_TRANSLATE_NOOP("attnviz::ui::HeadsTable", "%1 sentences")},
                   {"line", QT_TRANSLATE_NOOP("attnviz::ui::HeadsTable", "%1 line"),
                    QT_TRANSLATE_NOOP("attnviz::ui::HeadsTable", "%1 lines")}};
    for (const auto& p : phrases)
        if (word == QLatin1String(p.word))
            return QCoreApplication::translate("attnviz::ui::HeadsTable", n == 1 ? p.one : p.many)
                .arg(n);
    return QString("%1 %2%3").arg(n).arg(word, n == 1 ? "" : "s");
}

QString timeLeft(qint64 elapsedMs, int done, int total) {
    if (done <= 0 || elapsedMs < 1000 || total <= done) return {};
    const double left = double(elapsedMs) / 1000.0 * double(total - done) / double(done);
    auto phrase = [](const char* text) {  // marked for lupdate where they are written
        return QCoreApplication::translate("attnviz::ui::HeadsTable", text);
    };
    if (left < 10)
        return phrase(QT_TRANSLATE_NOOP("attnviz::ui::HeadsTable", "a few seconds left"));
    //: Time a computation has left, estimated; %1 seconds (a multiple of 5)
    if (left < 57.5)
        return phrase(QT_TRANSLATE_NOOP("attnviz::ui::HeadsTable", "about %1 s left"))
            .arg(std::max(10, int(std::lround(left / 5)) * 5));
    const long minutes = std::lround(left / 60);
    //: Time a computation has left, estimated; %1 minutes
    if (minutes < 60)
        return phrase(QT_TRANSLATE_NOOP("attnviz::ui::HeadsTable", "about %1 min left"))
            .arg(minutes);
    //: Time a computation has left, estimated; %1 hours, %2 minutes
    return phrase(QT_TRANSLATE_NOOP("attnviz::ui::HeadsTable", "about %1 h %2 min left"))
        .arg(minutes / 60)
        .arg(minutes % 60);
}

QString setProgressText(int sentencesDone, int sentences, int models, qint64 elapsedMs, int done,
                        int total, bool images) {
    const int all = std::max(1, sentences * models);
    const int shown = std::clamp(sentencesDone + (sentencesDone < all ? 1 : 0), 1, all);
    QString text =
        images
            //: Heads dock, over test images: the image being analysed (%1) of all of them
            //: (every model's, %2)
            ? QCoreApplication::translate("attnviz::ui::HeadsTable", "Image %1 of %2")
            //: Heads dock, over the sentence list: the sentence being analysed (%1) of all of
            //: them (every model's, %2)
            : QCoreApplication::translate("attnviz::ui::HeadsTable", "Sentence %1 of %2");
    text = text.arg(shown).arg(all);
    if (models > 1 && sentences > 0)
        //: %1: "Sentence 3 of 40"; %2, %3: the model being analysed and how many there are
        text = QCoreApplication::translate("attnviz::ui::HeadsTable", "%1 · model %2 of %3")
                   .arg(text)
                   .arg(std::min(models, (shown - 1) / sentences + 1))
                   .arg(models);
    const QString left = timeLeft(elapsedMs, done, total);
    return left.isEmpty() ? text : text + " · " + left;
}

QString pruneProgressText(qint64 elapsedMs, int done, int total) {
    //: Heads dock, pruning curves: the evaluation running (%1) of all of them (%2)
    const QString text =
        QCoreApplication::translate("attnviz::ui::HeadsTable", "Evaluation %1 of %2")
            .arg(std::clamp(done + 1, 1, std::max(1, total)))
            .arg(total);
    const QString left = timeLeft(elapsedMs, done, total);
    return left.isEmpty() ? text : text + " · " + left;
}

HeadsComputation computeHeads(const ResultStats& stats, const std::vector<HeadKey>& heads,
                              int request, const std::atomic<int>& latest) {
    HeadsComputation out;
    out.request = request;
    const Results& results = stats.results();
    try {
        for (const ColumnResult& r : results)
            if (!r.error.empty()) out.failures << QString::fromStdString(r.name + ": " + r.error);
        out.models = int(std::count_if(results.begin(), results.end(),
                                       [](const ColumnResult& r) { return r.error.empty(); }));
        // Fitted once per analysis (the Offset profiles dock shares them), on both cores.
        if (!stats.compute(heads, 2, [&] { return latest.load() != request; })) return out;
        for (const HeadKey& k : heads) {
            const ColumnResult& r = results[k.column];
            const CapturedBlock& b = r.analysis.blocks[k.block];
            const Mat& w = b.weights[size_t(k.head)];
            Row row{int(k.column), QString::fromStdString(r.name),    b.kind,      b.layer,
                    k.head,        QString::fromStdString(b.variant), stats.at(k), false};
            row.fitAtBound =
                row.stats.rows > 0 && std::abs(row.stats.fit.offset) >= double(w.cols()) - 1e-9;
            out.rows.push_back(std::move(row));
        }
    } catch (const std::exception& e) {
        out.rows.clear();
        out.error = QCoreApplication::translate("attnviz::ui::HeadsTable",
                                                "The head statistics could not be computed: %1")
                        .arg(QString::fromUtf8(e.what()));
    }
    return out;
}

namespace {

// What the set computation says of one model beside its rows: sentences skipped, importance
// over fewer sentences or none.
QStringList setNotes(const QString& name, const SetAnalysis& set, int sentenceCount) {
    QStringList notes;
    if (set.skipped > 0) {
        //: %1 the model, %2 "3 sentences", %3 their total, %4 the first error
        notes << QCoreApplication::translate("attnviz::ui::HeadsTable",
                                             "%1: %2 of %3 skipped (first: %4)")
                     .arg(name, plural(set.skipped, "sentence"))
                     .arg(sentenceCount)
                     .arg(QString::fromStdString(set.firstProblem));
    }
    const ImportanceExamples& ex = set.examples;
    if (!set.importanceError.empty())
        notes << QCoreApplication::translate("attnviz::ui::HeadsTable", "%1: no importance: %2")
                     .arg(name, QString::fromStdString(set.importanceError));
    if (!ex.examples.empty() && ex.unusable > 0) {
        //: %1 the model, %2 "3 sentences", %3 their total, %4 how many were unusable
        notes << QCoreApplication::translate("attnviz::ui::HeadsTable",
                                             "%1: importance over %2 of %3 (%4 empty or too long)")
                     .arg(name, plural(qsizetype(ex.examples.size()), "sentence"))
                     .arg(sentenceCount)
                     .arg(ex.unusable);
    } else if (ex.examples.empty() && ex.unusable > 0) {
        notes << QCoreApplication::translate(
                     "attnviz::ui::HeadsTable",
                     "%1: no importance: every sentence is empty or too long")
                     .arg(name);
    }
    return notes;
}

// The table's rows of column `c` from its set analysis (core/head_table.h analyzeSet).
void addSetRows(int c, const QString& name, const SetAnalysis& set, HeadsContent& out) {
    for (const SetHead& h : set.heads) {
        Row row{c,           name, h.kind, h.layer, h.head, QString::fromStdString(h.variant),
                h.set.stats, false};
        row.fitAtBound =
            h.set.stats.rows > 0 && std::abs(h.set.stats.fit.offset) >= double(h.keys) - 1e-9;
        if (h.set.compared > 0) row.inputDependence = h.set.inputDependence;
        row.compared = h.set.compared;
        if (h.importance >= 0) {
            row.importance = set.importance[size_t(h.importance)].normalised;
            row.rawImportance = set.importance[size_t(h.importance)].importance;
        }
        out.rows.push_back(std::move(row));
    }
}

// The notes of the whole computation: lines without a target, failed columns.
void addSetSummary(HeadsContent& out, int sentenceCount, int withoutTarget,
                   const QStringList& failures) {
    //: Heads dock status: "48 heads of 2 models · 10 sentences"
    out.summary = QCoreApplication::translate("attnviz::ui::HeadsTable", "%1 of %2 · %3")
                      .arg(plural(qsizetype(out.rows.size()), "head"), plural(out.models, "model"),
                           plural(sentenceCount, "sentence"));
    if (withoutTarget > 0 && withoutTarget == sentenceCount) {
        out.notes.prepend(
            QCoreApplication::translate("attnviz::ui::HeadsTable",
                                        "%1 without a target: no importance for seq2seq models (it "
                                        "needs \"source TAB target\" lines)")
                .arg(plural(withoutTarget, "line")));
    } else if (withoutTarget > 0) {
        out.notes.prepend(QCoreApplication::translate(
                              "attnviz::ui::HeadsTable",
                              "%1 without a target: importance of seq2seq models over the other %2")
                              .arg(plural(withoutTarget, "line"))
                              .arg(sentenceCount - withoutTarget));
    }
    if (!failures.isEmpty())
        out.notes << QCoreApplication::translate("attnviz::ui::HeadsTable", "%1 failed: %2")
                         .arg(plural(failures.size(), "column"), grouped(failures));
}

// A copy of the column's model to run on a worker, taken under its lock (the interface's own
// analyses run the model itself).
Model cloneOf(const ModelColumn& column) {
    std::lock_guard<std::mutex> lock(*column.lock);
    return column.model->clone();
}

// What a set computation tells its job: whether to stop, and a step per sentence or image.
SetRequest jobRequest(SetJob& job, bool importance) {
    return {importance, [&job] { return job.cancelled.load(std::memory_order_relaxed); },
            [&job] {
                ++job.done;
                ++job.sentences;
            }};
}

}  // namespace

SetResult computeSet(const std::vector<ModelColumn>& columns, const std::vector<std::string>& lines,
                     SetJob& job) {
    SetResult result;
    HeadsContent& out = result.content;
    QStringList failures;
    int withoutTarget = 0;  // lines without a target, for the seq2seq models
    const int sentenceCount = int(sentenceSet(lines, false).size());  // as for any model
    const SetRequest request = jobRequest(job, true);
    for (size_t c = 0; c < columns.size(); ++c) {
        const QString name = QString::fromStdString(columns[c].name);
        const int before = job.done.load();
        try {
            Model m = cloneOf(columns[c]);
            const SetAnalysis set =
                analyzeSet(m, sentenceSet(lines, m.config().hasEncoder()), request);
            if (set.cancelled) return result;
            if (m.config().hasEncoder()) withoutTarget = set.examples.withoutTarget;
            if (set.runs.empty()) {
                //: A failed model column: its name, then the reason. Keep "%1: " at the start
                //: (the list of failures groups them by what follows it).
                failures << QCoreApplication::translate("attnviz::ui::HeadsTable",
                                                        "%1: no sentence could be analysed (%2)")
                                .arg(name, QString::fromStdString(set.firstProblem));
            } else {
                out.notes << setNotes(name, set, sentenceCount);
                addSetRows(int(c), name, set, out);
                if (!set.importance.empty())
                    result.prunable.push_back({columns[c], set.examples.examples, set.importance});
                ++out.models;
            }
        } catch (const std::exception& e) {
            failures << QString("%1: %2").arg(name, e.what());
        }
        job.done = before + sentenceCount + 1;
    }
    addSetSummary(out, sentenceCount, withoutTarget, failures);
    const auto dashes = std::count_if(out.rows.begin(), out.rows.end(),
                                      [](const Row& r) { return r.compared == 0; });
    if (dashes > 0) out.notes << inputDependenceNote(dashes);
    return result;
}

ImageSetOutcome computeImageSet(const std::vector<ModelColumn>& columns, const ImageSet& images,
                                SetJob& job) {
    ImageSetOutcome result;
    result.images = int(images.size());
    HeadsContent& out = result.content;
    QStringList failures;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const SetRequest request = jobRequest(job, false);
    for (size_t c = 0; c < columns.size(); ++c) {
        const QString name = QString::fromStdString(columns[c].name);
        const int before = job.done.load();
        try {
            Model m = cloneOf(columns[c]);
            const ImageSetAnalysis set = analyzeImageSet(m, images, request);
            if (set.cancelled) return result;
            const auto perHead = set.distances.perHead();
            for (size_t b = 0; b < set.blocks.size(); ++b)
                for (size_t h = 0; h < perHead[b].size(); ++h) {
                    HeadStats st;
                    st.entropy = st.confidence = nan;
                    st.fit = {nan, nan, nan, 0};
                    st.distance = perHead[b][h].px;
                    st.rows = perHead[b][h].rows;
                    out.rows.push_back({int(c), name, set.blocks[b].kind, set.blocks[b].layer,
                                        int(h), QString::fromStdString(set.blocks[b].variant), st});
                }
            const PatchGrid grid = patchGrid(m.config());
            const double uniform = uniformAttentionDistance(grid);
            if (result.chart.empty() || std::abs(uniform - result.uniform) < 1e-9) {
                result.uniform = uniform;  // one chart has one uniform line: the first's grid
                result.chart.push_back({columns[c].name, perHead, int(c)});  // its colour
            }
            ++out.models;
        } catch (const std::exception& e) {
            failures << QString("%1: %2").arg(name, e.what());
        }
        job.done = before + result.images + 1;
    }
    //: Heads dock status over test images: %1 "44 heads", %2 "11 models", %3 how many images
    out.summary = QCoreApplication::translate(
                      "attnviz::ui::HeadsTable",
                      "%1 of %2 · distance in pixels over %3 test images (only the distance: "
                      "the other statistics are of one image at a time)")
                      .arg(plural(int(out.rows.size()), "head"), plural(out.models, "model"))
                      .arg(QLocale().toString(result.images));
    if (!failures.isEmpty())
        out.notes << QCoreApplication::translate("attnviz::ui::HeadsTable", "%1 failed: %2")
                         .arg(plural(failures.size(), "column"), grouped(failures));
    return result;
}

QString inputDependenceNote(qsizetype heads) {
    //: Heads dock footnote: %1 "3 heads". The rule of core/head_stats.h inputDependence.
    return QCoreApplication::translate(
               "attnviz::ui::HeadsTable",
               "Input dependence is — for %1: it compares the rows of one query position across "
               "sentences whose table has the same shape, so it needs at least 2 sentences of the "
               "list with the same number of tokens in the model's tokenizer (source tokens for "
               "encoder self-attention, target tokens for decoder self-attention, both for "
               "cross-attention).")
        .arg(plural(heads, "head"));
}

PruneOutcome computePrune(const PruneInput& in, SetJob& job) {
    PruneOutcome out;
    try {
        Model m = cloneOf(in.column);
        out.curves = pruneHeads(
            m, in.examples, in.importance, HeadsColumns::kPruneSeed,
            [&](int done, int) { job.done = done; }, &job.cancelled);
    } catch (const std::exception& e) {
        out.error = e.what();
    }
    return out;
}

// Why a head's input dependence is what it is, or "—" (the rule of core/head_stats.h).
QString HeadsTableModel::inputDependenceTip(const Row& r) const {
    if (!m_overSet)
        return QCoreApplication::translate(
            "attnviz::ui::HeadsTable",
            "Input dependence compares sentences: it is computed over the sentence list only "
            "(\"Over the sentence list\"), — for the current sentence.");
    if (r.compared > 0)
        return QCoreApplication::translate("attnviz::ui::HeadsTable",
                                           "Over %1 query rows of sentences of the same length")
            .arg(r.compared);
    return QCoreApplication::translate(
        "attnviz::ui::HeadsTable",
        "No two sentences of the list have the same number of tokens for this table (source "
        "tokens for encoder self-attention, target tokens for decoder self-attention, both for "
        "cross-attention, in this model's tokenizer): nothing to compare. Add sentences of "
        "equal length.");
}

QVariant HeadsTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= rowCount()) return {};
    const Row& r = m_rows[size_t(index.row())];
    const int c = index.column();
    if (role == Qt::TextAlignmentRole)
        return c >= HeadsColumns::Layer && c != HeadsColumns::Variant
                   ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                   : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole && c == HeadsColumns::Mu && r.fitAtBound)
        return QCoreApplication::translate(
            "attnviz::ui::HeadsTable",
            "μ is at its bound (± the number of keys): the head puts its weight on "
            "the first (or last) key, a sink rather than a local window.");
    if (role == Qt::ToolTipRole && c == HeadsColumns::InputDependence) return inputDependenceTip(r);
    if (role == Qt::ToolTipRole && c == HeadsColumns::Importance && std::isfinite(r.rawImportance))
        return QCoreApplication::translate("attnviz::ui::HeadsTable",
                                           "E|∂L/∂ξ| = %1 before normalising")
            .arg(r.rawImportance, 0, 'g', 4);
    if (role != Qt::DisplayRole && role != HeadsColumns::ValueRole) return {};
    const bool value = role == HeadsColumns::ValueRole;
    switch (c) {
        case HeadsColumns::Model:
            return value ? QVariant(index.row()) : QVariant(r.model);
        case HeadsColumns::Block:
            return value ? QVariant(int(r.kind)) : QVariant(kindLabel(r.kind));
        // Shown counted from 1, for people; the value (sorting, activation) is the index.
        case HeadsColumns::Layer:
            return value ? r.layer : r.layer + 1;
        case HeadsColumns::Head:
            return value ? r.head : r.head + 1;
        case HeadsColumns::Variant:
            return r.variant;
        default:
            break;
    }
    const double x = statistic(r, c);
    if (!value) return formatted(x, c);
    // Sorting needs an order: a statistic that is not a number goes last (descending).
    return std::isfinite(x) ? x : -std::numeric_limits<double>::infinity();
}

namespace {

// The title of the Heads table's column `section` (HeadsColumns::Column), translated.
QString headerTitle(int section) {
    static const char* const titles[] = {
        QT_TRANSLATE_NOOP("attnviz::ui::HeadsTable", "Model"),
        QT_TRANSLATE_NOOP("attnviz::ui::HeadsTable", "Block"),
        QT_TRANSLATE_NOOP("attnviz::ui::HeadsTable", "Layer"),
        QT_TRANSLATE_NOOP("attnviz::ui::HeadsTable", "Head"),
        QT_TRANSLATE_NOOP("attnviz::ui::HeadsTable", "Variant"),
        QT_TRANSLATE_NOOP("attnviz::ui::HeadsTable", "Entropy"),
        QT_TRANSLATE_NOOP("attnviz::ui::HeadsTable", "Confidence"),
        QT_TRANSLATE_NOOP("attnviz::ui::HeadsTable", "Distance"),
        QT_TRANSLATE_NOOP("attnviz::ui::HeadsTable", "μ"),
        QT_TRANSLATE_NOOP("attnviz::ui::HeadsTable", "σ"),
        QT_TRANSLATE_NOOP("attnviz::ui::HeadsTable", "R²"),
        QT_TRANSLATE_NOOP("attnviz::ui::HeadsTable", "Input dep."),
        QT_TRANSLATE_NOOP("attnviz::ui::HeadsTable", "Importance")};
    return QCoreApplication::translate("attnviz::ui::HeadsTable", titles[section]);
}

// What column `section` holds, translated: the start of its tooltip.
QString headerTip(int section) {
    static const char* const tips[] = {
        QT_TRANSLATE_NOOP("attnviz::ui::HeadsTable",
                          "The model column (sorting by it gives back the workspace's order)"),
        QT_TRANSLATE_NOOP("attnviz::ui::HeadsTable",
                          "Encoder self-attention, decoder self-attention or cross-attention"),
        QT_TRANSLATE_NOOP("attnviz::ui::HeadsTable", "The block's layer, from 0"),
        QT_TRANSLATE_NOOP("attnviz::ui::HeadsTable", "The head within its block, from 0"),
        QT_TRANSLATE_NOOP("attnviz::ui::HeadsTable", "The block's attention variant"),
        QT_TRANSLATE_NOOP("attnviz::ui::HeadsTable",
                          "Mean entropy −Σ_j p_ij ln p_ij of the query rows, in nats: 0 when all "
                          "weight is on one key, ln N when spread evenly over N keys"),
        QT_TRANSLATE_NOOP("attnviz::ui::HeadsTable",
                          "Mean over the query rows of the largest weight max_j p_ij (Voita et al. "
                          "2019): near 1, each query looks at one key"),
        QT_TRANSLATE_NOOP(
            "attnviz::ui::HeadsTable",
            "Mean over the query rows of Σ_j p_ij |i − j|: how far a query looks, in positions"),
        QT_TRANSLATE_NOOP(
            "attnviz::ui::HeadsTable",
            "μ: the centre j − i of the Gaussian window that best fits the head (−1: the previous "
            "token). At ± the number of keys (the bound), a sink at the start or end of the row"),
        QT_TRANSLATE_NOOP("attnviz::ui::HeadsTable",
                          "σ: the width of that best-fitting Gaussian window, in positions"),
        QT_TRANSLATE_NOOP(
            "attnviz::ui::HeadsTable",
            "R² = 1 − SSE / Σ (p_ij − p̄)² of that Gaussian window: 1 when the head is exactly such "
            "a window"),
        QT_TRANSLATE_NOOP(
            "attnviz::ui::HeadsTable",
            "Input dependence (our definition): the rows of all sentences grouped by the table's "
            "shape and the query position i; the mean, over every pair of sentences in a group, of "
            "the total-variation distance ½ Σ_j |p_ij − p′_ij| between their rows. From 0 to 1: "
            "exactly 0 for heads whose weights depend on positions only (Gaussian windows, random "
            "synthesizers), above 0 for dot-product. Only sentences of the same length are "
            "compared. Over the sentence list only (— otherwise, and when no two sentences have "
            "the same length)"),
        QT_TRANSLATE_NOOP(
            "attnviz::ui::HeadsTable",
            "Head importance (Michel, Levy & Neubig 2019): I_h = E_x |∂L(x)/∂ξ_h| at ξ = 1, with "
            "ξ_h a gate on the head's output and L(x) the summed token cross-entropy of sentence x "
            "under teacher forcing, divided by the ℓ2 norm of its block's scores as in the paper. "
            "It needs reference targets: \"source TAB target\" lines for translation models; a "
            "language model's line is its own target. Normalised within each block, so compare "
            "heads of one block: a block with one head scores 1 by construction. Over the sentence "
            "list only (— otherwise)")};
    return QCoreApplication::translate("attnviz::ui::HeadsTable", tips[section]);
}

// Column `section`'s tooltip: what it holds and, for a statistic, what it is computed over
// (the sentence list when `overSet`, else the current sentence).
QString headerToolTip(int section, bool overSet) {
    const QString tip = headerTip(section);
    if (section >= HeadsColumns::Entropy && section <= HeadsColumns::R2 && overSet) {
        //: %1 a column's tooltip (a statistic), completed with what it is computed over
        return QCoreApplication::translate(
                   "attnviz::ui::HeadsTable",
                   "%1. Over every sentence of the sentence list (all their rows; one "
                   "Gaussian fit for all), each row normalised over its allowed keys "
                   "(docs/analysis.md).")
            .arg(tip);
    }
    if (section >= HeadsColumns::Entropy && section <= HeadsColumns::R2) {
        //: %1 a column's tooltip (a statistic), completed with what it is computed over
        return QCoreApplication::translate(
                   "attnviz::ui::HeadsTable",
                   "%1. Over the current sentence, each row normalised over its allowed "
                   "keys (docs/analysis.md).")
            .arg(tip);
    }
    if (section >= HeadsColumns::Entropy) {
        //: %1 a column's tooltip (a statistic), completed with how its rows are normalised
        return QCoreApplication::translate(
                   "attnviz::ui::HeadsTable",
                   "%1, each row normalised over its allowed keys (docs/analysis.md).")
            .arg(tip);
    }
    return tip;
}

}  // namespace

QVariant HeadsTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= HeadsColumns::ColumnCount)
        return {};
    if (role == Qt::DisplayRole) return headerTitle(section);
    if (role == Qt::ToolTipRole) return headerToolTip(section, m_overSet);
    return {};
}

}  // namespace attnviz::ui
