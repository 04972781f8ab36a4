// SPDX-License-Identifier: GPL-3.0-or-later
// The one road from results to pixels: which tables a request selects, that they share the
// results' matrices, their titles and colour-scale tops, the query profile, the data export,
// and the Qt-free workspace loading that feeds them.
#include "core/selection.h"

#include <gtest/gtest.h>

#include <fstream>

#include "core/head_stats.h"
#include "test_util.h"

using namespace attnviz;

namespace {

ModelColumn column(const std::string& config, const std::string& name) {
    ModelColumn c;
    c.name = name;
    c.model = std::make_shared<Model>(test::makeModel(test::readConfig(config)));
    return c;
}

struct Fixture {
    std::vector<ModelColumn> columns{column("dot", "dot"), column("gaussian", "gauss")};
    std::shared_ptr<const Results> results =
        std::make_shared<const Results>(analyzeAll(columns, "I want to go", ""));
};

}  // namespace

TEST(Selection, EveryHeadOfEveryModelSharesTheResultsMatrices) {
    Fixture f;
    ASSERT_EQ(f.results->size(), 2u);
    const Selection s = selectTables(f.results, SelectionRequest{});
    ASSERT_TRUE(s.error.empty()) << s.error;
    ASSERT_EQ(s.columns.size(), 2u);
    const CapturedBlock& b = (*f.results)[1].analysis.blocks.front();
    ASSERT_EQ(b.kind, BlockKind::EncoderSelf);
    EXPECT_EQ(s.rows, b.heads);
    const SelectedTable& t = s.columns[1].tables[1];
    EXPECT_EQ(t.weights.get(), &b.weights[1]);                           // no copy
    EXPECT_EQ(t.queries.get(), &(*f.results)[1].analysis.sourceLabels);  // the labels, shared
    EXPECT_EQ(t.where, "enc self L1 · head 2");                          // for people, from 1
    EXPECT_EQ(t.head, "1");                                              // the data's index
    EXPECT_EQ(s.columns[1].title, "gauss");
    EXPECT_EQ(s.columns[1].variant, "gaussian");
    double top = 0;
    for (const auto* table : tablesOf(s)) top = std::max(top, double(table->weights->maxCoeff()));
    EXPECT_DOUBLE_EQ(s.maxWeight, top);
    for (const auto* table : tablesOf(s)) EXPECT_DOUBLE_EQ(table->scaleMax, top);  // shared
}

TEST(Selection, MeanListsAndOwnScales) {
    Fixture f;
    SelectionRequest q;
    q.heads = "mean";
    q.sharedScale = false;
    const Selection mean = selectTables(f.results, q);
    ASSERT_EQ(mean.rows, 1);
    const SelectedTable& m = mean.columns[0].tables[0];
    const auto& w = (*f.results)[0].analysis.blocks.front().weights;
    Mat expect = Mat::Zero(w[0].rows(), w[0].cols());
    for (const auto& h : w) expect += h / Scalar(w.size());
    EXPECT_TRUE(m.weights->isApprox(expect, 1e-6f));
    EXPECT_EQ(m.head, "mean");
    EXPECT_EQ(m.where, "enc self L1 · mean of " + std::to_string(w.size()) + " heads");
    EXPECT_DOUBLE_EQ(m.scaleMax, double(m.weights->maxCoeff()));  // its own scale
    q.heads = "2, 0";
    const Selection two = selectTables(f.results, q);
    ASSERT_EQ(two.rows, 2);
    EXPECT_EQ(two.columns[0].tables[0].head, "2");
    q.heads = "0,9";
    const Selection bad = selectTables(f.results, q);
    EXPECT_NE(bad.error.find("head '9' does not exist in dot"), std::string::npos) << bad.error;
    q.heads = "all";
    q.layer = 7;  // the eighth layer: the Problems dock counts layers from 1, as the panels do
    EXPECT_EQ(selectTables(f.results, q).error, "dot has no enc self block in layer 8");
    EXPECT_EQ(selectTables(f.results, SelectionRequest{}).single(1, 3).columns[0].tables[0].head,
              "3");
}

TEST(Selection, ProfileAndDataExport) {
    Fixture f;
    const Profile models = selectProfile(*f.results, BlockKind::EncoderSelf, 0, 3, -1);
    ASSERT_EQ(models.lines.size(), 2u);
    EXPECT_EQ(models.query, "go");
    // Numbered for people, from 1 (the index is 3: "I want to go").
    EXPECT_EQ(models.title, "Query 4 \"go\" · enc self L1 · every model, mean of heads");
    const Profile heads = selectProfile(*f.results, BlockKind::EncoderSelf, 0, 3, 1);
    EXPECT_EQ(heads.lines.size(), (*f.results)[1].analysis.blocks.front().weights.size());
    EXPECT_EQ(heads.lines[0].second[2],
              double((*f.results)[1].analysis.blocks.front().weights[0](3, 2)));
    EXPECT_FALSE(selectProfile(*f.results, BlockKind::EncoderSelf, 0, 99, -1).error.empty());
    const std::string csv = exportDataBytes(f.results, f.columns, SelectionRequest{}, "csv");
    const size_t rows = size_t(std::count(csv.begin(), csv.end(), '\n'));
    EXPECT_EQ(rows, 1 + 2 * (*f.results)[0].analysis.blocks.front().weights.size() * 5 * 5);
    EXPECT_NE(test::errorOf([&] { exportDataBytes(f.results, f.columns, {}, "txt"); }), "");
}

// Issue 29: "I want to go to the station" has two "to"s; the profile says which one.
TEST(Selection, AProfileOfARepeatedTokenSaysWhichOccurrence) {
    std::vector<ModelColumn> columns{column("dot", "dot")};
    const Results r = analyzeAll(columns, "to go to to", "");
    const Profile first = selectProfile(r, BlockKind::EncoderSelf, 0, 0, -1);
    EXPECT_EQ(first.title.substr(0, 18), "Query 1 \"to\" (1st)") << first.title;
    const Profile third = selectProfile(r, BlockKind::EncoderSelf, 0, 3, -1);
    EXPECT_EQ(third.title.substr(0, 18), "Query 4 \"to\" (3rd)") << third.title;
    const Profile go = selectProfile(r, BlockKind::EncoderSelf, 0, 1, -1);
    EXPECT_EQ(go.title.substr(0, 15), "Query 2 \"go\" ·") << go.title;
}

TEST(Selection, OrdinalsAndOccurrences) {
    const std::vector<std::pair<int, std::string>> expect = {
        {1, "1st"},   {2, "2nd"},     {3, "3rd"},     {4, "4th"},    {10, "10th"},
        {11, "11th"}, {12, "12th"},   {13, "13th"},   {21, "21st"},  {22, "22nd"},
        {23, "23rd"}, {101, "101st"}, {111, "111th"}, {112, "112th"}};
    for (const auto& [n, text] : expect) EXPECT_EQ(ordinal(n), text) << n;
    Wording zh;
    zh.nth1 = zh.nth2 = zh.nth3 = zh.nth = "第%1个";
    zh.occurrence = "（%1）";
    EXPECT_EQ(ordinal(12, zh), "第12个");
    const std::vector<std::string> t = {"I", "want", "to", "go", "to", "the", "st", "ation"};
    EXPECT_EQ(occurrenceNote(t, 2), "(1st)");
    EXPECT_EQ(occurrenceNote(t, 4), "(2nd)");
    EXPECT_EQ(occurrenceNote(t, 4, zh), "（第2个）");
    EXPECT_EQ(occurrenceNote(t, 3), "");
    EXPECT_EQ(occurrenceNote(t, -1), "");
    EXPECT_EQ(occurrenceNote(t, 8), "");
    EXPECT_EQ(occurrenceNote({}, 0), "");
}

TEST(Workspace, LoadsADirectoryByFileNameAndSkipsBrokenFiles) {
    const std::string dir = test::tempPath("workspace_dir");
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    test::makeModel(test::readConfig("dot")).save(dir + "/02-plain-dot.safetensors");
    test::makeModel(test::readConfig("gaussian")).save(dir + "/01-gauss.safetensors");
    std::ofstream(dir + "/03-broken.safetensors") << "not a checkpoint";
    std::vector<std::string> errors;
    const auto cols = loadModelDirectory(dir, &errors);
    ASSERT_EQ(cols.size(), 2u);
    EXPECT_EQ(cols[0].name, "gauss");
    EXPECT_EQ(cols[1].name, "plain-dot");
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_NE(errors[0].find("03-broken.safetensors"), std::string::npos) << errors[0];
}

// Difference maps: every column but the base's, each table exactly its own minus the base's
// (same block, layer and head), on a diverging scale topped by the largest |value|.
// Comparison presets (issue 29) pick models by the bundled files' names, in the preset's
// order, with alternatives ("hc-sa|gaussian") and without the ones a set lacks.
TEST(Workspace, ComparisonPresetsPickModelsByFileNameInTheirOrder) {
    auto col = [](const std::string& path) {
        ModelColumn c;
        c.name = "shown name";
        c.path = path;
        return c;
    };
    EXPECT_EQ(presetKey(col("m/en-es/09-hc-sa.safetensors")), "hc-sa");
    EXPECT_EQ(presetKey(col("m/lm/lm-dot.safetensors")), "dot");
    EXPECT_EQ(presetKey(col("m/07-random+dot.safetensors")), "random+dot");
    EXPECT_EQ(presetKey(col("m/2024-notes.safetensors")), "notes");
    EXPECT_EQ(presetKey(col("m/dot.safetensors")), "dot");
    EXPECT_EQ(presetKey(col("")), "");  // trained here, never saved
    const std::vector<ModelColumn> set{
        col("s/01-dot.safetensors"),          col("s/03-random.safetensors"),
        col("s/04-fixed-random.safetensors"), col("s/09-hc-sa.safetensors"),
        col("s/10-hc-all.safetensors"),       col("")};
    auto keys = [](const std::vector<ModelColumn>& cs) {
        std::vector<std::string> out;
        for (const auto& c : cs) out.push_back(presetKey(c));
        return out;
    };
    const ComparisonPreset* dotHc = findComparisonPreset("dot-hc-sa");
    ASSERT_TRUE(dotHc);
    EXPECT_EQ(keys(presetColumns(set, *dotHc)), (std::vector<std::string>{"dot", "hc-sa"}));
    EXPECT_EQ(keys(presetColumns(set, *findComparisonPreset("hc-sa-paper"))),
              (std::vector<std::string>{"dot", "hc-sa", "hc-all"}));  // no 1-head model here
    EXPECT_EQ(keys(presetColumns(set, *findComparisonPreset("synthesizer"))),
              (std::vector<std::string>{"dot", "random", "fixed-random"}));  // not "random" twice
    EXPECT_EQ(presetColumns(set, *findComparisonPreset("all")).size(), set.size());
    const std::vector<ModelColumn> lm{col("lm/lm-dot.safetensors"),
                                      col("lm/lm-gaussian.safetensors")};
    EXPECT_EQ(keys(presetColumns(lm, *dotHc)), (std::vector<std::string>{"dot", "gaussian"}));
    EXPECT_EQ(findComparisonPreset("nope"), nullptr);
}

TEST(Selection, DifferenceIsEachTableMinusTheBaseColumns) {
    Fixture f;
    SelectionRequest q;
    q.show = TableKind::Difference;
    q.differenceBase = 1;  // minus "gauss"
    const Selection s = selectTables(f.results, q);
    ASSERT_TRUE(s.error.empty()) << s.error;
    ASSERT_EQ(s.columns.size(), 1u);
    EXPECT_EQ(s.columns[0].title, "dot − gauss");
    EXPECT_TRUE(s.diverging);
    const auto& a = (*f.results)[0].analysis.blocks.front().weights;
    const auto& b = (*f.results)[1].analysis.blocks.front().weights;
    ASSERT_EQ(s.columns[0].tables.size(), a.size());
    double top = 0;
    for (size_t h = 0; h < a.size(); ++h) {
        const SelectedTable& t = s.columns[0].tables[h];
        EXPECT_TRUE(t.diverging);
        EXPECT_EQ(t.where, "enc self L1 · head " + std::to_string(h + 1) + " − gauss");
        const Mat want = a[h] - b[h];
        EXPECT_EQ(*t.weights, want);
        top = std::max(top, double(want.cwiseAbs().maxCoeff()));
    }
    EXPECT_DOUBLE_EQ(s.maxWeight, top);
    EXPECT_GT(top, 0.05);  // a learned-free dot head is not a Gaussian window

    // One column: nothing to subtract from.
    const auto one = std::make_shared<const Results>(Results{(*f.results)[0]});
    q.differenceBase = 0;
    EXPECT_NE(selectTables(one, q).error.find("two model columns"), std::string::npos);
}

TEST(Selection, DifferenceNeedsTheSameTokens) {
    std::vector<ModelColumn> columns{column("dot", "a"), column("dot", "b")};
    Results r = analyzeAll(columns, "I want to go", "");
    r[1] = analyzeAll({columns[1]}, "I want", "")[0];  // other tokens
    SelectionRequest q;
    q.show = TableKind::Difference;
    const Selection s = selectTables(std::make_shared<const Results>(r), q);
    EXPECT_NE(s.error.find("tokens differ from a"), std::string::npos) << s.error;
    EXPECT_TRUE(s.columns[0].tables.empty());
}

// Rollout: the product of ½W̄ + ½I (rows renormalised) through the self-attention layers;
// row-stochastic; not defined for cross-attention.
TEST(Selection, RolloutThroughTheLayers) {
    Fixture f;
    SelectionRequest q;
    q.show = TableKind::Rollout;
    const Selection s = selectTables(f.results, q);
    ASSERT_TRUE(s.error.empty()) << s.error;
    ASSERT_EQ(s.columns.size(), 2u);
    const Analysis& a = (*f.results)[0].analysis;
    std::vector<Mat> means;
    for (const auto& b : a.blocks)
        if (b.kind == BlockKind::EncoderSelf) {
            Mat m = b.weights[0];
            for (size_t h = 1; h < b.weights.size(); ++h) m += b.weights[h];
            means.push_back(m / Scalar(b.weights.size()));
        }
    ASSERT_GE(means.size(), 2u);
    const SelectedTable& t = s.columns[0].tables.at(0);
    EXPECT_TRUE(t.weights->isApprox(attentionRollout(means), 1e-6f));
    EXPECT_EQ(t.where, "enc self · rollout through L1–L" + std::to_string(means.size()));
    for (Eigen::Index i = 0; i < t.weights->rows(); ++i)
        EXPECT_NEAR(t.weights->row(i).sum(), 1.0, 1e-5);
    EXPECT_FALSE(s.diverging);
    // Every layer of one model: layer L's column rolls out through L0..L only.
    q.allLayersOf = 0;
    const Selection layers = selectTables(f.results, q);
    ASSERT_EQ(layers.columns.size(), means.size());
    EXPECT_TRUE(layers.columns[0].tables[0].weights->isApprox(attentionRollout({means[0]}), 1e-6f));
    q.allLayersOf = -1;
    q.kind = BlockKind::Cross;
    EXPECT_NE(selectTables(f.results, q).error.find("self-attention"), std::string::npos);
}

// A hard-coded Gaussian head minus its own fit is zero; any head's residual rows sum to 0
// (both the row and the fit are normalised over the allowed keys).
TEST(Selection, FitResidualOfAGaussianHeadIsZero) {
    Fixture f;
    SelectionRequest q;
    q.show = TableKind::FitResidual;
    const Selection s = selectTables(f.results, q);
    ASSERT_TRUE(s.error.empty()) << s.error;
    EXPECT_TRUE(s.diverging);
    for (const auto& t : s.columns[1].tables) {  // gauss
        EXPECT_LT(t.weights->cwiseAbs().maxCoeff(), 1e-3) << t.where;
        EXPECT_NE(t.where.find("R² 1.00"), std::string::npos) << t.where;
    }
    double largest = 0;
    for (const auto& t : s.columns[0].tables) {  // dot
        for (Eigen::Index i = 0; i < t.weights->rows(); ++i)
            EXPECT_NEAR(t.weights->row(i).sum(), 0.0, 1e-5);
        largest = std::max(largest, double(t.weights->cwiseAbs().maxCoeff()));
    }
    EXPECT_GT(largest, 0.01);
}
