// SPDX-License-Identifier: GPL-3.0-or-later
// ResultStats (core/result_stats.h): each head's statistics are headStats of its table,
// computed once however many threads and callers ask, only for the heads asked, and a
// cancelled computation stops early.
#include "core/result_stats.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "test_util.h"

using namespace attnviz;

namespace {

std::shared_ptr<const Results> twoModels() {
    std::vector<ModelColumn> columns(2);
    columns[0].name = "dot";
    columns[0].model = std::make_shared<Model>(test::makeModel(test::readConfig("dot"), 1));
    columns[1].name = "gaussian";
    columns[1].model = std::make_shared<Model>(test::makeModel(test::readConfig("gaussian"), 2));
    return std::make_shared<const Results>(
        analyzeAll(columns, "I want to go to the station", "a b c d"));
}

}  // namespace

TEST(ResultStats, EachHeadIsItsHeadStatsComputedOnce) {
    const auto results = twoModels();
    const ResultStats stats(results);
    const auto all = stats.allHeads();
    ASSERT_FALSE(all.empty());
    // Only what is asked: one layer's encoder heads.
    const auto enc0 = stats.heads(BlockKind::EncoderSelf, 0);
    ASSERT_FALSE(enc0.empty());
    EXPECT_LT(enc0.size(), all.size());
    for (const HeadKey& k : enc0) {
        const CapturedBlock& b = (*results)[k.column].analysis.blocks[k.block];
        EXPECT_EQ(b.kind, BlockKind::EncoderSelf);
        EXPECT_EQ(b.layer, 0);
    }
    EXPECT_TRUE(stats.compute(enc0, 2, [] { return false; }));
    EXPECT_EQ(stats.computedCount(), int(enc0.size()));
    // Asked again, by two threads at once, and then for everything: each head once.
    std::thread other([&] { stats.compute(all, 2, [] { return false; }); });
    EXPECT_TRUE(stats.compute(all, 2, [] { return false; }));
    other.join();
    EXPECT_EQ(stats.computedCount(), int(all.size()));
    for (const HeadKey& k : all) {
        const CapturedBlock& b = (*results)[k.column].analysis.blocks[k.block];
        const HeadStats want =
            headStats({{&b.weights[size_t(k.head)], b.kind == BlockKind::DecoderSelf}});
        const HeadStats& got = stats.at(k);
        EXPECT_EQ(got.entropy, want.entropy);
        EXPECT_EQ(got.fit.offset, want.fit.offset);
        EXPECT_EQ(got.fit.sigma, want.fit.sigma);
        EXPECT_EQ(got.fit.r2, want.fit.r2);
    }
    EXPECT_EQ(stats.computedCount(), int(all.size()));
    EXPECT_THROW(stats.at({5, 0, 0}), std::out_of_range);
    EXPECT_THROW(stats.at({0, 0, 99}), std::out_of_range);
}

TEST(ResultStats, ACancelledComputationStopsEarly) {
    const ResultStats stats(twoModels());
    const auto all = stats.allHeads();
    std::atomic<int> asked{0};
    // Cancelled after the third look: at most a few heads (one per thread in flight) done.
    EXPECT_FALSE(stats.compute(all, 1, [&] { return ++asked > 3; }));
    EXPECT_EQ(stats.computedCount(), 3);
    EXPECT_TRUE(stats.compute(all, 1, [] { return false; }));
    EXPECT_EQ(stats.computedCount(), int(all.size()));
}
