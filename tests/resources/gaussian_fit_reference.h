// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The Gaussian fit as it was before issue 26 (commit 89ba65d, core/head_stats.cpp), kept
// verbatim as the reference that the fast fit must reproduce: a grid over the whole box with
// one exp per cell of every row, then Nelder–Mead from the three best grid points. About 20 ms
// a head at 47 tokens, so the tests run it on short sentences only.
#include <algorithm>
#include <array>
#include <cmath>
#include <tuple>
#include <vector>

#include "core/head_stats.h"

namespace attnviz::test::reference {

// Allowed keys of row i: 0 .. n-1.
inline int allowedKeys(const HeadTable& t, int i) {
    const int nk = int(t.weights->cols());
    return t.causal ? std::min(nk, i + 1) : nk;
}

// Row i normalised over its allowed keys (double); empty when it carries no weight.
inline std::vector<double> normalisedRow(const HeadTable& t, int i) {
    const int n = allowedKeys(t, i);
    std::vector<double> p(size_t(std::max(0, n)));
    double sum = 0;
    for (int j = 0; j < n; ++j) sum += (p[size_t(j)] = std::max(0.0, double((*t.weights)(i, j))));
    if (!(sum > 0) || !std::isfinite(sum)) return {};
    for (double& x : p) x /= sum;
    return p;
}

// g_ij for row i over n keys, normalised.
inline void gaussianRow(int i, int n, double mu, double sigma, std::vector<double>& g) {
    g.resize(size_t(n));
    double sum = 0;
    for (int j = 0; j < n; ++j) {
        const double z = (j - i - mu) / sigma;
        sum += (g[size_t(j)] = std::exp(-0.5 * z * z));
    }
    if (sum > 0) {
        for (double& x : g) x /= sum;
    } else {  // every key far outside the window: all weight on the nearest key
        std::fill(g.begin(), g.end(), 0.0);
        g[size_t(std::clamp(int(std::lround(i + mu)), 0, n - 1))] = 1;
    }
}

// Every row with weight of the tables, normalised once: (query position i, p_i·).
struct Rows {
    std::vector<std::pair<int, std::vector<double>>> rows;
    explicit Rows(const std::vector<HeadTable>& tables) {
        for (const auto& t : tables)
            for (int i = 0; i < int(t.weights->rows()); ++i)
                if (auto p = normalisedRow(t, i); !p.empty()) rows.emplace_back(i, std::move(p));
    }
    // Σ_i Σ_j (p_ij - g_ij)² for (μ, σ), in the order gaussianSse has always summed.
    double sse(double mu, double sigma) const {
        double sse = 0;
        std::vector<double> g;
        for (const auto& [i, p] : rows) {
            gaussianRow(i, int(p.size()), mu, sigma, g);
            for (size_t j = 0; j < p.size(); ++j) sse += (p[j] - g[j]) * (p[j] - g[j]);
        }
        return sse;
    }
};

inline GaussianFit fitGaussian(const std::vector<HeadTable>& tables) {
    // The total sum of squares around the mean weight, for R².
    double sum = 0, sumSq = 0;
    long count = 0;
    int maxKeys = 1;
    for (const auto& t : tables) {
        maxKeys = std::max(maxKeys, int(t.weights->cols()));
        for (int i = 0; i < int(t.weights->rows()); ++i)
            for (double x : normalisedRow(t, i)) sum += x, sumSq += x * x, ++count;
    }
    GaussianFit best;
    if (count == 0) return best;
    const double sst = sumSq - sum * sum / double(count);
    // The box (docs/analysis.md): |μ| <= N and 0.05 <= σ <= 4N, N the most keys of any table;
    // σ is searched on a log scale (s = ln σ).
    const double sMin = std::log(0.05), sMax = std::log(4.0 * maxKeys);
    const double muMax = maxKeys;
    const Rows rows(tables);  // normalised once: the search evaluates thousands of (μ, σ)
    auto f = [&](double mu, double s) {
        s = std::clamp(s, sMin, sMax);
        mu = std::clamp(mu, -muMax, muMax);
        return rows.sse(mu, std::exp(s));
    };
    // Grid over the whole box: μ every max(½, N/16) positions, σ at 16 log-spaced values.
    std::vector<std::tuple<double, double, double>> grid;  // (sse, μ, s)
    const double step = std::max(0.5, muMax / 16);
    for (double mu = -muMax; mu <= muMax + 1e-9; mu += step)
        for (int k = 0; k < 16; ++k) {
            const double s = sMin + (sMax - sMin) * k / 15.0;
            grid.emplace_back(f(mu, s), mu, s);
        }
    std::sort(grid.begin(), grid.end());
    double bestSse = std::get<0>(grid.front());
    double bestMu = std::get<1>(grid.front()), bestS = std::get<2>(grid.front());
    // Nelder–Mead from the three best grid points.
    for (size_t start = 0; start < std::min<size_t>(3, grid.size()); ++start) {
        using P = std::array<double, 2>;
        std::array<P, 3> x{P{std::get<1>(grid[start]), std::get<2>(grid[start])},
                           P{std::get<1>(grid[start]) + 0.3, std::get<2>(grid[start])},
                           P{std::get<1>(grid[start]), std::get<2>(grid[start]) + 0.3}};
        std::array<double, 3> fx{};
        for (int v = 0; v < 3; ++v) fx[size_t(v)] = f(x[size_t(v)][0], x[size_t(v)][1]);
        for (int iter = 0; iter < 400; ++iter) {
            std::array<int, 3> o{0, 1, 2};
            std::sort(o.begin(), o.end(),
                      [&](int a, int b) { return fx[size_t(a)] < fx[size_t(b)]; });
            const P lo = x[size_t(o[0])], mid = x[size_t(o[1])], hi = x[size_t(o[2])];
            const double flo = fx[size_t(o[0])], fmid = fx[size_t(o[1])], fhi = fx[size_t(o[2])];
            if (std::abs(fhi - flo) <= 1e-15 * (1 + std::abs(flo)) &&
                std::abs(hi[0] - lo[0]) + std::abs(hi[1] - lo[1]) < 1e-9)
                break;
            const P c{(lo[0] + mid[0]) / 2, (lo[1] + mid[1]) / 2};
            auto along = [&](double t) {
                return P{c[0] + t * (hi[0] - c[0]), c[1] + t * (hi[1] - c[1])};
            };
            const P r = along(-1);
            const double fr = f(r[0], r[1]);
            P next = r;
            double fnext = fr;
            if (fr < flo) {
                const P e = along(-2);
                const double fe = f(e[0], e[1]);
                if (fe < fr) next = e, fnext = fe;
            } else if (fr >= fmid) {
                const P k = along(fr < fhi ? -0.5 : 0.5);
                const double fk = f(k[0], k[1]);
                if (fk < std::min(fr, fhi)) {
                    next = k, fnext = fk;
                } else {  // shrink towards the best point
                    for (int v : {o[1], o[2]}) {
                        x[size_t(v)] =
                            P{(x[size_t(v)][0] + lo[0]) / 2, (x[size_t(v)][1] + lo[1]) / 2};
                        fx[size_t(v)] = f(x[size_t(v)][0], x[size_t(v)][1]);
                    }
                    continue;
                }
            }
            x[size_t(o[2])] = next;
            fx[size_t(o[2])] = fnext;
        }
        for (int v = 0; v < 3; ++v)
            if (fx[size_t(v)] < bestSse) {
                bestSse = fx[size_t(v)];
                bestMu = std::clamp(x[size_t(v)][0], -muMax, muMax);
                bestS = std::clamp(x[size_t(v)][1], sMin, sMax);
            }
    }
    best.offset = bestMu;
    best.sigma = std::exp(bestS);
    best.sse = bestSse;
    best.r2 = sst > 0 ? 1 - bestSse / sst : (bestSse <= 1e-12 ? 1.0 : 0.0);
    return best;
}

}  // namespace attnviz::test::reference
