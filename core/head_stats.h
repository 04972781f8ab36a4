// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What a head does, in numbers (issue 15; definitions and references in docs/analysis.md).
// Every statistic is computed on row-normalised weights p_ij = w_ij / Σ_j w_ij over the
// allowed keys of query i (keys j < Nk, and j <= i in decoder self-attention), with i and j
// the positions of the captured matrix. Rows without weight are left out.
#include <vector>

#include "tensor.h"

namespace attnviz {

struct CapturedBlock;
struct ModelConfig;

// One head's weights for one sentence: [Nq, Nk], as captured (core/attention/block.h).
struct HeadTable {
    const Mat* weights = nullptr;
    bool causal = false;  // decoder self-attention: key j allowed only up to query i
};

struct GaussianFit {
    double offset = 0;  // μ: the window's centre relative to the query, j - i
    double sigma = 1;   // σ > 0, in positions
    double r2 = 0;      // 1 - SSE / Σ (p_ij - p̄)²; 1: the head is that Gaussian
    double sse = 0;     // Σ_i Σ_j (p_ij - g_ij)² at the fit
};

struct HeadStats {
    double entropy = 0;     // mean over rows of -Σ_j p_ij ln p_ij (nats)
    double confidence = 0;  // mean over rows of max_j p_ij (Voita et al. 2019)
    double distance = 0;    // mean over rows of Σ_j p_ij |i - j|
    int rows = 0;           // rows that carry weight
    GaussianFit fit;
};

// Statistics over a set of tables of one head (one per sentence): entropy, confidence and
// distance are means over all rows of all tables; the Gaussian fit is one (μ, σ) for all.
HeadStats headStats(const std::vector<HeadTable>& tables);
// The same with a hint for the fit (fitGaussian with a hint).
HeadStats headStats(const std::vector<HeadTable>& tables, const GaussianFit* hint,
                    bool* certified = nullptr);
// headStats without the fit (`fit` left at its default): the row statistics alone, for heads
// that no Gaussian of offsets describes (image heads, whose distance is on the patch grid).
HeadStats rowStats(const std::vector<HeadTable>& tables);

// The Gaussian g_ij ∝ exp(-(j - i - μ)² / 2σ²), normalised over the allowed keys of row i,
// closest to p in squared error over every row of every table, within |μ| <= N and
// 0.05 <= σ <= 4N (N: the most keys of any table; beyond, a "window" is a ramp over the
// whole row): a grid over the box judged on at most 64 of the rows, a damped Newton search
// from the three best grid points on the same rows, and the best polished on every row
// (docs/analysis.md).
// With a hint, e.g. the same head's fit on the sentence before (another length): when the
// tables are that Gaussian (SSE at the hint ≤ 1e-9 of Σ (p_ij − p̄)², R² ≥ 1 − 1e-9: a hard-coded
// window), no other (μ, σ) can be much better, and the search is only the polish from the hint;
// *certified (when given) says whether it was. Otherwise the whole search, as above. The results
// agree with the search's within 1e-6 (test GaussianFit.AHintGivesTheSameFit).
GaussianFit fitGaussian(const std::vector<HeadTable>& tables, const GaussianFit* hint = nullptr,
                        bool* certified = nullptr);
// Squared error Σ (p_ij - g_ij)² of a given (μ, σ) over the tables (what fitGaussian minimises).
double gaussianSse(const std::vector<HeadTable>& tables, double offset, double sigma);

// One head's table minus its Gaussian fit: r_ij = p_ij - g_ij over the allowed keys of each
// row (0 elsewhere, and for rows without weight) [Nq, Nk], with the fit in *fit when given.
// Where a head departs from "a fixed window would do" (the difference maps of issue 15).
Mat gaussianResidual(const HeadTable& table, GaussianFit* fit = nullptr);
// The same for a fit already made (fitGaussian of this table).
Mat gaussianResidual(const HeadTable& table, const GaussianFit& fit);

// Mean weight at each relative offset k = j - i, for k = -maxOffset .. maxOffset, over every
// row of every table (rows normalised as above; offsets a row cannot reach do not count).
std::vector<double> offsetProfile(const std::vector<HeadTable>& tables, int maxOffset);

// The offset profile a Gaussian (μ, σ) would have over the same tables: offsetProfile of
// g_ij in place of p_ij, row by row over the same allowed keys (drawn beside the head's own).
std::vector<double> gaussianOffsetProfile(const std::vector<HeadTable>& tables,
                                          const GaussianFit& fit, int maxOffset);

// How much a head's rows depend on the input (our definition; docs/analysis.md): rows are
// grouped by what fixes them when the input does not matter — the table's shape and the
// query position i — and the input dependence is the mean, over every pair of sentences in
// a group, of the total-variation distance ½ Σ_j |p_ij - p'_ij| between their rows i. In
// [0, 1]; exactly 0 for heads whose weights depend on positions only (random synthesizers,
// Gaussian windows); > 0 for dot-product. `compared` receives the number of rows in groups
// of at least two sentences (0: no two sentences share a shape, nothing to compare).
double inputDependence(const std::vector<HeadTable>& tables, int* compared = nullptr);

// The patch grid of an image model (arch "vit", docs/model-spec.md 3.10): G × G patches of
// P × P pixels in row-major order, after the class token (position 0) when there is one.
struct PatchGrid {
    int grid = 0;             // G, patches per side
    int patch = 0;            // P, pixels per side of a patch
    bool classToken = false;  // pool "cls": position 0 is the class token
    int positions() const { return grid * grid + (classToken ? 1 : 0); }
};
// The grid of an image model's configuration (cfg.isVision()).
PatchGrid patchGrid(const ModelConfig& cfg);

// Mean attention distance of a head (docs/model-spec.md 4.4; Dosovitskiy et al. 2021, Fig. 7):
// the mean over patch queries i of Σ_t p_it · P · sqrt((r_t − r_i)² + (c_t − c_i)²) pixels,
// with p_it the query's row restricted to the patch keys t and renormalised to sum 1 (the
// class token is neither a query nor a key). `px` is that mean over `rows` rows; rows
// without weight on the patch keys are left out (px 0 when no row has any).
struct AttentionDistance {
    double px = 0;
    int rows = 0;
};
// One head on one image: weights [N, N] with N = grid.positions() (as captured). Error when
// the shape is not the grid's.
AttentionDistance meanAttentionDistance(const Mat& weights, const PatchGrid& grid);
// What uniform attention over the patches gives on this grid: 14.44 px for 7 × 7 patches of
// 4 pixels (the reference line of the ViT figure).
double uniformAttentionDistance(const PatchGrid& grid);

// Every head's mean attention distance of an image model over a set of images, one image at
// a time (no image's weights need be kept): the mean over the patch queries of all images,
// i.e. over images of the per-image means when every row carries weight.
//   AttentionDistances d(patchGrid(model.config()));
//   for (image : images) d.add(model.analyzeImage(image).blocks);
//   d.perHead()[block][head], d.perBlock()[block] (mean of the block's heads)
class AttentionDistances {
public:
    explicit AttentionDistances(PatchGrid grid) : m_grid(grid) {}
    // One image's captured blocks, weights [heads] of [N, N]. Error when their number or
    // shapes differ from the first image's or from the grid.
    void add(const std::vector<CapturedBlock>& blocks);
    int images() const { return m_images; }
    // [blocks][heads] the means over every row so far (AttentionDistance::rows their count).
    std::vector<std::vector<AttentionDistance>> perHead() const;
    // [blocks] the mean of each block's heads' px (heads without rows left out).
    std::vector<double> perBlock() const;

private:
    PatchGrid m_grid;
    int m_images = 0;
    std::vector<std::vector<double>> m_sumPx;  // [blocks][heads] Σ px·rows
    std::vector<std::vector<int>> m_rows;      // [blocks][heads]
};

// Attention rollout (Abnar & Zuidema 2020) through a stack of self-attention layers: each
// layer's mean of heads W̄ (rows as captured) becomes Ã = ½ W̄ + ½ I with rows renormalised,
// and the rollout is Ã_L · … · Ã_1 [N, N]: how much each output position draws on each input
// position through the residual stream. `layers` in order, every one [N, N].
Mat attentionRollout(const std::vector<Mat>& headMeans);

}  // namespace attnviz
