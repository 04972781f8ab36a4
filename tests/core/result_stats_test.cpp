// SPDX-License-Identifier: GPL-3.0-or-later
// ResultStats (core/result_stats.h): each head's statistics are headStats of its table,
// computed once however many threads and callers ask, only for the heads asked, and a
// cancelled computation stops early; statistics made with earlier ones take over exactly the
// blocks whose maps are the same, bit for bit.
#include "core/result_stats.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "test_util.h"

using namespace attnviz;

namespace {

std::vector<ModelColumn> twoColumns() {
    std::vector<ModelColumn> columns(2);
    columns[0].name = "dot";
    columns[0].model = std::make_shared<Model>(test::makeModel(test::readConfig("dot"), 1));
    columns[1].name = "gaussian";
    columns[1].model = std::make_shared<Model>(test::makeModel(test::readConfig("gaussian"), 2));
    return columns;
}

std::shared_ptr<const Results> twoModels(const std::string& source = "I want to go to the station",
                                         const std::string& target = "a b c d") {
    return std::make_shared<const Results>(analyzeAll(twoColumns(), source, target));
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

// A new sentence of the same length: the dot-product model's maps change, the hard-coded
// Gaussian model's self-attention does not (its windows depend on positions only), and so
// only its heads keep their statistics; its cross-attention sees the source's length only
// through the window too. Computed statistics come along, equal to computing them again.
TEST(ResultStats, TakesOverTheBlocksWhoseMapsAreTheSameBitForBit) {
    const ResultStats first(twoModels("I want to go to the station", "a b c d"));
    EXPECT_TRUE(first.compute(first.allHeads(), 2, [] { return false; }));
    const int all = int(first.allHeads().size());
    EXPECT_EQ(first.computedHere(), all);

    // The same results: every block taken over, nothing computed again.
    const ResultStats same(std::make_shared<const Results>(first.results()), &first);
    EXPECT_EQ(same.computedCount(), all);
    EXPECT_TRUE(same.compute(same.allHeads(), 2, [] { return false; }));
    EXPECT_EQ(same.computedHere(), 0);

    // Another sentence, same lengths: the Gaussian model's self-attention blocks only.
    const auto other = twoModels("you read a new book in the", "d c b a");
    const ResultStats next(other, &first);
    int gaussianSelf = 0, gaussianHeads = 0;
    for (size_t c = 0; c < other->size(); ++c)
        for (const CapturedBlock& b : (*other)[c].analysis.blocks) {
            const bool gaussian = (*other)[c].name == "gaussian";
            if (gaussian && b.kind != BlockKind::Cross) gaussianSelf += b.heads;
            if (gaussian) gaussianHeads += b.heads;
        }
    ASSERT_GT(gaussianSelf, 0);
    for (const HeadKey& k : next.allHeads()) {
        const CapturedBlock& b = (*other)[k.column].analysis.blocks[k.block];
        const HeadStats want =
            headStats({{&b.weights[size_t(k.head)], b.kind == BlockKind::DecoderSelf}});
        const HeadStats& got = next.at(k);  // taken over, or computed now
        EXPECT_EQ(got.fit.offset, want.fit.offset);
        EXPECT_EQ(got.fit.sigma, want.fit.sigma);
        EXPECT_EQ(got.entropy, want.entropy);
    }
    EXPECT_GE(next.sharedBlocks(), 2);
    // Computed now: every dot-product head; the Gaussian's self-attention heads were not.
    EXPECT_LE(next.computedHere(), all - gaussianSelf);
    EXPECT_GE(next.computedHere(), all - gaussianHeads);
    EXPECT_EQ(next.computedCount(), all);

    // A column of another name is another model: nothing of it taken over.
    auto renamed = std::make_shared<Results>(first.results());
    for (auto& r : *renamed) r.name += " (modified)";
    const ResultStats elsewhere(renamed, &first);
    EXPECT_EQ(elsewhere.sharedBlocks(), 0);
    EXPECT_EQ(elsewhere.computedCount(), 0);
}

// A sentence of another length: nothing to take over, but the Gaussian model's self-attention
// heads are the same windows, and their fits on the sentence before certify themselves as
// hints (fitGaussian with a hint): polished, not searched, with the same answer within 1e-6;
// every other head is the whole search's answer, bit for bit.
TEST(ResultStats, AnotherLengthPolishesTheGaussianHeadsFromTheirEarlierFits) {
    const ResultStats first(twoModels("I want to go to the station", "a b c d"));
    EXPECT_TRUE(first.compute(first.allHeads(), 2, [] { return false; }));
    const auto longer = twoModels("you read a new book in the old house", "d c b a e");
    const ResultStats next(longer, &first);
    EXPECT_EQ(next.sharedBlocks(), 0);
    int gaussianSelf = 0;
    for (const ColumnResult& r : *longer)
        for (const CapturedBlock& b : r.analysis.blocks)
            if (r.name == "gaussian" && b.kind != BlockKind::Cross) gaussianSelf += b.heads;
    ASSERT_GT(gaussianSelf, 0);
    EXPECT_TRUE(next.compute(next.allHeads(), 2, [] { return false; }));
    EXPECT_EQ(next.computedHere(), int(next.allHeads().size()));
    EXPECT_EQ(next.certifiedHere(), gaussianSelf);
    for (const HeadKey& k : next.allHeads()) {
        const ColumnResult& r = (*longer)[k.column];
        const CapturedBlock& b = r.analysis.blocks[k.block];
        const HeadStats want =
            headStats({{&b.weights[size_t(k.head)], b.kind == BlockKind::DecoderSelf}});
        const HeadStats& got = next.at(k);
        EXPECT_EQ(got.entropy, want.entropy);
        if (r.name == "gaussian" && b.kind != BlockKind::Cross) {
            EXPECT_NEAR(got.fit.offset, want.fit.offset, 1e-6);
            EXPECT_NEAR(got.fit.sigma, want.fit.sigma, 1e-6);
            EXPECT_NEAR(got.fit.r2, want.fit.r2, 1e-6);
        } else {
            EXPECT_EQ(got.fit.offset, want.fit.offset);
            EXPECT_EQ(got.fit.sigma, want.fit.sigma);
        }
    }
    // Without the earlier statistics: no hint, nothing certified.
    const ResultStats alone(longer);
    EXPECT_TRUE(alone.compute(alone.allHeads(), 1, [] { return false; }));
    EXPECT_EQ(alone.certifiedHere(), 0);
}

// A word removed and typed again: the length of two sentences before. The Gaussian model's
// self-attention maps of that length were fitted then; they come back from the memory of
// earlier analyses, equal to computing them again, while the dot-product model's (another
// sentence) and anything of another length are computed.
TEST(ResultStats, RemembersTheBlocksOfAnalysesBeforeTheLastOne) {
    const ResultStats first(twoModels("I want to go to the station", "a b c d"));
    EXPECT_TRUE(first.compute(first.allHeads(), 2, [] { return false; }));
    EXPECT_EQ(first.rememberedBlocksUsed(), 0);
    const ResultStats shorter(twoModels("you read a new book", "d c b"), &first);
    EXPECT_EQ(shorter.sharedBlocks(), 0);  // other lengths: nothing of the last one
    EXPECT_TRUE(shorter.compute(shorter.allHeads(), 2, [] { return false; }));
    EXPECT_GT(shorter.rememberedBytes(), 0u);
    EXPECT_LE(shorter.rememberedBytes(), ResultStats::kRememberedBytes);

    const auto again = twoModels("she says that the old man reads", "a b c d");  // first's lengths
    const ResultStats back(again, &shorter);
    // Which blocks have first's maps, bit for bit: the Gaussian model's windows, which depend
    // on the lengths alone.
    int sameBlocks = 0, sameHeads = 0, gaussianSelf = 0;
    for (size_t c = 0; c < again->size(); ++c)
        for (const CapturedBlock& b : (*again)[c].analysis.blocks) {
            gaussianSelf += (*again)[c].name == "gaussian" && b.kind != BlockKind::Cross;
            for (const CapturedBlock& old : first.results()[c].analysis.blocks) {
                bool same = old.kind == b.kind && old.layer == b.layer &&
                            old.weights.size() == b.weights.size();
                for (size_t h = 0; same && h < b.weights.size(); ++h)
                    same = old.weights[h].rows() == b.weights[h].rows() &&
                           old.weights[h].cols() == b.weights[h].cols() &&
                           old.weights[h] == b.weights[h];
                if (same) ++sameBlocks, sameHeads += b.heads;
            }
        }
    ASSERT_GT(gaussianSelf, 0);
    ASSERT_GE(sameBlocks, gaussianSelf);
    EXPECT_EQ(back.rememberedBlocksUsed(), sameBlocks);
    EXPECT_EQ(back.sharedBlocks(), sameBlocks);
    EXPECT_EQ(back.computedCount(), sameHeads);  // fitted two analyses before
    EXPECT_TRUE(back.compute(back.allHeads(), 2, [] { return false; }));
    const int all = int(back.allHeads().size());
    EXPECT_EQ(back.computedHere(), all - sameHeads);
    for (const HeadKey& k : back.allHeads()) {
        const CapturedBlock& b = (*again)[k.column].analysis.blocks[k.block];
        const HeadStats want =
            headStats({{&b.weights[size_t(k.head)], b.kind == BlockKind::DecoderSelf}});
        const HeadStats& got = back.at(k);
        EXPECT_EQ(got.entropy, want.entropy);
        EXPECT_EQ(got.distance, want.distance);
        EXPECT_EQ(got.fit.offset, want.fit.offset);
        EXPECT_EQ(got.fit.sigma, want.fit.sigma);
        EXPECT_EQ(got.fit.r2, want.fit.r2);
    }
    // The memory is the statistics': made without them, nothing is remembered.
    const ResultStats alone(again);
    EXPECT_EQ(alone.rememberedBlocksUsed(), 0);
    EXPECT_EQ(alone.computedCount(), 0);
}

// However many analyses follow one another, the maps kept for the memory stay within its
// bound, and the oldest are forgotten first: with room for the two analyses before the last,
// a length seen two analyses before the last is found again, one seen three before is not.
TEST(ResultStats, TheMemoryStaysWithinItsBoundForgettingTheOldestFirst) {
    const auto analysis = [](int words) {
        const std::string list[] = {"you", "read", "a", "new", "book", "in", "the", "park"};
        std::string s;
        for (int w = 0; w < words; ++w) s += (w ? " " : "") + list[w % 8];
        return twoModels(s, "a b c");
    };
    const auto bytes = [](const Results& results) {
        size_t n = 0;
        for (const ColumnResult& r : results)
            for (const CapturedBlock& b : r.analysis.blocks)
                for (const Mat& m : b.weights) n += size_t(m.size()) * sizeof(*m.data());
        return n;
    };
    // Room for the 7- and 6-word analyses' maps, not for the 5-word one's as well.
    const size_t bound = bytes(*analysis(7)) + bytes(*analysis(6));
    std::shared_ptr<const ResultStats> stats;
    for (int words : {5, 6, 7, 8}) {
        stats = std::make_shared<const ResultStats>(analysis(words), stats.get(), bound);
        EXPECT_EQ(stats->rememberedBlocksUsed(), 0);
        EXPECT_LE(stats->rememberedBytes(), bound);
    }
    EXPECT_EQ(stats->rememberedBytes(), bound);  // 7 and 6 words remembered
    const ResultStats five(analysis(5), stats.get(), bound);
    EXPECT_EQ(five.rememberedBlocksUsed(), 0);  // forgotten
    EXPECT_LE(five.rememberedBytes(), bound);
    const ResultStats six(analysis(6), stats.get(), bound);
    EXPECT_GT(six.rememberedBlocksUsed(), 0);
    // With the default bound, nothing of these small analyses is forgotten.
    std::shared_ptr<const ResultStats> roomy;
    for (int words : {5, 6, 7, 8})
        roomy = std::make_shared<const ResultStats>(analysis(words), roomy.get());
    const ResultStats fiveAgain(analysis(5), roomy.get());
    EXPECT_GT(fiveAgain.rememberedBlocksUsed(), 0);
}
