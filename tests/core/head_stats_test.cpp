// SPDX-License-Identifier: GPL-3.0-or-later
// Head statistics (core/head_stats.h, issue 15): hand-computed values, the Gaussian fit
// recovering hard-coded windows, and input dependence exactly 0 for position-only heads
// and above 0 for dot-product, on the real engine.
#include "core/head_stats.h"

#include <gtest/gtest.h>

#include <cmath>

#include "core/attention/block.h"
#include "test_util.h"

using namespace attnviz;

namespace {

using attnviz::test::rows;

// w_ij = exp(-(j - i - mu)² / 2σ²) over the allowed keys (unnormalised: the statistics
// normalise rows themselves).
Mat gaussianHead(int n, double mu, double sigma, bool causal) {
    Mat m = Mat::Zero(n, n);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < (causal ? i + 1 : n); ++j)
            m(i, j) = float(std::exp(-0.5 * std::pow((j - i - mu) / sigma, 2)));
    return m;
}

}  // namespace

// The same by hand for headStats and for rowStats (headStats without the fit).
TEST(HeadStats, HandComputedEntropyConfidenceDistance) {
    for (auto stats : {&headStats, &rowStats}) {
        // Row 0: 0.5 0.5 0 (given unnormalised, ×2); row 1: 0.2 0.3 0.5.
        const Mat w = rows({{1.0f, 1.0f, 0.0f}, {0.2f, 0.3f, 0.5f}});
        const HeadStats s = stats({{&w, false}});
        const double h1 = -(0.2 * std::log(0.2) + 0.3 * std::log(0.3) + 0.5 * std::log(0.5));
        EXPECT_NEAR(s.entropy, (std::log(2.0) + h1) / 2, 1e-7);
        EXPECT_NEAR(s.confidence, (0.5 + 0.5) / 2, 1e-7);
        EXPECT_NEAR(s.distance, (0.5 * 1 + (0.2 * 1 + 0.5 * 1)) / 2, 1e-7);
        EXPECT_EQ(s.rows, 2);
        // Causal: row 0 sees key 0 only (its weight on key 1 is not allowed, and ignored).
        const Mat c = rows({{2.0f, 9.0f}, {0.25f, 0.75f}});
        const HeadStats sc = stats({{&c, true}});
        const double h = -(0.25 * std::log(0.25) + 0.75 * std::log(0.75));
        EXPECT_NEAR(sc.entropy, (0 + h) / 2, 1e-7);
        EXPECT_NEAR(sc.confidence, (1 + 0.75) / 2, 1e-7);
        EXPECT_NEAR(sc.distance, (0 + 0.25) / 2, 1e-7);
        // A row without weight is left out.
        const Mat z = rows({{0.0f, 0.0f}, {1.0f, 0.0f}});
        EXPECT_EQ(stats({{&z, false}}).rows, 1);
    }
    // rowStats fits nothing; headStats's fit is fitGaussian's.
    const Mat g = rows({{0.7f, 0.2f, 0.1f}, {0.3f, 0.4f, 0.3f}, {0.0f, 0.2f, 0.8f}});
    const GaussianFit none = rowStats({{&g, false}}).fit, fit = headStats({{&g, false}}).fit;
    EXPECT_EQ(none.sse, GaussianFit{}.sse);
    EXPECT_EQ(none.r2, GaussianFit{}.r2);
    EXPECT_EQ(fit.offset, fitGaussian({{&g, false}}).offset);
    EXPECT_EQ(fit.sigma, fitGaussian({{&g, false}}).sigma);
    EXPECT_GT(fit.sse, 0);
}

TEST(HeadStats, AHardCodedGaussianComesBackAsItself) {
    for (const auto& [mu, sigma, causal] :
         {std::tuple{1.0, 1.3, false}, std::tuple{-1.0, 1.0, true}, std::tuple{0.0, 0.6, false},
          std::tuple{2.5, 3.0, false}}) {
        const Mat a = gaussianHead(20, mu, sigma, causal), b = gaussianHead(13, mu, sigma, causal);
        const GaussianFit f = fitGaussian({{&a, causal}, {&b, causal}});
        EXPECT_NEAR(f.offset, mu, 1e-4) << mu << " " << sigma;
        EXPECT_NEAR(f.sigma, sigma, 1e-4) << mu << " " << sigma;
        EXPECT_GT(f.r2, 1 - 1e-9) << mu << " " << sigma;
        EXPECT_NEAR(f.sse, gaussianSse({{&a, causal}, {&b, causal}}, f.offset, f.sigma), 1e-15);
    }
    // Two peaks, on the first and the last key: no single window fits.
    Mat ends = Mat::Zero(12, 12);
    ends.col(0).setOnes();
    ends.col(11).setOnes();
    EXPECT_LT(fitGaussian({{&ends, false}}).r2, 0.6);
    // All weight on the first key *is* a normalised Gaussian far to the left (its mass goes
    // to the nearest allowed key): by this definition a "first token" head fits well.
    Mat first = Mat::Zero(12, 12);
    first.col(0).setOnes();
    EXPECT_GT(fitGaussian({{&first, false}}).r2, 0.99);
    // Windows so far left of key 0 that the rows' sums of e are subnormal (row 10: the nearest
    // key 1.91 positions from μ + i, e ≈ exp(−730)): still all weight on key 0, not 1/0.
    EXPECT_NEAR(gaussianSse({{&first, false}}, -11.91, 0.05), 0.0, 1e-12);
    EXPECT_NEAR(gaussianSse({{&first, false}}, -12.0, 0.05), 0.0, 1e-12);
}

// The fit's search starts from 16 of the rows and ends on all of them: a head whose rows
// differ (a window at +1 on the first half of a long table, at −3 on the second) is fitted
// on every row, and matches a brute-force scan of the box to its resolution.
TEST(HeadStats, FitOfAManyRowTableMatchesAScan) {
    const int n = 60;
    Mat w = gaussianHead(n, 1.0, 0.8, false);
    const Mat later = gaussianHead(n, -3.0, 0.8, false);
    w.bottomRows(n / 2) = later.bottomRows(n / 2);
    const GaussianFit f = fitGaussian({{&w, false}});
    double best = 1e300, bestMu = 0, bestSigma = 0;
    for (double mu = -5; mu <= 3; mu += 0.1)
        for (double s = 0.3; s <= 6; s *= 1.04)
            if (const double e = gaussianSse({{&w, false}}, mu, s); e < best)
                best = e, bestMu = mu, bestSigma = s;
    EXPECT_LE(f.sse, best + 1e-12);
    EXPECT_NEAR(f.offset, bestMu, 0.1);
    EXPECT_NEAR(f.sigma, bestSigma, 0.05 * bestSigma);
}

TEST(HeadStats, OffsetProfileOfTheDiagonal) {
    const Mat eye = Mat::Identity(6, 6);
    const auto p = offsetProfile({{&eye, false}}, 2);
    ASSERT_EQ(p.size(), 5u);
    EXPECT_DOUBLE_EQ(p[2], 1.0);
    EXPECT_DOUBLE_EQ(p[0] + p[1] + p[3] + p[4], 0.0);
}

TEST(HeadStats, InputDependenceByHand) {
    const Mat a = rows({{1, 0}, {0.5f, 0.5f}}), b = rows({{0, 1}, {0.5f, 0.5f}});
    int n = 0;
    EXPECT_DOUBLE_EQ(inputDependence({{&a, false}, {&b, false}}, &n), (1.0 + 0.0) / 2);
    EXPECT_EQ(n, 4);
    const Mat c = rows({{1, 0, 0}});  // another shape: nothing to compare it with
    EXPECT_DOUBLE_EQ(inputDependence({{&a, false}, {&c, false}}, &n), 0.0);
    EXPECT_EQ(n, 0);
}

// On the engine: position-only heads (random synthesizer, Gaussian windows) give exactly the
// same rows for any three sentences of one length; dot-product does not.
TEST(HeadStats, InputDependenceIsZeroForPositionOnlyHeadsAndNotForDot) {
    const std::vector<std::string> sentences{"I want to go to the station",
                                             "the dog and the cat go home",
                                             "we see the dog near the house"};
    auto dependence = [&](const std::string& config) {
        Model m = test::makeModel(test::readConfig(config), 2);
        std::vector<Analysis> runs;
        for (const auto& s : sentences) runs.push_back(m.analyze(s, std::string_view("a b c")));
        std::vector<Mat> heads;
        std::vector<HeadTable> tables;
        for (const auto& a : runs) heads.push_back(a.blocks[0].weights[0]);  // enc L0 head 0
        for (const auto& h : heads) tables.push_back({&h, false});
        int n = 0;
        const double d = inputDependence(tables, &n);
        EXPECT_EQ(n, 3 * 8) << config;  // 7 words + <eos>, 8 rows each
        return d;
    };
    EXPECT_EQ(dependence("random"), 0.0);
    EXPECT_EQ(dependence("fixed_random"), 0.0);
    EXPECT_EQ(dependence("gaussian"), 0.0);
    EXPECT_GT(dependence("dot"), 1e-3);
    EXPECT_GT(dependence("dense"), 1e-3);
}

TEST(HeadStats, AttentionRolloutByHand) {
    // One layer: Ã = ½ W + ½ I, rows renormalised (W's rows sum to 1: no change).
    const Mat w = rows({{0.5f, 0.5f}, {0.0f, 1.0f}});
    const Mat one = attentionRollout({w});
    EXPECT_NEAR(one(0, 0), 0.75, 1e-6);
    EXPECT_NEAR(one(0, 1), 0.25, 1e-6);
    EXPECT_NEAR(one(1, 0), 0.0, 1e-6);
    EXPECT_NEAR(one(1, 1), 1.0, 1e-6);
    // Two layers: Ã2 · Ã1, the newest on the left.
    const Mat v = rows({{0.0f, 1.0f}, {1.0f, 0.0f}});  // swap: Ã = [[.5 .5] [.5 .5]]
    const Mat two = attentionRollout({w, v});
    // [[.5 .5] [.5 .5]] · [[.75 .25] [0 1]] = [[.375 .625] [.375 .625]]
    EXPECT_NEAR(two(0, 0), 0.375, 1e-6);
    EXPECT_NEAR(two(1, 1), 0.625, 1e-6);
    for (int i = 0; i < 2; ++i) EXPECT_NEAR(two.row(i).sum(), 1.0, 1e-6);
    // A row that sums to less (a padded or causal row) is renormalised after adding ½ I.
    const Mat half = rows({{0.25f, 0.25f}, {0.0f, 0.5f}});
    EXPECT_NEAR(attentionRollout({half})(0, 0), (0.125 + 0.5) / 0.75, 1e-6);
    EXPECT_TRUE(attentionRollout({}).size() == 0);
}

// The Gaussian's own profile over the same rows: a hard-coded head's profile and its fit's
// coincide; the fit's residual is zero; by hand, a 2x2 table's residual.
TEST(HeadStats, GaussianProfileAndResidualOfAFittedHead) {
    for (bool causal : {false, true}) {
        const Mat a = gaussianHead(15, -1, 1.0, causal), b = gaussianHead(9, -1, 1.0, causal);
        const std::vector<HeadTable> tables{{&a, causal}, {&b, causal}};
        const GaussianFit f = fitGaussian(tables);
        const auto own = offsetProfile(tables, 5), fitted = gaussianOffsetProfile(tables, f, 5);
        ASSERT_EQ(own.size(), 11u);
        for (size_t k = 0; k < own.size(); ++k) EXPECT_NEAR(own[k], fitted[k], 1e-6) << k;
        GaussianFit g;
        EXPECT_LT(gaussianResidual({&a, causal}, &g).cwiseAbs().maxCoeff(), 1e-6);
        EXPECT_NEAR(g.r2, 1.0, 1e-9);
    }
    // [[1, 0], [1, 1]] causal: row 0 has one key (residual 0), row 1 is (0.5, 0.5) against
    // the fit's row; the residual row sums to 0 and is p - g wherever the fit puts weight.
    Mat m(2, 2);
    m << 1, 0, 1, 1;
    GaussianFit f;
    const Mat r = gaussianResidual({&m, true}, &f);
    EXPECT_FLOAT_EQ(r(0, 0), 0.0f);
    EXPECT_FLOAT_EQ(r(0, 1), 0.0f);  // not an allowed key
    EXPECT_NEAR(r(1, 0) + r(1, 1), 0.0, 1e-6);
    const double z0 = std::exp(-0.5 * std::pow((0 - 1 - f.offset) / f.sigma, 2)),
                 z1 = std::exp(-0.5 * std::pow((1 - 1 - f.offset) / f.sigma, 2));
    EXPECT_NEAR(r(1, 0), 0.5 - z0 / (z0 + z1), 1e-6);
}

// Mean attention distance on a 2 × 2 grid of 3-pixel patches (docs/model-spec.md 4.4): the
// class token's row and column are dropped, each patch row renormalised, rows without weight
// on the patches left out. Positions: 0 class token, 1 (0,0), 2 (0,1), 3 (1,0), 4 (1,1).
TEST(AttentionDistance, HandComputedOnATinyGrid) {
    const Mat w = rows({{1.0f, 0.0f, 0.0f, 0.0f, 0.0f},    // the class token: not a query
                        {0.2f, 0.4f, 0.2f, 0.0f, 0.2f},    // 0.5 self, 0.25 right, 0.25 diagonal
                        {0.0f, 0.0f, 0.0f, 1.0f, 0.0f},    // all on the diagonal (1,0): 3√2
                        {1.0f, 0.0f, 0.0f, 0.0f, 0.0f},    // only the class token: left out
                        {0.0f, 1.0f, 1.0f, 1.0f, 1.0f}});  // uniform: ¼ (3√2 + 3 + 3 + 0)
    const double s2 = std::sqrt(2.0);
    const double row1 = 0.25 * 3 + 0.25 * 3 * s2, row2 = 3 * s2, row4 = 0.25 * (3 * s2 + 6);
    const AttentionDistance d = meanAttentionDistance(w, {2, 3, true});
    EXPECT_EQ(d.rows, 3);
    EXPECT_NEAR(d.px, (row1 + row2 + row4) / 3, 1e-12);
    EXPECT_NEAR(d.px, 0.75 + 1.5 * s2, 1e-12);
    // Without a class token (pool "mean") the same patch block alone gives the same rows.
    const Mat patches = w.bottomRightCorner(4, 4);
    const AttentionDistance m = meanAttentionDistance(patches, {2, 3, false});
    EXPECT_EQ(m.rows, 3);
    EXPECT_NEAR(m.px, d.px, 1e-12);
    // Scaling a row changes nothing; all weight on the query itself is 0 px.
    EXPECT_NEAR(meanAttentionDistance(Mat(patches * 7.0f), {2, 3, false}).px, d.px, 1e-12);
    EXPECT_EQ(meanAttentionDistance(Mat::Identity(4, 4), {2, 3, false}).px, 0.0);
    EXPECT_EQ(meanAttentionDistance(Mat::Zero(4, 4), {2, 3, false}).rows, 0);
}

// Uniform attention over the 49 patches of a 28 × 28 image (P = 4): the exact value, from the
// number of patch pairs at each offset, (P / G⁴) Σ_{Δr,Δc} (G − |Δr|)(G − |Δc|) √(Δr² + Δc²).
TEST(AttentionDistance, UniformOnTheSevenBySevenGridIs14Point4Pixels) {
    const int G = 7, P = 4;
    double pairs = 0;
    for (int dr = -(G - 1); dr < G; ++dr)
        for (int dc = -(G - 1); dc < G; ++dc)
            pairs += (G - std::abs(dr)) * (G - std::abs(dc)) * std::hypot(dr, dc);
    const double exact = P * pairs / (G * G * G * G);
    EXPECT_NEAR(exact, 14.437861767102035, 1e-12);  // NumPy: mean of the 49 × 49 distances
    // The class token's weight is dropped; its row and column are ignored.
    EXPECT_NEAR(meanAttentionDistance(Mat::Constant(50, 50, 1.0f / 50), {G, P, true}).px, exact,
                1e-9);
    EXPECT_NEAR(meanAttentionDistance(Mat::Constant(49, 49, 1.0f / 49), {G, P, false}).px, exact,
                1e-9);
    EXPECT_NEAR(uniformAttentionDistance({G, P, true}), exact, 1e-9);
}

TEST(AttentionDistance, RefusesWeightsOfAnotherShape) {
    EXPECT_NE(test::errorOf([] {
                  meanAttentionDistance(Mat::Ones(49, 49), {7, 4, true});
              }).find("weights of 49×49 for a grid of 50 positions"),
              std::string::npos);
    EXPECT_FALSE(test::errorOf([] {
                     meanAttentionDistance(Mat::Ones(1, 1), {0, 4, false});
                 }).empty());
}

// Over several images: the mean over every weighted row, per head; per block the mean of heads.
TEST(AttentionDistance, AccumulatesOverImages) {
    const PatchGrid grid{2, 3, false};
    auto block = [](std::vector<Mat> heads) {
        CapturedBlock b;
        b.name = "encoder.layers.0.self_attn";
        b.heads = int(heads.size());
        b.weights = std::move(heads);
        return std::vector<CapturedBlock>{b};
    };
    Mat oneRow = Mat::Zero(4, 4);
    oneRow(0, 3) = 1;  // one row, 3√2 px; the other three carry no weight
    AttentionDistances d(grid);
    d.add(block({Mat::Identity(4, 4), Mat::Ones(4, 4)}));
    d.add(block({oneRow, Mat::Ones(4, 4)}));
    EXPECT_EQ(d.images(), 2);
    const auto heads = d.perHead();
    const double s2 = std::sqrt(2.0), uniform = 0.25 * (3 * s2 + 6);
    EXPECT_EQ(heads[0][0].rows, 5);
    EXPECT_NEAR(heads[0][0].px, (4 * 0.0 + 3 * s2) / 5, 1e-12);
    EXPECT_EQ(heads[0][1].rows, 8);
    EXPECT_NEAR(heads[0][1].px, uniform, 1e-12);
    EXPECT_NEAR(d.perBlock()[0], ((3 * s2) / 5 + uniform) / 2, 1e-12);
    EXPECT_NE(test::errorOf([&] { d.add(block({Mat::Ones(4, 4)})); }).find("1 heads after 2"),
              std::string::npos);
}
