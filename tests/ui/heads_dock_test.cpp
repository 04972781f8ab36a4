// SPDX-License-Identifier: GPL-3.0-or-later
// The Heads dock with real analyses of two bundled models, offscreen: one row per head, the
// numbers those of core/head_stats.h computed here directly, the hard-coded Gaussian heads
// found as Gaussian windows at their configured offsets, numeric sorting, a click or Enter
// naming the head, and a newer (or null) request superseding a running one. Over the
// sentence list: input dependence exactly 0 for Gaussian heads and equal to inputDependence
// of the models' own analyses, importance equal to headImportance on a clone, progress to
// the end, cancel leaving the table as it was, and the reasons when there is nothing to do.
// Pruning curves of a model with importance: as many points as heads plus one, from the
// unpruned evaluation, in a non-modal window of two charts that exports the figure; cancel
// leaving no curves and the dock usable.
#include "ui/heads_dock.h"

#include <gtest/gtest.h>

#include <QComboBox>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSemaphore>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QThreadPool>
#include <QToolButton>
#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "core/evaluate.h"
#include "core/head_importance.h"
#include "core/head_stats.h"
#include "core/selection.h"
#include "core/tasks.h"
#include "core/training_job.h"
#include "tests/ui/wait.h"
#include "ui/analysis_runner.h"
#include "ui/background.h"
#include "ui/chart_view.h"
#include "ui/heads_table.h"

using namespace attnviz;
using namespace attnviz::ui;
using attnviz::ui::test::waitUntil;

namespace {

// The status line and the messages folded under it (HeadsDock::notes), as a reader sees them
// when the toggle is open.
QString shownStatus(const HeadsDock& dock) {
    const QString notes = dock.notes()->text();
    return dock.status()->text() + (notes.isEmpty() ? QString() : "\n" + notes);
}

const std::string kModels = ATTNVIZ_MODELS_DIR;

std::shared_ptr<const Results> analyse(const std::vector<std::string>& files) {
    std::vector<ModelColumn> columns;
    for (const auto& f : files) columns.push_back(loadModelColumn(kModels + "/" + f));
    return std::make_shared<const Results>(analyzeAll(columns, "the cat sees the dog", ""));
}

int totalHeads(const Results& results) {
    int n = 0;
    for (const auto& r : results)
        if (r.error.empty())
            for (const auto& b : r.analysis.blocks) n += b.heads;
    return n;
}

// Waits until the dock shows its newest request, then until every worker (superseded ones
// too) has finished and its result has been delivered to the UI thread.
void settle(HeadsDock& dock) {
    ASSERT_TRUE(waitUntil([&] { return !dock.busy(); }));
    attnviz::ui::backgroundPool()->waitForDone();
    QCoreApplication::processEvents();
    QCoreApplication::processEvents();
}

QVariant cell(const HeadsDock& dock, int row, int column, int role = Qt::DisplayRole) {
    const auto* m = dock.table()->model();
    return m->data(m->index(row, column), role);
}

// The identity of a table row, read from its cells.
struct HeadId {
    int column = -1;
    BlockKind kind = BlockKind::EncoderSelf;
    int layer = -1, head = -1;
};

HeadId rowHead(const HeadsDock& dock, const Results& results, int row) {
    HeadId id;
    const std::string model = cell(dock, row, HeadsDock::Model).toString().toStdString();
    for (size_t c = 0; c < results.size(); ++c)
        if (results[c].name == model) id.column = int(c);
    const std::string block = cell(dock, row, HeadsDock::Block).toString().toStdString();
    for (BlockKind k : {BlockKind::EncoderSelf, BlockKind::DecoderSelf, BlockKind::Cross})
        if (blockLabel(k) == block) id.kind = k;
    // The index (from 0) is the value; people read it counted from 1.
    id.layer = cell(dock, row, HeadsDock::Layer, HeadsDock::ValueRole).toInt();
    id.head = cell(dock, row, HeadsDock::Head, HeadsDock::ValueRole).toInt();
    EXPECT_EQ(cell(dock, row, HeadsDock::Layer).toInt(), id.layer + 1);
    EXPECT_EQ(cell(dock, row, HeadsDock::Head).toInt(), id.head + 1);
    return id;
}

// The row showing (column, kind, layer, head), -1 when none.
int findRow(const HeadsDock& dock, const Results& results, const HeadId& want) {
    for (int r = 0; r < dock.table()->model()->rowCount(); ++r) {
        const HeadId id = rowHead(dock, results, r);
        if (id.column == want.column && id.kind == want.kind && id.layer == want.layer &&
            id.head == want.head)
            return r;
    }
    return -1;
}

const CapturedBlock* block(const Analysis& a, BlockKind kind, int layer) {
    for (const auto& b : a.blocks)
        if (b.kind == kind && b.layer == layer) return &b;
    return nullptr;
}

// Column values down the table, as displayed (parsed back to numbers).
std::vector<double> shown(const HeadsDock& dock, int column) {
    std::vector<double> out;
    for (int r = 0; r < dock.table()->model()->rowCount(); ++r) {
        bool ok = false;
        out.push_back(cell(dock, r, column).toString().toDouble(&ok));
        EXPECT_TRUE(ok) << cell(dock, r, column).toString().toStdString();
    }
    return out;
}

}  // namespace

TEST(HeadsDock, EveryHeadWithItsStatistics) {
    const auto results = analyse({"01-dot.safetensors", "09-hc-sa.safetensors"});
    ASSERT_EQ(results->size(), 2u);
    for (const auto& r : *results) ASSERT_EQ(r.error, "") << r.name;
    HeadsDock dock;
    QSignalSpy computed(&dock, &HeadsDock::computed);
    dock.setResults(results);
    EXPECT_TRUE(dock.busy());
    EXPECT_EQ(shownStatus(dock), "Computing…");
    settle(dock);
    EXPECT_EQ(computed.count(), 1);
    const int heads = totalHeads(*results);
    ASSERT_GT(heads, 0);
    EXPECT_EQ(dock.headCount(), heads);
    EXPECT_EQ(dock.table()->model()->rowCount(), heads);
    EXPECT_TRUE(shownStatus(dock).startsWith(QString("%1 heads of 2 models").arg(heads)))
        << shownStatus(dock).toStdString();
    EXPECT_FALSE(dock.table()
                     ->model()
                     ->headerData(HeadsDock::R2, Qt::Horizontal, Qt::ToolTipRole)
                     .toString()
                     .isEmpty());

    // Every head of both models' blocks, each equal to headStats computed here.
    for (size_t c = 0; c < results->size(); ++c)
        for (const auto& b : (*results)[c].analysis.blocks)
            for (int h = 0; h < b.heads; ++h) {
                const int row = findRow(dock, *results, {int(c), b.kind, b.layer, h});
                ASSERT_GE(row, 0) << b.name << " head " << h;
                EXPECT_EQ(cell(dock, row, HeadsDock::Variant).toString().toStdString(), b.variant);
                const HeadStats s =
                    headStats({{&b.weights[size_t(h)], b.kind == BlockKind::DecoderSelf}});
                const std::pair<int, double> expected[] = {
                    {HeadsDock::Entropy, s.entropy},   {HeadsDock::Confidence, s.confidence},
                    {HeadsDock::Distance, s.distance}, {HeadsDock::Mu, s.fit.offset},
                    {HeadsDock::Sigma, s.fit.sigma},   {HeadsDock::R2, s.fit.r2}};
                for (const auto& [col, x] : expected) {
                    EXPECT_DOUBLE_EQ(cell(dock, row, col, HeadsDock::ValueRole).toDouble(), x)
                        << b.name << " head " << h << " column " << col;
                    EXPECT_NEAR(cell(dock, row, col).toString().toDouble(), x, 0.0051);
                }
            }

    // The hard-coded Gaussian heads of HC-SA's encoder: windows at their configured offsets.
    const ColumnResult& hc = (*results)[1];
    const CapturedBlock* enc = block(hc.analysis, BlockKind::EncoderSelf, 0);
    ASSERT_NE(enc, nullptr);
    ASSERT_EQ(enc->variant, "gaussian");
    const std::vector<double> offsets = loadModelColumn(kModels + "/09-hc-sa.safetensors")
                                            .model->config()
                                            .block(BlockKind::EncoderSelf)
                                            .numbers("offsets");
    ASSERT_FALSE(offsets.empty());
    for (int h = 0; h < enc->heads; ++h) {
        const int row = findRow(dock, *results, {1, BlockKind::EncoderSelf, 0, h});
        ASSERT_GE(row, 0);
        EXPECT_GT(cell(dock, row, HeadsDock::R2, HeadsDock::ValueRole).toDouble(), 0.99);
        EXPECT_NEAR(cell(dock, row, HeadsDock::Mu, HeadsDock::ValueRole).toDouble(),
                    offsets[size_t(h) % offsets.size()], 0.05)
            << "head " << h;
    }
}

TEST(HeadsDock, SortsNumericallyAndNamesTheClickedHead) {
    const auto results = analyse({"01-dot.safetensors", "09-hc-sa.safetensors"});
    HeadsDock dock;
    dock.resize(900, 500);
    dock.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&dock));
    dock.setResults(results);
    settle(dock);
    ASSERT_EQ(dock.headCount(), totalHeads(*results));

    // As displayed, compared as numbers (μ has negative values of several sizes: a sort of
    // text would put "-1.00" above "-5.00" in ascending order).
    for (int col : {int(HeadsDock::R2), int(HeadsDock::Mu), int(HeadsDock::Sigma),
                    int(HeadsDock::Distance)}) {
        dock.table()->sortByColumn(col, Qt::DescendingOrder);
        const auto v = shown(dock, col);
        EXPECT_TRUE(std::is_sorted(v.rbegin(), v.rend())) << "column " << col;
    }
    dock.table()->sortByColumn(HeadsDock::Entropy, Qt::AscendingOrder);
    const auto entropy = shown(dock, HeadsDock::Entropy);
    EXPECT_TRUE(std::is_sorted(entropy.begin(), entropy.end()));
    // R² descending: the best-fitting Gaussian window first.
    dock.table()->sortByColumn(HeadsDock::R2, Qt::DescendingOrder);
    double best = -1;
    for (int r = 0; r < dock.headCount(); ++r)
        best = std::max(best, cell(dock, r, HeadsDock::R2, HeadsDock::ValueRole).toDouble());
    EXPECT_EQ(cell(dock, 0, HeadsDock::R2, HeadsDock::ValueRole).toDouble(), best);

    QSignalSpy activated(&dock, &HeadsDock::headActivated);
    auto check = [&](int row) {
        ASSERT_EQ(activated.count(), 1);
        const QList<QVariant> args = activated.takeFirst();
        const HeadId id = rowHead(dock, *results, row);
        ASSERT_GE(id.column, 0);
        EXPECT_EQ(args.at(0).toInt(), id.column);
        EXPECT_EQ(args.at(1).value<BlockKind>(), id.kind);
        EXPECT_EQ(args.at(2).toInt(), id.layer);
        EXPECT_EQ(args.at(3).toInt(), id.head);
    };
    // A click on a row of the sorted table names that row's head, not the unsorted row's.
    const int clicked = dock.headCount() - 3;
    const QModelIndex index = dock.table()->model()->index(clicked, HeadsDock::Entropy);
    dock.table()->scrollTo(index);
    QTest::mouseClick(dock.table()->viewport(), Qt::LeftButton, {},
                      dock.table()->visualRect(index).center());
    check(clicked);
    // Enter on the current row.
    dock.table()->setCurrentIndex(dock.table()->model()->index(2, HeadsDock::Model));
    QTest::keyClick(dock.table(), Qt::Key_Return);
    check(2);

    // The filter keeps the rows of matching models.
    const QString name = QString::fromStdString((*results)[1].name);
    dock.filter()->setText(name.toUpper());
    int expected = 0;
    for (const auto& r : *results)
        if (QString::fromStdString(r.name).contains(name, Qt::CaseInsensitive))
            for (const auto& b : r.analysis.blocks) expected += b.heads;
    EXPECT_EQ(dock.table()->model()->rowCount(), expected);
    for (int r = 0; r < dock.table()->model()->rowCount(); ++r)
        EXPECT_TRUE(cell(dock, r, HeadsDock::Model).toString().contains(name));
    EXPECT_TRUE(shownStatus(dock).contains(QString("%1 shown").arg(expected)));
}

TEST(HeadsDock, ANewerRequestSupersedesARunningOne) {
    const auto both = analyse({"01-dot.safetensors", "09-hc-sa.safetensors"});
    const auto one = analyse({"09-hc-sa.safetensors"});
    ASSERT_NE(totalHeads(*both), totalHeads(*one));
    HeadsDock dock;
    QSignalSpy computed(&dock, &HeadsDock::computed);
    dock.setResults(both);
    dock.setResults(one);
    EXPECT_TRUE(dock.busy());
    settle(dock);
    EXPECT_EQ(computed.count(), 1);  // the first result was dropped, not shown then replaced
    EXPECT_EQ(dock.headCount(), totalHeads(*one));
    EXPECT_TRUE(shownStatus(dock).contains("of 1 model ·")) << shownStatus(dock).toStdString();
    for (int r = 0; r < dock.headCount(); ++r)
        EXPECT_EQ(cell(dock, r, HeadsDock::Model).toString().toStdString(), (*one)[0].name);
}

TEST(HeadsDock, NullClearsTheTableAndDropsARunningComputation) {
    const auto results = analyse({"01-dot.safetensors"});
    HeadsDock dock;
    dock.setResults(results);
    settle(dock);
    ASSERT_EQ(dock.headCount(), totalHeads(*results));
    dock.setResults(nullptr);
    EXPECT_FALSE(dock.busy());
    EXPECT_EQ(dock.headCount(), 0);
    EXPECT_EQ(dock.table()->model()->rowCount(), 0);
    // Null while a computation runs: its result never reaches the table.
    QSignalSpy computed(&dock, &HeadsDock::computed);
    dock.setResults(results);
    dock.setResults(nullptr);
    settle(dock);
    EXPECT_EQ(computed.count(), 1);  // the null's
    EXPECT_EQ(dock.headCount(), 0);
}

TEST(HeadsDock, FailedColumnsAreSkippedAndNamed) {
    auto results = std::make_shared<Results>(*analyse({"01-dot.safetensors"}));
    ColumnResult failed;
    failed.name = "broken";
    failed.error = "the sentence is too long";
    results->push_back(failed);
    HeadsDock dock;
    dock.setResults(results);
    settle(dock);
    EXPECT_EQ(dock.headCount(), totalHeads(*results));
    const QString status = shownStatus(dock);
    EXPECT_TRUE(status.contains("of 1 model ·")) << status.toStdString();
    EXPECT_TRUE(status.contains("1 column failed: broken: the sentence is too long"))
        << status.toStdString();
}

namespace {

std::vector<ModelColumn> loadColumns(const std::vector<std::string>& files) {
    std::vector<ModelColumn> columns;
    for (const auto& f : files) columns.push_back(loadModelColumn(kModels + "/" + f));
    return columns;
}

// Sentences of the toy translation vocabulary, without targets; several of each length.
const QStringList kToyLines = {
    "the cat sees the dog",   "the dog sees the cat",           "we go to the river",
    "the man sees the house", "the small cat sees the big dog", "we go to the city"};

// Held-out examples of the toy translate task as "source TAB target" lines.
QStringList translateLines(int count, std::vector<Example>* examples = nullptr) {
    const auto ex = taskHeldOut(*makeTask("translate"), 1, count);
    QStringList lines;
    auto join = [](const std::vector<std::string>& words) {
        QStringList w;
        for (const auto& x : words) w << QString::fromStdString(x);
        return w.join(' ');
    };
    for (const Example& e : ex) lines << join(e.src) + "\t" + join(e.tgt);
    if (examples) *examples = ex;
    return lines;
}

// The row of (model name, kind, layer, head), -1 when none.
int findNamedRow(const HeadsDock& dock, const std::string& model, BlockKind kind, int layer,
                 int head) {
    for (int r = 0; r < dock.table()->model()->rowCount(); ++r)
        if (cell(dock, r, HeadsDock::Model).toString().toStdString() == model &&
            cell(dock, r, HeadsDock::Block).toString().toStdString() == blockLabel(kind) &&
            cell(dock, r, HeadsDock::Layer, HeadsDock::ValueRole).toInt() == layer &&
            cell(dock, r, HeadsDock::Head, HeadsDock::ValueRole).toInt() == head)
            return r;
    return -1;
}

// Runs the set computation and waits for it (and every worker) to end.
void computeSet(HeadsDock& dock) {
    QString why;
    ASSERT_TRUE(dock.computeOverSet(&why)) << why.toStdString();
    EXPECT_TRUE(dock.setBusy());
    EXPECT_FALSE(dock.progress()->isHidden());
    ASSERT_TRUE(waitUntil([&] { return !dock.setBusy(); }, 300000));
    attnviz::ui::backgroundPool()->waitForDone();
    QCoreApplication::processEvents();
}

}  // namespace

TEST(HeadsDock, OverTheSentenceListInputDependence) {
    const auto columns = loadColumns({"01-dot.safetensors", "09-hc-sa.safetensors"});
    const auto results = analyse({"01-dot.safetensors", "09-hc-sa.safetensors"});
    HeadsDock dock;
    dock.setResults(results);
    settle(dock);
    dock.setSentenceSet(columns, kToyLines);
    QSignalSpy values(dock.progress(), &QProgressBar::valueChanged);
    computeSet(dock);

    // Progress: a step per sentence and one per model, never backwards, to the end.
    EXPECT_EQ(dock.progress()->maximum(), 2 * (int(kToyLines.size()) + 1));
    EXPECT_EQ(dock.progress()->value(), dock.progress()->maximum());
    for (int i = 1; i < values.count(); ++i)
        EXPECT_LE(values.at(i - 1).at(0).toInt(), values.at(i).at(0).toInt());
    EXPECT_TRUE(dock.progress()->isHidden());
    EXPECT_TRUE(dock.showsSet());

    const int heads = totalHeads(*results);
    EXPECT_EQ(dock.headCount(), heads);
    const QString status = shownStatus(dock);
    EXPECT_TRUE(status.startsWith(QString("%1 heads of 2 models · 6 sentences").arg(heads)))
        << status.toStdString();
    EXPECT_TRUE(status.contains("6 lines without a target: no importance for seq2seq models"))
        << status.toStdString();
    for (int col : {int(HeadsDock::InputDependence), int(HeadsDock::Importance)})
        EXPECT_FALSE(dock.table()
                         ->model()
                         ->headerData(col, Qt::Horizontal, Qt::ToolTipRole)
                         .toString()
                         .isEmpty());

    // Every Gaussian self-attention head of HC-SA: exactly 0; some dot-product head: > 0.
    const std::string dot = columns[0].name, hc = columns[1].name;
    int gaussian = 0;
    double mostDependent = 0;
    for (int r = 0; r < dock.headCount(); ++r) {
        EXPECT_EQ(cell(dock, r, HeadsDock::Importance).toString(), "—");
        const double x = cell(dock, r, HeadsDock::InputDependence, HeadsDock::ValueRole).toDouble();
        const std::string model = cell(dock, r, HeadsDock::Model).toString().toStdString();
        if (model == hc && cell(dock, r, HeadsDock::Variant).toString() == "gaussian") {
            const std::string block = cell(dock, r, HeadsDock::Block).toString().toStdString();
            EXPECT_TRUE(block == blockLabel(BlockKind::EncoderSelf) ||
                        block == blockLabel(BlockKind::DecoderSelf));
            EXPECT_EQ(x, 0.0) << "row " << r;
            EXPECT_EQ(cell(dock, r, HeadsDock::InputDependence).toString(), "0.000");
            ++gaussian;
        }
        if (model == dot && cell(dock, r, HeadsDock::Variant).toString() == "dot")
            mostDependent = std::max(mostDependent, x);
    }
    int gaussianHeads = 0;  // in HC-SA's analysis of the current sentence
    for (const auto& b : (*results)[1].analysis.blocks)
        if (b.variant == "gaussian") gaussianHeads += b.heads;
    EXPECT_GT(gaussianHeads, 0);
    EXPECT_EQ(gaussian, gaussianHeads);
    EXPECT_GT(mostDependent, 0.0);

    // One dot-product head recomputed here: every line through the model (on a clone), the
    // head's tables, inputDependence and headStats.
    Model m = columns[0].model->clone();
    std::vector<Analysis> runs;
    for (const QString& line : kToyLines) runs.push_back(m.analyze(line.toStdString()));
    for (BlockKind kind : {BlockKind::EncoderSelf, BlockKind::Cross}) {
        const int layer = 1, head = 2;
        std::vector<HeadTable> tables;
        for (const Analysis& a : runs)
            tables.push_back({&block(a, kind, layer)->weights[size_t(head)], false});
        int compared = 0;
        const double expected = inputDependence(tables, &compared);
        ASSERT_GT(compared, 0);
        const int row = findNamedRow(dock, dot, kind, layer, head);
        ASSERT_GE(row, 0);
        EXPECT_DOUBLE_EQ(
            cell(dock, row, HeadsDock::InputDependence, HeadsDock::ValueRole).toDouble(), expected);
        EXPECT_GT(expected, 0.0);
        const HeadStats s = headStats(tables);
        EXPECT_DOUBLE_EQ(cell(dock, row, HeadsDock::Entropy, HeadsDock::ValueRole).toDouble(),
                         s.entropy);
        EXPECT_DOUBLE_EQ(cell(dock, row, HeadsDock::R2, HeadsDock::ValueRole).toDouble(), s.fit.r2);
    }

    // A new current sentence shows its own statistics again; the set's columns read "—".
    dock.setResults(results);
    EXPECT_FALSE(dock.showsSet());
    settle(dock);
    EXPECT_EQ(dock.headCount(), heads);
    EXPECT_TRUE(shownStatus(dock).contains("current sentence")) << shownStatus(dock).toStdString();
    for (int r = 0; r < dock.headCount(); ++r) {
        EXPECT_EQ(cell(dock, r, HeadsDock::InputDependence).toString(), "—");
        EXPECT_EQ(cell(dock, r, HeadsDock::Importance).toString(), "—");
    }
    // Its "—" says why: it compares sentences.
    EXPECT_TRUE(cell(dock, 0, HeadsDock::InputDependence, Qt::ToolTipRole)
                    .toString()
                    .contains("over the sentence list only"));
}

// Sentences of three different lengths: no two tables share a shape, so input dependence is
// "—" everywhere, and the cell's tooltip and a footnote say the rule it needs.
TEST(HeadsDock, InputDependenceDashSaysWhy) {
    const auto columns = loadColumns({"01-dot.safetensors"});
    HeadsDock dock;
    dock.setResults(analyse({"01-dot.safetensors"}));
    settle(dock);
    dock.setSentenceSet(columns,
                        {"the cat", "the cat sees the dog", "the small cat sees the big dog"});
    computeSet(dock);
    ASSERT_TRUE(dock.showsSet());
    ASSERT_GT(dock.headCount(), 0);
    int encoderRows = 0;
    for (int r = 0; r < dock.headCount(); ++r) {
        if (cell(dock, r, HeadsDock::Block).toString() != "enc self") continue;
        ++encoderRows;
        EXPECT_EQ(cell(dock, r, HeadsDock::InputDependence).toString(), "—");
        const QString tip = cell(dock, r, HeadsDock::InputDependence, Qt::ToolTipRole).toString();
        EXPECT_TRUE(tip.contains("same number of tokens")) << tip.toStdString();
    }
    EXPECT_GT(encoderRows, 0);
    // Two messages at least (no targets, the dashes): folded under the toggle, which opens.
    EXPECT_FALSE(dock.notesToggle()->isHidden());
    EXPECT_TRUE(dock.notes()->isHidden());
    EXPECT_TRUE(
        dock.notes()->text().contains("at least 2 sentences of the list with the same "
                                      "number of tokens"))
        << dock.notes()->text().toStdString();
    dock.resize(1100, 300);
    dock.show();
    dock.notesToggle()->setChecked(true);
    EXPECT_FALSE(dock.notes()->isHidden());
    EXPECT_TRUE(dock.notesToggle()->text().startsWith("Messages ("));
    if (const QByteArray dir = qgetenv("ATTNVIZ_GRAB_DIR"); !dir.isEmpty()) {
        QCoreApplication::processEvents();
        dock.grab().save(QString::fromUtf8(dir) + "/heads-messages.png");
    }
}

TEST(HeadsDock, OverTheSentenceListImportanceWithTargets) {
    const auto columns = loadColumns({"01-dot.safetensors", "09-hc-sa.safetensors"});
    std::vector<Example> examples;
    const QStringList lines = translateLines(8, &examples);
    HeadsDock dock;
    dock.setSentenceSet(columns, lines);
    computeSet(dock);
    ASSERT_TRUE(dock.showsSet());
    EXPECT_TRUE(shownStatus(dock).startsWith(
        QString("%1 heads of 2 models · 8 sentences").arg(dock.headCount())))
        << shownStatus(dock).toStdString();
    EXPECT_FALSE(shownStatus(dock).contains("without a target"));

    // Every head has its importance; per block, the normalised scores have ℓ2 norm 1.
    std::map<std::tuple<std::string, int, int>, double> squares;
    for (int r = 0; r < dock.headCount(); ++r) {
        const double x = cell(dock, r, HeadsDock::Importance, HeadsDock::ValueRole).toDouble();
        ASSERT_TRUE(std::isfinite(x)) << "row " << r;
        squares[{cell(dock, r, HeadsDock::Model).toString().toStdString(),
                 cell(dock, r, HeadsDock::Block, HeadsDock::ValueRole).toInt(),
                 cell(dock, r, HeadsDock::Layer).toInt()}] += x * x;
    }
    for (const auto& [key, sum] : squares) EXPECT_NEAR(sum, 1.0, 1e-9);

    // Recomputed here on a clone, from the task's own examples, for every head of each model.
    for (const ModelColumn& column : columns) {
        const auto expected = headImportance(column.model->clone(), examples);
        ASSERT_FALSE(expected.empty());
        for (const HeadImportance& h : expected) {
            const int row = findNamedRow(dock, column.name, h.kind, h.layer, h.head);
            ASSERT_GE(row, 0);
            EXPECT_NEAR(cell(dock, row, HeadsDock::Importance, HeadsDock::ValueRole).toDouble(),
                        h.normalised, 1e-9)
                << column.name << " " << blockLabel(h.kind) << " " << h.layer << " " << h.head;
        }
    }
}

TEST(HeadsDock, CancelLeavesTheTableAsItWas) {
    const auto columns = loadColumns({"01-dot.safetensors", "09-hc-sa.safetensors"});
    const auto results = analyse({"01-dot.safetensors", "09-hc-sa.safetensors"});
    HeadsDock dock;
    dock.setResults(results);
    settle(dock);
    const QString before = shownStatus(dock);
    const int heads = dock.headCount();
    QSignalSpy computed(&dock, &HeadsDock::computed);
    dock.setSentenceSet(columns, translateLines(200));
    ASSERT_TRUE(dock.computeOverSet());
    EXPECT_FALSE(dock.cancelButton()->isHidden());
    dock.cancel();
    EXPECT_FALSE(dock.setBusy());
    EXPECT_TRUE(dock.progress()->isHidden());
    EXPECT_TRUE(dock.cancelButton()->isHidden());
    attnviz::ui::backgroundPool()->waitForDone();  // the worker stops at its next check
    QCoreApplication::processEvents();
    EXPECT_EQ(computed.count(), 0);
    EXPECT_FALSE(dock.showsSet());
    EXPECT_EQ(dock.headCount(), heads);
    EXPECT_TRUE(shownStatus(dock).startsWith(before)) << shownStatus(dock).toStdString();
    for (int r = 0; r < dock.headCount(); ++r)
        EXPECT_EQ(cell(dock, r, HeadsDock::InputDependence).toString(), "—");

    // Other lines while a computation runs cancel it: it was over the old ones.
    ASSERT_TRUE(dock.computeOverSet());
    dock.setSentenceSet(columns, kToyLines);
    EXPECT_FALSE(dock.setBusy());
    attnviz::ui::backgroundPool()->waitForDone();
    QCoreApplication::processEvents();
    EXPECT_FALSE(dock.showsSet());
}

// The time left at the rate so far, by hand: 10 of 40 steps in 20 s leave 30 steps at 2 s.
TEST(HeadsDock, TimeLeftFromTheRateSoFar) {
    EXPECT_EQ(timeLeft(20000, 10, 40), "about 1 min left");
    EXPECT_EQ(timeLeft(10000, 10, 40), "about 30 s left");    // 30 steps at 1 s
    EXPECT_EQ(timeLeft(10000, 10, 22), "about 10 s left");    // 12 s, to 5 s
    EXPECT_EQ(timeLeft(10000, 10, 23), "about 15 s left");    // 13 s
    EXPECT_EQ(timeLeft(5000, 10, 20), "a few seconds left");  // 5 s
    EXPECT_EQ(timeLeft(60000, 1, 81), "about 1 h 20 min left");
    EXPECT_EQ(timeLeft(60000, 2, 7), "about 3 min left");  // 150 s
    // No rate yet: nothing done, under a second, or done.
    EXPECT_EQ(timeLeft(5000, 0, 40), "");
    EXPECT_EQ(timeLeft(900, 10, 40), "");
    EXPECT_EQ(timeLeft(5000, 40, 40), "");
    // The line beside the bar: the sentence being analysed of every model's, and the model.
    EXPECT_EQ(setProgressText(0, 20, 2, 0, 0, 42), "Sentence 1 of 40 · model 1 of 2");
    EXPECT_EQ(setProgressText(25, 20, 2, 13000, 26, 42),
              "Sentence 26 of 40 · model 2 of 2 · a few seconds left");  // 16 steps at 0.5 s
    EXPECT_EQ(setProgressText(40, 20, 2, 20000, 41, 42),
              "Sentence 40 of 40 · model 2 of 2 · a few seconds left");
    EXPECT_EQ(setProgressText(3, 10, 1, 6000, 3, 11), "Sentence 4 of 10 · about 15 s left");
    // Over test images: the same counts, of images.
    EXPECT_EQ(setProgressText(1000, 1000, 11, 0, 1001, 11011, true),
              "Image 1001 of 11000 · model 2 of 11");
    EXPECT_EQ(pruneProgressText(0, 0, 26), "Evaluation 1 of 26");
    EXPECT_EQ(pruneProgressText(10000, 5, 26), "Evaluation 6 of 26 · about 40 s left");  // 42 s
}

// While a set computation runs, the line beside the bar says which sentence of how many (and
// which model); it goes with the bar.
TEST(HeadsDock, ProgressSaysTheSentenceOfHowMany) {
    const auto columns = loadColumns({"01-dot.safetensors", "09-hc-sa.safetensors"});
    HeadsDock dock;
    const QStringList lines = translateLines(200);
    dock.setSentenceSet(columns, lines);
    EXPECT_TRUE(dock.progressText()->isHidden());
    ASSERT_TRUE(dock.computeOverSet());
    EXPECT_FALSE(dock.progressText()->isHidden());
    const QString first = dock.progressText()->text();
    EXPECT_TRUE(first.startsWith("Sentence 1 of ") && first.endsWith(" · model 1 of 2"))
        << first.toStdString();
    const int all = first.section(' ', 3, 3).toInt();
    EXPECT_EQ(all, dock.progress()->maximum() - 2);  // steps: sentences + 1 per model
    EXPECT_TRUE(waitUntil([&] { return !dock.progressText()->text().startsWith("Sentence 1 of"); }))
        << dock.progressText()->text().toStdString();
    dock.cancel();
    EXPECT_TRUE(dock.progressText()->isHidden());
    attnviz::ui::backgroundPool()->waitForDone();
    QCoreApplication::processEvents();
}

TEST(HeadsDock, OverTheSentenceListNeedsModelsAndTwoSentences) {
    HeadsDock dock;
    QString why;
    dock.setSentenceSet({}, kToyLines);
    EXPECT_FALSE(dock.computeOverSet(&why));
    EXPECT_EQ(why, "no models");
    const auto columns = loadColumns({"01-dot.safetensors"});
    dock.setSentenceSet(columns, {"the cat sees the dog", "   ", ""});
    EXPECT_FALSE(dock.computeOverSet(&why));
    EXPECT_TRUE(why.contains("1 sentence") && why.contains("2 or more")) << why.toStdString();
    EXPECT_FALSE(dock.setBusy());
    EXPECT_TRUE(shownStatus(dock).contains(why));

    // A model that fails on every sentence: said in the status line, the table untouched.
    QString tooLong;
    for (int i = 0; i < Model::kMaxTokens + 10; ++i) tooLong += "cat ";
    dock.setSentenceSet(columns, {tooLong, tooLong + "dog"});
    computeSet(dock);
    EXPECT_FALSE(dock.showsSet());
    EXPECT_EQ(dock.headCount(), 0);
    EXPECT_TRUE(
        shownStatus(dock).contains(QString("1 column failed: %1: no sentence could be analysed")
                                       .arg(QString::fromStdString(columns[0].name))))
        << shownStatus(dock).toStdString();
}

TEST(HeadsDock, PruningCurvesOfAModelWithImportance) {
    const auto columns = loadColumns({"01-dot.safetensors", "09-hc-sa.safetensors"});
    std::vector<Example> examples;
    const QStringList lines = translateLines(8, &examples);
    HeadsDock dock;
    QString why;
    // Nothing to prune before a set computation gave importance.
    EXPECT_FALSE(dock.pruneButton()->isEnabled());
    EXPECT_FALSE(dock.computePruning(&why));
    EXPECT_TRUE(why.contains("compute over the sentence list")) << why.toStdString();
    EXPECT_FALSE(
        dock.exportPruning(QString::fromStdString(::testing::TempDir() + "none.svg"), &why));
    dock.setSentenceSet(columns, lines);
    computeSet(dock);
    ASSERT_TRUE(dock.showsSet());
    EXPECT_TRUE(dock.pruneButton()->isEnabled());
    ASSERT_EQ(dock.pruneModels()->count(), 2);
    const int dot = dock.pruneModels()->findText(QString::fromStdString(columns[0].name));
    ASSERT_GE(dot, 0);
    dock.pruneModels()->setCurrentIndex(dot);

    // Cancelled: no curves, no window, the buttons back.
    ASSERT_TRUE(dock.computePruning(&why)) << why.toStdString();
    EXPECT_TRUE(dock.pruneBusy());
    EXPECT_FALSE(dock.progress()->isHidden());
    EXPECT_FALSE(dock.cancelButton()->isHidden());
    EXPECT_FALSE(dock.pruneButton()->isEnabled());
    EXPECT_FALSE(dock.overSetButton()->isEnabled());
    QSignalSpy pruned(&dock, &HeadsDock::pruned);
    dock.cancel();
    EXPECT_FALSE(dock.pruneBusy());
    attnviz::ui::backgroundPool()->waitForDone();
    QCoreApplication::processEvents();
    EXPECT_EQ(pruned.count(), 0);
    EXPECT_EQ(dock.pruneCurves(), nullptr);
    EXPECT_EQ(dock.pruneWindow(), nullptr);
    EXPECT_TRUE(dock.progress()->isHidden());
    EXPECT_TRUE(dock.cancelButton()->isHidden());
    EXPECT_TRUE(dock.pruneButton()->isEnabled());
    EXPECT_TRUE(dock.overSetButton()->isEnabled());
    EXPECT_TRUE(dock.showsSet());
    EXPECT_TRUE(shownStatus(dock).contains("Pruning curves: cancelled"))
        << shownStatus(dock).toStdString();

    // Again, to the end.
    ASSERT_TRUE(dock.computePruning(&why)) << why.toStdString();
    ASSERT_TRUE(waitUntil([&] { return !dock.pruneBusy(); }, 300000));
    attnviz::ui::backgroundPool()->waitForDone();
    QCoreApplication::processEvents();
    EXPECT_EQ(pruned.count(), 1);
    const PruneCurves* curves = dock.pruneCurves();
    ASSERT_NE(curves, nullptr);
    EXPECT_EQ(dock.pruneModelName().toStdString(), columns[0].name);
    Model m = columns[0].model->clone();
    const size_t heads = headImportance(m, examples).size();
    ASSERT_GT(heads, 0u);
    EXPECT_EQ(curves->sentences, 8);
    EXPECT_EQ(curves->byImportance.size(), heads + 1);
    EXPECT_EQ(curves->random.size(), heads + 1);
    EXPECT_EQ(dock.progress()->maximum(), int(2 * (heads + 1)));
    EXPECT_TRUE(dock.progress()->isHidden());
    // The first point: the model unpruned, evaluated here on the same examples.
    const Evaluation unpruned = evaluate(m, examples, {64, true});
    ASSERT_TRUE(unpruned.bleu.has_value());
    for (const auto* curve : {&curves->byImportance, &curves->random}) {
        EXPECT_DOUBLE_EQ(curve->front().loss, unpruned.loss);
        ASSERT_TRUE(curve->front().bleu.has_value());
        EXPECT_DOUBLE_EQ(*curve->front().bleu, 100 * unpruned.bleu->score);
    }
    EXPECT_TRUE(shownStatus(dock).contains("Pruning curves of")) << shownStatus(dock).toStdString();

    // Their window: non-modal, two charts (BLEU, loss) of two series, heads + 1 points each.
    ASSERT_NE(dock.pruneWindow(), nullptr);
    EXPECT_TRUE(dock.pruneWindow()->isVisible());
    EXPECT_FALSE(dock.pruneWindow()->isModal());
    ASSERT_NE(dock.pruneChart(), nullptr);
    const render::ChartGrid& grid = dock.pruneChart()->charts();
    ASSERT_EQ(grid.charts.size(), 2u);
    EXPECT_EQ(grid.charts[0].title, "BLEU");
    for (const auto& chart : grid.charts) {
        ASSERT_EQ(chart.series.size(), 2u) << chart.title;
        for (const auto& se : chart.series) EXPECT_EQ(se.y.size(), heads + 1) << se.name;
    }
    EXPECT_DOUBLE_EQ(grid.charts[1].series[0].y[0], unpruned.loss);
    dock.pruneChart()->grab();  // paints

    // Export: the figure of `attnviz-cli render --prune`.
    const QString svg = QString::fromStdString(::testing::TempDir() + "heads_pruning.svg");
    QFile::remove(svg);
    QString error;
    ASSERT_TRUE(dock.exportPruning(svg, &error)) << error.toStdString();
    QFile f(svg);
    ASSERT_TRUE(f.open(QIODevice::ReadOnly));
    EXPECT_TRUE(f.readAll().contains("least important first"));
    EXPECT_FALSE(dock.exportPruning(svg + ".txt", &error));
    EXPECT_FALSE(error.isEmpty());

    // Other sentences: the importance is no longer theirs; the curves stay.
    dock.setSentenceSet(columns, kToyLines);
    EXPECT_FALSE(dock.pruneButton()->isEnabled());
    EXPECT_EQ(dock.pruneModels()->count(), 0);
    EXPECT_FALSE(dock.computePruning(&why));
    EXPECT_NE(dock.pruneCurves(), nullptr);
}

// Qt draws with its global thread pool (image conversion and scaling, the UI thread waiting for
// the pieces): the analysis runs on threads of its own (ui/background.h), so that a busy global
// pool never holds it, nor it the painting. With every thread of the global pool held, a
// sentence is still analysed. (No widget is shown here: painting itself would wait.)
TEST(BackgroundPool, AnalysisNeverWaitsForQtsGlobalPool) {
    // Every thread of the global pool held (an idle one would take queued work past the
    // limit), and no more started while they are.
    QThreadPool* global = QThreadPool::globalInstance();
    const int threads = global->maxThreadCount();
    QSemaphore release, running;
    for (int t = 0; t < threads; ++t)
        global->start([&] {
            running.release();
            release.acquire();
        });
    ASSERT_TRUE(running.tryAcquire(threads, 10000));
    AnalysisRunner runner;
    QSignalSpy analysed(&runner, &AnalysisRunner::finished);
    runner.request({loadModelColumn(kModels + "/01-dot.safetensors")}, "the cat sees the dog", "");
    const bool done = waitUntil([&] { return !analysed.isEmpty(); }, 20000);
    release.release(threads);
    global->waitForDone();
    ASSERT_TRUE(done) << "the analysis waited for Qt's global thread pool";
    const auto results = analysed[0][0].value<std::shared_ptr<const Results>>();
    ASSERT_TRUE(results);
    EXPECT_EQ(results->size(), 1u);
}
