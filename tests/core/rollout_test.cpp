// SPDX-License-Identifier: GPL-3.0-or-later
// An image model's attention as the overlays show it (core/rollout.h): rollout to a layer by
// hand and by its properties, the pooled and class-token rows, the query's parsing. The
// independent NumPy check is tests/reference/image_rollout_ref.py.
#include "core/rollout.h"

#include <gtest/gtest.h>

#include <random>

#include "core/attention/block.h"
#include "test_util.h"
#include "tests/expect.h"

using namespace attnviz;
using attnviz::test::errorOf;

namespace {

using attnviz::test::rows;

CapturedBlock block(int layer, std::vector<Mat> heads) {
    CapturedBlock b;
    b.name = "encoder.layers." + std::to_string(layer) + ".self_attn";
    b.layer = layer;
    b.variant = "dot";
    b.heads = int(heads.size());
    b.weights = std::move(heads);
    return b;
}

// A head of random rows that sum to 1 (a softmax of normal logits): [n, n].
Mat randomHead(int n, std::mt19937& rng) {
    std::normal_distribution<float> z(0, 2);
    Mat m(n, n);
    for (int i = 0; i < n; ++i) {
        for (int j = 0; j < n; ++j) m(i, j) = std::exp(z(rng));
        m.row(i) /= m.row(i).sum();
    }
    return m;
}

}  // namespace

// Two layers of two heads over the class token and one patch (G = 1, N = 2), by hand:
// layer 0's heads average to [[.5 .5] [.5 .5]], so A_0 = ½ W̄ + ½ I = [[.75 .25] [.25 .75]];
// layer 1's to [[1 0] [1 0]], A_1 = [[1 0] [.5 .5]]; A_1 · A_0 = [[.75 .25] [.5 .5]].
TEST(Rollout, TwoLayersByHand) {
    const std::vector<CapturedBlock> blocks = {
        block(0, {rows({{1, 0}, {0, 1}}), rows({{0, 1}, {1, 0}})}),
        block(1, {rows({{1, 0}, {1, 0}}), rows({{1, 0}, {1, 0}})}),
    };
    const Mat a0 = rolloutToLayer(blocks, 0), a1 = rolloutToLayer(blocks, 1);
    const float want0[2][2] = {{0.75f, 0.25f}, {0.25f, 0.75f}};
    const float want1[2][2] = {{0.75f, 0.25f}, {0.5f, 0.5f}};
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j) {
            EXPECT_NEAR(a0(i, j), want0[i][j], 1e-6) << i << "," << j;
            EXPECT_NEAR(a1(i, j), want1[i][j], 1e-6) << i << "," << j;
        }
    // The class token's row (the default query of pool "cls") and patch (0, 0)'s row.
    const PatchGrid grid{1, 4, true};
    const QueryWeights cls = queryWeights(a1, grid, parseImageQuery("pooled", grid));
    ASSERT_TRUE(cls.classToken.has_value());
    EXPECT_NEAR(*cls.classToken, 0.75, 1e-6);
    ASSERT_EQ(cls.patches.size(), 1u);
    EXPECT_NEAR(cls.patches[0], 0.25, 1e-6);
    EXPECT_EQ(cls.query, 0);
    const QueryWeights patch = queryWeights(a1, grid, parseImageQuery("0,0", grid));
    EXPECT_EQ(patch.query, 1);
    EXPECT_NEAR(*patch.classToken, 0.5, 1e-6);
    EXPECT_NEAR(patch.patches[0], 0.5, 1e-6);
}

// Rows of the rollout sum to 1 and are not negative, at every layer; heads that attend each
// position to itself give the identity; the mean of heads is the mean.
TEST(Rollout, PropertiesOnRandomHeads) {
    std::mt19937 rng(7);
    const int n = 10;  // G = 3 with a class token
    std::vector<CapturedBlock> blocks;
    for (int l = 0; l < 3; ++l)
        blocks.push_back(block(l, {randomHead(n, rng), randomHead(n, rng), randomHead(n, rng)}));
    for (int l = 0; l < 3; ++l) {
        const Mat r = rolloutToLayer(blocks, l);
        ASSERT_EQ(r.rows(), n);
        ASSERT_EQ(r.cols(), n);
        EXPECT_GE(r.minCoeff(), 0.0f);
        for (int i = 0; i < n; ++i) EXPECT_NEAR(r.row(i).sum(), 1.0, 1e-5) << "layer " << l;
    }
    const Mat mean = meanOfHeads(blocks[1]);
    EXPECT_NEAR(
        mean(2, 5),
        (blocks[1].weights[0](2, 5) + blocks[1].weights[1](2, 5) + blocks[1].weights[2](2, 5)) / 3,
        1e-6);
    const Mat id = Mat::Identity(n, n);
    const std::vector<CapturedBlock> identity = {block(0, {id, id}), block(1, {id})};
    EXPECT_TRUE(rolloutToLayer(identity, 1).isApprox(id, 1e-6f));
    // A later layer changes the rollout: the product is taken, not only the last layer.
    EXPECT_FALSE(rolloutToLayer(blocks, 2).isApprox(rolloutToLayer(blocks, 1), 1e-3f));
}

// With pool "mean" the pooled row is the mean of every row, by hand on a 2 × 2 grid.
TEST(Rollout, PooledRowOfMeanPoolingIsTheMeanOfTheRows) {
    const PatchGrid grid{2, 4, false};
    const Mat w = rows({{1, 0, 0, 0}, {0, 1, 0, 0}, {0.5, 0.5, 0, 0}, {0, 0, 0, 1}});
    const QueryWeights q = queryWeights(w, grid, parseImageQuery("pooled", grid));
    EXPECT_FALSE(q.classToken.has_value());
    EXPECT_EQ(q.query, -1);
    const double want[4] = {1.5 / 4, 1.5 / 4, 0, 0.25};
    ASSERT_EQ(q.patches.size(), 4u);
    for (int t = 0; t < 4; ++t) EXPECT_NEAR(q.patches[size_t(t)], want[t], 1e-7) << t;
    // Patch (1, 0) is row 2.
    const QueryWeights p = queryWeights(w, grid, parseImageQuery("1,0", grid));
    EXPECT_EQ(p.query, 2);
    EXPECT_NEAR(p.patches[0], 0.5, 1e-7);
    EXPECT_NEAR(p.patches[3], 0.0, 1e-7);
}

TEST(Rollout, QueriesAreParsedAndCheckedAgainstTheGrid) {
    const PatchGrid cls{7, 4, true}, mean{7, 4, false};
    EXPECT_EQ(parseImageQuery("cls", cls).kind, ImageQuery::Kind::ClassToken);
    EXPECT_EQ(parseImageQuery("pooled", mean).kind, ImageQuery::Kind::Pooled);
    const ImageQuery q = parseImageQuery(" 6 , 2 ", mean);
    EXPECT_EQ(q.kind, ImageQuery::Kind::Patch);
    EXPECT_EQ(q.row, 6);
    EXPECT_EQ(q.col, 2);
    EXPECT_EQ(imageQueryName(q), "6,2");
    EXPECT_HAS(errorOf([&] { parseImageQuery("cls", mean); }), "no class token");
    EXPECT_HAS(errorOf([&] { parseImageQuery("7,0", cls); }), "outside the 7×7 grid");
    EXPECT_HAS(errorOf([&] { parseImageQuery("0,7", cls); }), "outside the 7×7 grid");
    for (const char* bad : {"-1,2", "3", "a,b", "1,2,3", "", "1.5,2", "+1,2"})
        EXPECT_HAS(errorOf([&] { parseImageQuery(bad, cls); }), "ROW,COLUMN") << bad;
    // The text alone reads as a query for any model (issue 47: a typed value from the edge on);
    // whether a model's grid has it is the check's, with the same messages.
    EXPECT_EQ(parseImageQuery("9,9"), ImageQuery::patch(9, 9));
    EXPECT_EQ(parseImageQuery("cls").kind, ImageQuery::Kind::ClassToken);
    EXPECT_EQ(parseImageQuery(imageQueryName(ImageQuery::patch(3, 1))), ImageQuery::patch(3, 1));
    EXPECT_HAS(errorOf([] { parseImageQuery("a,b"); }), "ROW,COLUMN");
    EXPECT_HAS(errorOf([&] { checkImageQuery(ImageQuery::patch(9, 9), cls); }),
               "outside the 7×7 grid");
    EXPECT_HAS(errorOf([&] { checkImageQuery(ImageQuery::patch(-1, 0), cls); }), "outside");
    EXPECT_HAS(errorOf([&] { checkImageQuery(parseImageQuery("cls"), mean); }), "no class token");
    EXPECT_NO_THROW(checkImageQuery(ImageQuery::patch(6, 6), mean));
    // Equal when they name the same row: a patch's cell matters, pooled's and cls's do not.
    EXPECT_NE(ImageQuery::patch(1, 2), ImageQuery::patch(2, 1));
    EXPECT_EQ(ImageQuery{}, (ImageQuery{ImageQuery::Kind::Pooled, 4, 5}));
    EXPECT_NE(ImageQuery{}, parseImageQuery("cls"));
}

TEST(Rollout, BadShapesAndLayersAreRefused) {
    const std::vector<CapturedBlock> blocks = {block(0, {rows({{1, 0}, {0, 1}})})};
    EXPECT_HAS(errorOf([&] { rolloutToLayer(blocks, 1); }), "layer 1 is not in the model");
    EXPECT_HAS(errorOf([&] { rolloutToLayer(blocks, -1); }), "layer -1");
    EXPECT_HAS(errorOf([&] { meanOfHeads(block(0, {})); }), "no attention head");
    const PatchGrid grid{2, 4, false};  // 4 positions, the matrix has 2
    EXPECT_HAS(errorOf([&] { queryWeights(blocks[0].weights[0], grid, {}); }),
               "for a grid of 4 positions");
    const std::vector<CapturedBlock> mixed = {block(0, {Mat::Identity(2, 2)}),
                                              block(1, {Mat::Identity(3, 3)})};
    EXPECT_HAS(errorOf([&] { rolloutToLayer(mixed, 1); }), "rollout");
}

TEST(Rollout, PositionLabels) {
    const auto labels = positionLabels({2, 4, true});
    const std::vector<std::string> want = {"cls", "r0c0", "r0c1", "r1c0", "r1c1"};
    EXPECT_EQ(labels, want);
    EXPECT_EQ(positionLabels({7, 4, false}).size(), 49u);
}
