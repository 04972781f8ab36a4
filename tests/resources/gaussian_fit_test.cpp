// SPDX-License-Identifier: GPL-3.0-or-later
// The fast Gaussian fit (core/head_stats.h, issue 26) against the search it replaced
// (gaussian_fit_reference.h) on every head of the bundled models: the same μ, σ and R² within
// 1e-6, or a strictly better fit (a lower squared error) where the old grid missed the best
// window, and never a worse one. Where the minimum is flat (the squared error the same in
// double precision at both answers), the two fitted windows are compared instead, offset by
// offset within 1e-6, and counted.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "core/head_stats.h"
#include "core/selection.h"
#include "core/workspace.h"
#include "gaussian_fit_reference.h"

using namespace attnviz;
namespace fs = std::filesystem;

namespace {

struct Tally {
    int heads = 0, same = 0, flat = 0, better = 0;
};

// Every head of every model in `dir` on `source` (and `target` for translation models).
void compareOn(const fs::path& dir, const std::string& source, const std::string& target,
               Tally& tally) {
    std::vector<std::string> problems;
    const auto columns = loadModelDirectory(dir.string(), &problems);
    ASSERT_FALSE(columns.empty()) << dir;
    for (const ColumnResult& r : analyzeAll(columns, source, target)) {
        ASSERT_TRUE(r.error.empty()) << r.name << ": " << r.error;
        for (const CapturedBlock& b : r.analysis.blocks)
            for (int h = 0; h < int(b.weights.size()); ++h) {
                const std::vector<HeadTable> t{
                    {&b.weights[size_t(h)], b.kind == BlockKind::DecoderSelf}};
                const GaussianFit got = fitGaussian(t), want = test::reference::fitGaussian(t);
                const std::string where = r.name + " " + blockLabel(b.kind) + " L" +
                                          std::to_string(b.layer) + " h" + std::to_string(h);
                ++tally.heads;
                EXPECT_NEAR(got.sse, gaussianSse(t, got.offset, got.sigma), 1e-12) << where;
                // Never a worse window than the old search's answer, judged by one error.
                const double atWant = gaussianSse(t, want.offset, want.sigma);
                EXPECT_LE(got.sse, atWant + 1e-12) << where;
                EXPECT_NEAR(want.sse, atWant, 1e-12) << where;
                if (got.sse < atWant - 1e-9) {  // the old search stopped in a worse window
                    ++tally.better;
                    EXPECT_GT(got.r2, want.r2) << where;
                    continue;
                }
                EXPECT_NEAR(got.r2, want.r2, 1e-6) << where;
                if (std::abs(got.offset - want.offset) <= 1e-6 &&
                    std::abs(got.sigma - want.sigma) <= 1e-6) {
                    ++tally.same;
                } else {
                    // Both at one minimum whose squared error does not change, in double
                    // precision, between the two answers (checked above): μ and σ are only
                    // determined to about sqrt(1e-16 / curvature) there, for either search (or
                    // not at all: a window past every key is all weight on the nearest one,
                    // wherever it lies). The windows the head is compared with are the same.
                    ++tally.flat;
                    const int n = int(b.weights[size_t(h)].cols());
                    const auto g = gaussianOffsetProfile(t, got, n),
                               w = gaussianOffsetProfile(t, want, n);
                    for (size_t k = 0; k < g.size(); ++k) EXPECT_NEAR(g[k], w[k], 1e-6) << where;
                }
            }
    }
}

}  // namespace

TEST(GaussianFit, SameAsTheSearchItReplacedOnEveryBundledHead) {
    const fs::path models = ATTNVIZ_MODELS_DIR;
    Tally tally;
    compareOn(models / "en-es", "I want to go to the station because she says so",
              "Quiero ir a la estación porque ella lo dice", tally);
    compareOn(models, "I want to go to the station", "", tally);
    compareOn(models / "en-lm", "In the beginning God created the heavens and the earth", "",
              tally);
    compareOn(models / "lm", "the dog and the cat go home", "", tally);
    std::cout << tally.heads << " heads: " << tally.same << " with μ, σ and R² the same within "
              << "1e-6, " << tally.flat << " the same R² and squared error on a flat minimum, "
              << tally.better << " a strictly better fit\n";
    EXPECT_GT(tally.heads, 500);
    // A better fit now and then is welcome; many would mean the search changed its meaning.
    EXPECT_LE(tally.better, tally.heads / 20);
    EXPECT_LE(tally.flat, tally.heads / 10);
}

// The grid that picks where the search starts judges its points on a sample of the rows (16
// of them): on the sentences above every row is in it. Here the sample is a third of the
// rows, on a 47-word sentence (as long as the app's benchmark types).
TEST(GaussianFit, SameAsTheSearchItReplacedOnALongSentence) {
    const fs::path models = ATTNVIZ_MODELS_DIR;
    Tally tally;
    compareOn(models / "en-es",
              "When the old man finally reached the station he found that the last train had "
              "already left so he sat down on a bench and waited for the morning because he "
              "had nowhere else to go and the night was cold and long",
              "", tally);
    std::cout << tally.heads << " heads: " << tally.same << " the same, " << tally.flat << " flat, "
              << tally.better << " better\n";
    EXPECT_GT(tally.heads, 400);
    EXPECT_LE(tally.better, tally.heads / 20);
    // Flat minima are common here (a third of the heads): over 47 keys a wide window's squared
    // error barely changes with μ. Their windows were compared above, offset by offset.
    EXPECT_LE(tally.flat, tally.heads / 2);
}

namespace {

struct HintTally {
    int heads = 0, certified = 0, gaussian = 0;
};

// Every head of the models in `dir` on `after`, fitted without a hint and with the same head's
// fit on `before` (another sentence, of another length) as the hint.
void hintedOn(const fs::path& dir, const std::string& before, const std::string& after,
              HintTally& tally) {
    std::vector<std::string> problems;
    const auto columns = loadModelDirectory(dir.string(), &problems);
    ASSERT_FALSE(columns.empty()) << dir;
    const Results first = analyzeAll(columns, before, ""), second = analyzeAll(columns, after, "");
    ASSERT_EQ(first.size(), second.size());
    for (size_t c = 0; c < second.size(); ++c) {
        const ColumnResult &a = first[c], &r = second[c];
        ASSERT_TRUE(r.error.empty() && a.error.empty()) << r.name << ": " << r.error << a.error;
        ASSERT_EQ(a.analysis.blocks.size(), r.analysis.blocks.size()) << r.name;
        for (size_t k = 0; k < r.analysis.blocks.size(); ++k) {
            const CapturedBlock &old = a.analysis.blocks[k], &b = r.analysis.blocks[k];
            const bool causal = b.kind == BlockKind::DecoderSelf;
            for (int h = 0; h < int(b.weights.size()); ++h) {
                const GaussianFit hint = fitGaussian({{&old.weights[size_t(h)], causal}});
                const std::vector<HeadTable> t{{&b.weights[size_t(h)], causal}};
                bool certified = true;
                const GaussianFit want = fitGaussian(t), got = fitGaussian(t, &hint, &certified);
                const std::string where = r.name + " " + blockLabel(b.kind) + " L" +
                                          std::to_string(b.layer) + " h" + std::to_string(h);
                ++tally.heads;
                const bool isGaussian =
                    r.name.find("hc-") != std::string::npos &&
                    (b.kind != BlockKind::Cross || r.name.find("hc-all") != std::string::npos);
                tally.gaussian += isGaussian;
                if (!certified) {  // the whole search: the same answer, bit for bit
                    EXPECT_EQ(got.offset, want.offset) << where;
                    EXPECT_EQ(got.sigma, want.sigma) << where;
                    EXPECT_EQ(got.sse, want.sse) << where;
                    continue;
                }
                ++tally.certified;
                EXPECT_GE(want.r2, 1 - 1e-9) << where;
                EXPECT_LE(got.sse, want.sse + 1e-12) << where;  // never a worse window
                EXPECT_NEAR(got.r2, want.r2, 1e-6) << where;
                EXPECT_NEAR(got.offset, want.offset, 1e-6) << where;
                EXPECT_NEAR(got.sigma, want.sigma, 1e-6) << where;
            }
        }
    }
}

}  // namespace

// The app fits a head again when a sentence of a new length arrives, with its fit on the
// sentence before as a hint (core/result_stats.h): certified for the heads that are that
// Gaussian, the same fit within 1e-6 as the whole search; for every other head, the whole
// search's answer. Every hard-coded Gaussian head of the bundled models is certified.
TEST(GaussianFit, AHintGivesTheSameFit) {
    const fs::path models = ATTNVIZ_MODELS_DIR;
    HintTally tally;
    hintedOn(models, "I want to go to the station because she says so",
             "the dog wants to eat the red apple now", tally);
    hintedOn(models / "en-es", "I want to go to the station because she says so",
             "When the old man finally reached the station he found that the last train had "
             "already left",
             tally);
    std::cout << tally.heads << " heads: " << tally.certified << " certified by the hint, "
              << tally.gaussian << " of hard-coded Gaussian blocks\n";
    EXPECT_GT(tally.heads, 500);
    EXPECT_GE(tally.certified, tally.gaussian);
    EXPECT_GT(tally.gaussian, 50);
}
