// SPDX-License-Identifier: GPL-3.0-or-later
// The one road from results to pixels: which tables a request selects, that they share the
// results' matrices, their titles and colour-scale tops, the query profile, the data export,
// and the Qt-free workspace loading that feeds them.
#include "core/selection.h"

#include <gtest/gtest.h>

#include <fstream>

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
    EXPECT_EQ(t.where, "enc self L0 · head 1");
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
    EXPECT_EQ(m.where, "enc self L0 · mean of " + std::to_string(w.size()) + " heads");
    EXPECT_DOUBLE_EQ(m.scaleMax, double(m.weights->maxCoeff()));  // its own scale
    q.heads = "2, 0";
    const Selection two = selectTables(f.results, q);
    ASSERT_EQ(two.rows, 2);
    EXPECT_EQ(two.columns[0].tables[0].head, "2");
    q.heads = "0,9";
    const Selection bad = selectTables(f.results, q);
    EXPECT_NE(bad.error.find("head '9' does not exist in dot"), std::string::npos) << bad.error;
    q.heads = "all";
    q.layer = 7;
    EXPECT_EQ(selectTables(f.results, q).error, "dot has no enc self block in layer 7");
    EXPECT_EQ(selectTables(f.results, SelectionRequest{}).single(1, 3).columns[0].tables[0].head,
              "3");
}

TEST(Selection, ProfileAndDataExport) {
    Fixture f;
    const Profile models = selectProfile(*f.results, BlockKind::EncoderSelf, 0, 3, -1);
    ASSERT_EQ(models.lines.size(), 2u);
    EXPECT_EQ(models.query, "go");
    EXPECT_EQ(models.title, "Query 3 \"go\" · enc self L0 · every model, mean of heads");
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
