// SPDX-License-Identifier: GPL-3.0-or-later
#include "head_stats.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>
#include <tuple>

#include "attention/block.h"
#include "config.h"
#include "error.h"

namespace attnviz {
namespace {

// Allowed keys of row i: 0 .. n-1.
int allowedKeys(const HeadTable& t, int i) {
    const int nk = int(t.weights->cols());
    return t.causal ? std::min(nk, i + 1) : nk;
}

// Row i normalised over its allowed keys (double) into `p`, reusing its storage; false (and
// `p` not meaningful) when the row carries no weight.
bool normaliseRow(const HeadTable& t, int i, std::vector<double>& p) {
    const int n = allowedKeys(t, i);
    p.resize(size_t(std::max(0, n)));
    double sum = 0;
    for (int j = 0; j < n; ++j) sum += (p[size_t(j)] = std::max(0.0, double((*t.weights)(i, j))));
    if (!(sum > 0) || !std::isfinite(sum)) return false;
    for (double& x : p) x /= sum;
    return true;
}

// The same as a value; empty when the row carries no weight.
std::vector<double> normalisedRow(const HeadTable& t, int i) {
    std::vector<double> p;
    return normaliseRow(t, i, p) ? p : std::vector<double>{};
}

// g_ij for row i over n keys, normalised.
void gaussianRow(int i, int n, double mu, double sigma, std::vector<double>& g) {
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

// Σ x_j and Σ (p_j − x_j·scale)² over n cells, in four interleaved sums (the order fixed, so
// the result does not depend on where the arrays lie in memory, as Eigen's vectorised sums do).
double sum(const double* x, int n) {
    double s[4] = {0, 0, 0, 0};
    int j = 0;
    for (; j + 4 <= n; j += 4)
        for (int k = 0; k < 4; ++k) s[k] += x[j + k];
    for (; j < n; ++j) s[0] += x[j];
    return (s[0] + s[1]) + (s[2] + s[3]);
}
double squaredDistance(const double* p, const double* x, double scale, int n) {
    double s[4] = {0, 0, 0, 0};
    int j = 0;
    for (; j + 4 <= n; j += 4)
        for (int k = 0; k < 4; ++k) {
            const double d = p[j + k] - x[j + k] * scale;
            s[k] += d * d;
        }
    for (; j < n; ++j) s[0] += (p[j] - x[j] * scale) * (p[j] - x[j] * scale);
    return (s[0] + s[1]) + (s[2] + s[3]);
}

// Every row with weight of the tables, normalised once, for the fit's evaluations of (μ, σ):
// row r holds p_r· [n_r] in `m_p`, its query position i_r, and the running sums of p² so that
// cells outside a window cost nothing.
//
// One evaluation of Σ_r Σ_j (p_rj − g_rj)²: the unnormalised window depends only on the
// offset k = j − i, so e_k = exp(−½((k − μ)/σ)²) is computed once for every offset the rows
// reach (by a recurrence: three exps, not one per cell); row r's Gaussian is g_rj = e_{j−i} / Z_r
// over its allowed keys. Cells where e_{j−i} < e^−41.6 (≈ 2^−60) of the row's largest e are taken
// as g = 0: they add p² (from the running sums), an error below 1e-17 per cell.
class FitRows {
public:
    explicit FitRows(const std::vector<HeadTable>& tables) {
        size_t cells = 0, rows = 0;
        for (const auto& t : tables)
            cells += size_t(t.weights->size()), rows += size_t(t.weights->rows());
        m_p.reserve(cells), m_p2.reserve(cells + rows), m_rows.reserve(rows);
        std::vector<double> p;
        for (const auto& t : tables)
            for (int i = 0; i < int(t.weights->rows()); ++i)
                if (normaliseRow(t, i, p)) add(i, p.data(), int(p.size()));
        m_e.resize(size_t(m_kMax - m_kMin + 1));
    }
    // At most `most` of the rows, evenly spaced (the first and last kept): for the grid,
    // which only chooses where the exact search starts.
    FitRows sample(int most) const {
        if (int(m_rows.size()) <= most) return *this;
        FitRows out;
        for (int k = 0; k < most; ++k) {
            const Row& r = m_rows[size_t(k) * (m_rows.size() - 1) / size_t(most - 1)];
            out.add(r.i, m_p.data() + r.start, r.n);
        }
        out.m_e.resize(size_t(out.m_kMax - out.m_kMin + 1));
        return out;
    }
    bool empty() const { return m_p.empty(); }
    // Entropy, confidence and distance as means over the rows (HeadStats without its fit),
    // from the rows as normalised for the fit: each row is normalised once.
    HeadStats rowStats() const {
        HeadStats s;
        for (const Row& r : m_rows) {
            const double* p = m_p.data() + r.start;
            double h = 0, mx = 0, dist = 0;
            for (int j = 0; j < r.n; ++j) {
                if (p[j] > 0) h -= p[j] * std::log(p[j]);
                mx = std::max(mx, p[j]);
                dist += p[j] * std::abs(double(r.i) - double(j));
            }
            s.entropy += h, s.confidence += mx, s.distance += dist, ++s.rows;
        }
        if (s.rows > 0) {
            s.entropy /= s.rows;
            s.confidence /= s.rows;
            s.distance /= s.rows;
        }
        return s;
    }
    // Σ (p_ij − p̄)² over every cell of every row, for R².
    double totalSquares() const {
        double sum = 0, sumSq = 0;
        for (double x : m_p) sum += x, sumSq += x * x;
        return sumSq - sum * sum / double(m_p.size());
    }

    // Σ (p − g)² at (μ, σ).
    double sse(double mu, double sigma) const { return visit(mu, sigma, nullptr); }
    // The same, or a partial sum above `bound` as soon as the rows so far exceed it (each row
    // adds a square): the grid needs the best few points only.
    double sseBelow(double mu, double sigma, double bound) const {
        return visit(mu, sigma, nullptr, bound);
    }

    // The normal equations of the residuals r = p − g in θ = (μ, s = ln σ): JᵀJ (a11, a12,
    // a22), −Jᵀr (b1, b2) and Σ_j r_j ∂²g_j/∂θ∂θ' (c11, c12, c22), so that the Hessian of ½ Σ r²
    // is JᵀJ − c; returns Σ r² as sse does.
    struct Normal {
        double a11 = 0, a12 = 0, a22 = 0, b1 = 0, b2 = 0, c11 = 0, c12 = 0, c22 = 0;
    };
    double normal(double mu, double sigma, Normal& n) const { return visit(mu, sigma, &n); }

private:
    struct Row {
        int i, n;       // query position, allowed keys
        size_t start;   // p_r0 in m_p
        size_t start2;  // its n + 1 running sums of p² in m_p2
    };
    FitRows() = default;
    void add(int i, const double* p, int n) {
        m_rows.push_back({i, n, m_p.size(), m_p2.size()});
        m_kMin = std::min(m_kMin, -i);
        m_kMax = std::max(m_kMax, n - 1 - i);
        double run = 0;
        m_p2.push_back(0);
        for (int j = 0; j < n; ++j) m_p.push_back(p[j]), m_p2.push_back(run += p[j] * p[j]);
    }

    double visit(double mu, double sigma, Normal* nrm,
                 double bound = std::numeric_limits<double>::infinity()) const {
        const double inv = 1 / sigma;
        fillWindow(mu, inv);
        const double spread2 = 2 * 41.6 * sigma * sigma;
        double total = 0;
        for (const Row& r : m_rows) {
            const double* p = m_p.data() + r.start;
            const double* p2 = m_p2.data() + r.start2;  // p2[j] = Σ_{j' < j} p_j'²
            // The row's allowed key nearest to μ, where its largest e is, and its window.
            const int jNear = int(std::clamp<long>(std::lround(r.i + mu), 0, r.n - 1));
            const double centre = r.i + mu, gap = jNear - centre;
            const double reach = std::sqrt(gap * gap + spread2);
            const int a = int(std::max(0.0, std::ceil(centre - reach)));
            const int b = int(std::min(double(r.n - 1), std::floor(centre + reach)));
            const double* e = m_e.data() + (-m_kMin - r.i);  // e[j] = e_{j−i}
            const int len = b - a + 1;
            double z = sum(e + a, len);
            if (!(z > 0)) {  // every key far outside the window: all weight on the nearest key
                total += p2[r.n] - 2 * p[jNear] + 1;
                if (total > bound) return total;
                continue;
            }
            if (z < 1e-290) {  // 1/z would overflow: the row's window scaled by 2^600 (exact)
                m_scaled.assign(size_t(r.n), 0.0);
                for (int j = a; j <= b; ++j) m_scaled[size_t(j)] = std::ldexp(e[j], 600);
                e = m_scaled.data();
                z = std::ldexp(z, 600);
            }
            const double invZ = 1 / z;
            // Σ (p − g)² inside the window: with the normal equations, from their pass.
            const double inside = nrm ? jacobian(r, p, e + 0, a, b, invZ, mu, inv, *nrm)
                                      : squaredDistance(p + a, e + a, invZ, len);
            total += inside + p2[a] + (p2[r.n] - p2[b + 1]);
            if (total > bound) return total;
        }
        return total;
    }

    // e_k for k = kMin .. kMax by the recurrence e_{k±1} = e_k · q, with q itself multiplied by
    // c = exp(−1/σ²) at each step, outwards from the offset nearest μ (three exps instead of
    // 2N − 1; relative error about 1e-14, and underflow to 0 far from μ as exp's own).
    void fillWindow(double mu, double inv) const {
        const int k0 = int(std::clamp<long>(std::lround(mu), m_kMin, m_kMax));
        const double h = 0.5 * inv * inv, c = std::exp(-2 * h), d0 = k0 - mu;
        double* e = m_e.data() - m_kMin;  // e[k]
        e[k0] = std::exp(-h * d0 * d0);
        double q = std::exp(-h * (2 * d0 + 1));  // e_{k0+1} / e_{k0}
        for (int k = k0 + 1; k <= m_kMax; ++k, q *= c) e[k] = e[k - 1] * q;
        q = std::exp(-h * (1 - 2 * d0));  // e_{k0−1} / e_{k0}
        for (int k = k0 - 1; k >= m_kMin; --k, q *= c) e[k] = e[k + 1] * q;
    }

    // Row r's part of the normal equations. With d = (j − i − μ)/σ, α_j = ∂ln e_j/∂μ = d/σ and
    // β_j = ∂ln e_j/∂s = d², ∂g_j/∂θ = g_j (α_j − ᾱ) for μ (β for s), ᾱ = Σ_j g_j α_j; r = p − g,
    // so J = −∂g/∂θ. The second derivatives, with C the g-weighted covariances and ∂²ln e/∂μ² =
    // −1/σ², ∂²ln e/∂μ∂s = −2α, ∂²ln e/∂s² = −2β:
    //   ∂²g_j/∂μ² = g_j [(α_j − ᾱ)² − C_αα], ∂²g_j/∂μ∂s = g_j [(α_j − ᾱ)(β_j − β̄) − C_αβ −
    //   2(α_j − ᾱ)], ∂²g_j/∂s² = g_j [(β_j − β̄)² − C_ββ − 2(β_j − β̄)].
    // Returns Σ_j (p_j − g_j)² over the window, which its second pass has at hand.
    static double jacobian(const Row& r, const double* p, const double* e, int a, int b,
                           double invZ, double mu, double inv, Normal& n) {
        // Sums in four interleaved lanes and in locals (n could alias p or e for the compiler,
        // which then stored every sum at every cell), so that the loops vectorise.
        constexpr int L = 4;
        double ma[L] = {}, mb[L] = {}, maa[L] = {}, mab[L] = {}, mbb[L] = {};
        auto first = [&](int j, int k) {
            const double d = (j - r.i - mu) * inv, g = e[j] * invZ, al = d * inv, be = d * d;
            ma[k] += g * al, mb[k] += g * be, maa[k] += g * al * al, mab[k] += g * al * be,
                mbb[k] += g * be * be;
        };
        int j = a;
        for (; j + L - 1 <= b; j += L)
            for (int k = 0; k < L; ++k) first(j + k, k);
        for (; j <= b; ++j) first(j, 0);
        auto total = [](const double* x) { return (x[0] + x[1]) + (x[2] + x[3]); };
        const double sa = total(ma), sb = total(mb);
        const double caa = total(maa) - sa * sa, cab = total(mab) - sa * sb,
                     cbb = total(mbb) - sb * sb;
        double a11[L] = {}, a12[L] = {}, a22[L] = {}, b1[L] = {}, b2[L] = {}, c11[L] = {},
               c12[L] = {}, c22[L] = {}, sq[L] = {};
        auto second = [&](int j, int k) {
            const double d = (j - r.i - mu) * inv, g = e[j] * invZ;
            const double da = d * inv - sa, db = d * d - sb;
            const double u = g * da, v = g * db, res = p[j] - g, rg = res * g;
            a11[k] += u * u, a12[k] += u * v, a22[k] += v * v;
            b1[k] += u * res, b2[k] += v * res;
            c11[k] += rg * (da * da - caa);
            c12[k] += rg * (da * db - cab - 2 * da);
            c22[k] += rg * (db * db - cbb - 2 * db);
            sq[k] += res * res;
        };
        for (j = a; j + L - 1 <= b; j += L)
            for (int k = 0; k < L; ++k) second(j + k, k);
        for (; j <= b; ++j) second(j, 0);
        n.a11 += total(a11), n.a12 += total(a12), n.a22 += total(a22);
        n.b1 += total(b1), n.b2 += total(b2);
        n.c11 += total(c11), n.c12 += total(c12), n.c22 += total(c22);
        return total(sq);
    }

    std::vector<Row> m_rows;
    std::vector<double> m_p, m_p2;
    int m_kMin = 0, m_kMax = 0;
    mutable std::vector<double> m_e;       // scratch: e_k, k = kMin .. kMax
    mutable std::vector<double> m_scaled;  // scratch: one row's window, scaled
};

// The box (docs/analysis.md): |μ| <= N and 0.05 <= σ <= 4N, σ searched as s = ln σ.
struct Box {
    double muMax, sMin, sMax;
    double mu(double m) const { return std::clamp(m, -muMax, muMax); }
    double s(double v) const { return std::clamp(v, sMin, sMax); }
};

// Damped Newton from (μ, s) on the exact squared error, inside the box: the step solves
// (H + λ·diag) δ = −∇ with H the Hessian where it is positive definite (quadratic convergence
// near a minimum), else JᵀJ (Gauss–Newton, always a descent direction); λ shrinks after a step
// that lowers the error and grows after one that does not (Levenberg–Marquardt). A parameter
// at its bound that the step would push out stays there and the other moves alone. Until an
// accepted step is below `tolerance` or no step helps.
std::array<double, 3> refine(const FitRows& rows, const Box& box, double mu, double s,
                             double tolerance) {
    FitRows::Normal n;
    double f = rows.normal(mu, std::exp(s), n), lambda = 1e-3;
    for (int iter = 0; iter < 300 && lambda < 1e12; ++iter) {
        double h11 = n.a11 - n.c11, h12 = n.a12 - n.c12, h22 = n.a22 - n.c22;
        if (!(h11 > 0 && h22 > 0 && h11 * h22 > h12 * h12)) h11 = n.a11, h12 = n.a12, h22 = n.a22;
        const double d11 = h11 * (1 + lambda) + 1e-30, d22 = h22 * (1 + lambda) + 1e-30;
        const double det = d11 * d22 - h12 * h12;
        double dMu = det > 0 ? (d22 * n.b1 - h12 * n.b2) / det : n.b1 / d11;
        double dS = det > 0 ? (d11 * n.b2 - h12 * n.b1) / det : n.b2 / d22;
        const bool muHeld = (mu >= box.muMax && dMu > 0) || (mu <= -box.muMax && dMu < 0);
        const bool sHeld = (s >= box.sMax && dS > 0) || (s <= box.sMin && dS < 0);
        if (muHeld) dMu = 0, dS = n.b2 / d22;
        if (sHeld) dS = 0, dMu = muHeld ? 0 : n.b1 / d11;
        const double nextMu = box.mu(mu + dMu), nextS = box.s(s + dS);
        const double step = std::abs(nextMu - mu) + std::abs(nextS - s);
        if (step == 0) break;
        FitRows::Normal next;
        const double fNext = rows.normal(nextMu, std::exp(nextS), next);
        if (fNext < f) {
            mu = nextMu, s = nextS, f = fNext, n = next;
            lambda = std::max(1e-12, lambda / 10);
            if (step < tolerance) break;
        } else {
            if (step < tolerance * 1e-2) break;
            lambda *= 10;
        }
    }
    return {f, mu, s};
}

}  // namespace

double gaussianSse(const std::vector<HeadTable>& tables, double offset, double sigma) {
    return FitRows(tables).sse(offset, sigma);
}

namespace {

GaussianFit fitOf(const std::array<double, 3>& found, double sst) {
    GaussianFit fit;
    fit.offset = found[1];
    fit.sigma = std::exp(found[2]);
    fit.sse = found[0];
    fit.r2 = sst > 0 ? 1 - found[0] / sst : (found[0] <= 1e-12 ? 1.0 : 0.0);
    return fit;
}

// fitGaussian on rows already normalised; maxKeys: the most keys of any table; hint and
// certified as fitGaussian's.
GaussianFit fitRows(const FitRows& rows, int maxKeys, const GaussianFit* hint, bool* certified) {
    if (certified) *certified = false;
    if (rows.empty()) return {};
    const double sst = rows.totalSquares();
    const Box box{double(maxKeys), std::log(0.05), std::log(4.0 * maxKeys)};
    if (hint && sst > 0 && hint->sigma > 0) {
        const double mu = box.mu(hint->offset), s = box.s(std::log(hint->sigma));
        if (rows.sse(mu, std::exp(s)) <= 1e-9 * sst) {
            if (certified) *certified = true;
            return fitOf(refine(rows, box, mu, s, 1e-9), sst);
        }
    }
    // Where to start: a grid over the whole box (μ every max(½, N/16) positions, σ at 16
    // log-spaced values), each point judged on at most kSampleRows of the rows; a point stops
    // being summed once it is worse than the third best so far (exact: only three are used).
    // Fewer rows were not enough: on a 47-word sentence, judged on 16 and 24 rows, 17 of 421
    // bundled heads ended in a worse window than the search on every row finds (test
    // GaussianFit.SameAsTheSearchItReplacedOnALongSentence).
    constexpr int kSampleRows = 64;
    const FitRows some = rows.sample(kSampleRows);
    std::vector<std::tuple<double, double, double>> grid;  // (sse, μ, s)
    std::array<double, 3> best3;                           // the three lowest, ascending
    best3.fill(std::numeric_limits<double>::infinity());
    const double step = std::max(0.5, box.muMax / 16);
    std::vector<double> mus;
    for (double mu = -box.muMax; mu <= box.muMax + 1e-9; mu += step) mus.push_back(mu);
    // Centres near the query first, where most heads' windows are: the bound is low early.
    std::stable_sort(mus.begin(), mus.end(),
                     [](double a, double b) { return std::abs(a) < std::abs(b); });
    for (double mu : mus)
        for (int k = 0; k < 16; ++k) {
            const double s = box.sMin + (box.sMax - box.sMin) * k / 15.0;
            const double e = some.sseBelow(mu, std::exp(s), best3[2]);
            grid.emplace_back(e, mu, s);
            if (e < best3[2]) {
                best3[2] = e;
                std::sort(best3.begin(), best3.end());
            }
        }
    std::sort(grid.begin(), grid.end());
    // The search from the three best grid points to 1e-4 (which basin) on the same rows,
    // then from the best of them to 1e-9 on every row.
    std::array<double, 3> found{std::numeric_limits<double>::infinity(), 0, 0};
    for (size_t start = 0; start < std::min<size_t>(3, grid.size()); ++start) {
        const auto r = refine(some, box, std::get<1>(grid[start]), std::get<2>(grid[start]), 1e-4);
        if (r[0] < found[0]) found = r;
    }
    return fitOf(refine(rows, box, found[1], found[2], 1e-9), sst);
}

int mostKeys(const std::vector<HeadTable>& tables) {
    int most = 1;
    for (const auto& t : tables) most = std::max(most, int(t.weights->cols()));
    return most;
}

}  // namespace

GaussianFit fitGaussian(const std::vector<HeadTable>& tables, const GaussianFit* hint,
                        bool* certified) {
    return fitRows(FitRows(tables), mostKeys(tables), hint, certified);
}

HeadStats rowStats(const std::vector<HeadTable>& tables) {
    return FitRows(tables).rowStats();
}

HeadStats headStats(const std::vector<HeadTable>& tables) {
    return headStats(tables, nullptr);
}

HeadStats headStats(const std::vector<HeadTable>& tables, const GaussianFit* hint,
                    bool* certified) {
    const FitRows rows(tables);  // every row normalised once, for both
    HeadStats s = rows.rowStats();
    s.fit = fitRows(rows, mostKeys(tables), hint, certified);
    return s;
}

std::vector<double> offsetProfile(const std::vector<HeadTable>& tables, int maxOffset) {
    std::vector<double> sum(size_t(2 * maxOffset + 1), 0.0), n(sum.size(), 0.0);
    for (const auto& t : tables)
        for (int i = 0; i < int(t.weights->rows()); ++i) {
            const auto p = normalisedRow(t, i);
            if (p.empty()) continue;
            for (int k = -maxOffset; k <= maxOffset; ++k) {
                const int j = i + k;
                if (j < 0 || j >= int(p.size())) continue;
                sum[size_t(k + maxOffset)] += p[size_t(j)];
                n[size_t(k + maxOffset)] += 1;
            }
        }
    for (size_t k = 0; k < sum.size(); ++k) sum[k] = n[k] > 0 ? sum[k] / n[k] : 0.0;
    return sum;
}

std::vector<double> gaussianOffsetProfile(const std::vector<HeadTable>& tables,
                                          const GaussianFit& fit, int maxOffset) {
    // The fitted Gaussian's rows where the head has weight, averaged at each offset as
    // offsetProfile averages the head's. Its window e_k = exp(−½((k − μ)/σ)²) depends on the
    // offset k = j − i only: one exp per offset, not per cell (the values gaussianRow gives).
    std::vector<double> sum(size_t(2 * maxOffset + 1), 0.0), n(sum.size(), 0.0);
    int kMin = 0, kMax = 0;
    for (const auto& t : tables)
        kMin = std::min(kMin, 1 - int(t.weights->rows())),
        kMax = std::max(kMax, int(t.weights->cols()) - 1);
    std::vector<double> e(size_t(kMax - kMin + 1));
    for (int k = kMin; k <= kMax; ++k) {
        const double z = (k - fit.offset) / fit.sigma;
        e[size_t(k - kMin)] = std::exp(-0.5 * z * z);
    }
    std::vector<double> p;
    for (const auto& t : tables)
        for (int i = 0; i < int(t.weights->rows()); ++i) {
            if (!normaliseRow(t, i, p)) continue;  // no weight: not in the head's either
            const int keys = allowedKeys(t, i);
            const double* ei = e.data() + (-i - kMin);  // ei[j] = e_{j−i}
            double z = 0;
            for (int j = 0; j < keys; ++j) z += ei[j];
            // Every key far outside the window: all weight on the nearest key (gaussianRow).
            const int nearest = std::clamp(int(std::lround(i + fit.offset)), 0, keys - 1);
            for (int k = -maxOffset; k <= maxOffset; ++k) {
                const int j = i + k;
                if (j < 0 || j >= keys) continue;
                sum[size_t(k + maxOffset)] += z > 0 ? ei[j] / z : double(j == nearest);
                n[size_t(k + maxOffset)] += 1;
            }
        }
    for (size_t k = 0; k < sum.size(); ++k) sum[k] = n[k] > 0 ? sum[k] / n[k] : 0.0;
    return sum;
}

double inputDependence(const std::vector<HeadTable>& tables, int* compared) {
    // Group key: (Nq, Nk, causal, i) -> the rows of that position in each sentence.
    std::map<std::tuple<long, long, bool, int>, std::vector<std::vector<double>>> groups;
    for (const auto& t : tables)
        for (int i = 0; i < int(t.weights->rows()); ++i) {
            auto p = normalisedRow(t, i);
            if (p.empty()) continue;
            groups[{long(t.weights->rows()), long(t.weights->cols()), t.causal, i}].push_back(
                std::move(p));
        }
    // Mean over pairs of sentences in a group of the rows' total-variation distance (pairs,
    // not distance to a group mean: identical rows give exactly 0, with no rounding).
    double total = 0;
    long pairs = 0;
    int rows = 0;
    for (const auto& [key, members] : groups) {
        if (members.size() < 2) continue;
        rows += int(members.size());
        for (size_t a = 0; a < members.size(); ++a)
            for (size_t b = a + 1; b < members.size(); ++b) {
                double tv = 0;
                for (size_t j = 0; j < members[a].size(); ++j)
                    tv += std::abs(members[a][j] - members[b][j]);
                total += tv / 2;
                ++pairs;
            }
    }
    if (compared) *compared = rows;
    return pairs > 0 ? total / double(pairs) : 0.0;
}

Mat gaussianResidual(const HeadTable& table, GaussianFit* fit) {
    const GaussianFit f = fitGaussian({table});
    if (fit) *fit = f;
    return gaussianResidual(table, f);
}

Mat gaussianResidual(const HeadTable& table, const GaussianFit& f) {
    Mat r = Mat::Zero(table.weights->rows(), table.weights->cols());
    std::vector<double> g;
    for (int i = 0; i < int(r.rows()); ++i) {
        const auto p = normalisedRow(table, i);
        if (p.empty()) continue;
        gaussianRow(i, int(p.size()), f.offset, f.sigma, g);
        for (size_t j = 0; j < p.size(); ++j) r(i, Eigen::Index(j)) = Scalar(p[j] - g[j]);
    }
    return r;
}

Mat attentionRollout(const std::vector<Mat>& headMeans) {
    if (headMeans.empty()) return Mat();
    const Eigen::Index n = headMeans.front().rows();
    Eigen::MatrixXd r = Eigen::MatrixXd::Identity(n, n);
    for (const Mat& w : headMeans) {
        if (w.rows() != n || w.cols() != n)
            throw std::invalid_argument("attention rollout needs square layers of one size");
        Eigen::MatrixXd a = 0.5 * w.cast<double>() + 0.5 * Eigen::MatrixXd::Identity(n, n);
        for (Eigen::Index i = 0; i < n; ++i) {
            const double sum = a.row(i).sum();
            if (sum > 0) a.row(i) /= sum;
        }
        r = a * r;  // the newest layer on the left
    }
    return r.cast<Scalar>();
}

PatchGrid patchGrid(const ModelConfig& cfg) {
    return {cfg.gridSize(), cfg.patch, cfg.pool == Pool::Cls};
}

AttentionDistance meanAttentionDistance(const Mat& weights, const PatchGrid& grid) {
    const int G = grid.grid, first = grid.classToken ? 1 : 0, np = G * G;
    if (G <= 0 || grid.patch <= 0)
        throw Error("mean attention distance: the patch grid must have patches");
    if (weights.rows() != grid.positions() || weights.cols() != grid.positions())
        throw Error("mean attention distance: weights of " + std::to_string(weights.rows()) + "×" +
                    std::to_string(weights.cols()) + " for a grid of " +
                    std::to_string(grid.positions()) + " positions");
    // Pixel distance of every grid offset (Δr, Δc), |Δ| < G: [(2G − 1)²].
    const int span = 2 * G - 1;
    std::vector<double> px(size_t(span * span));
    for (int dr = -(G - 1); dr < G; ++dr)
        for (int dc = -(G - 1); dc < G; ++dc)
            px[size_t((dr + G - 1) * span + dc + G - 1)] =
                grid.patch * std::sqrt(double(dr * dr + dc * dc));
    AttentionDistance d;
    double total = 0;
    for (int q = 0; q < np; ++q) {
        double sum = 0, dist = 0;
        for (int t = 0; t < np; ++t) {
            const double a = std::max(0.0, double(weights(first + q, first + t)));
            sum += a;
            dist += a * px[size_t((t / G - q / G + G - 1) * span + t % G - q % G + G - 1)];
        }
        if (!(sum > 0)) continue;
        total += dist / sum;
        ++d.rows;
    }
    if (d.rows > 0) d.px = total / d.rows;
    return d;
}

double uniformAttentionDistance(const PatchGrid& grid) {
    const PatchGrid patches{grid.grid, grid.patch, false};
    const Mat uniform = Mat::Ones(patches.positions(), patches.positions());
    return meanAttentionDistance(uniform, patches).px;
}

void AttentionDistances::add(const std::vector<CapturedBlock>& blocks) {
    if (m_images == 0) {
        for (const CapturedBlock& b : blocks) {
            m_sumPx.emplace_back(b.weights.size(), 0.0);
            m_rows.emplace_back(b.weights.size(), 0);
        }
    }
    if (blocks.size() != m_sumPx.size())
        throw Error("mean attention distance: " + std::to_string(blocks.size()) + " blocks after " +
                    std::to_string(m_sumPx.size()));
    for (size_t b = 0; b < blocks.size(); ++b) {
        if (blocks[b].weights.size() != m_sumPx[b].size())
            throw Error("mean attention distance: " + blocks[b].name + " has " +
                        std::to_string(blocks[b].weights.size()) + " heads after " +
                        std::to_string(m_sumPx[b].size()));
        for (size_t h = 0; h < blocks[b].weights.size(); ++h) {
            const AttentionDistance d = meanAttentionDistance(blocks[b].weights[h], m_grid);
            m_sumPx[b][h] += d.px * d.rows;
            m_rows[b][h] += d.rows;
        }
    }
    ++m_images;
}

std::vector<std::vector<AttentionDistance>> AttentionDistances::perHead() const {
    std::vector<std::vector<AttentionDistance>> out(m_sumPx.size());
    for (size_t b = 0; b < m_sumPx.size(); ++b)
        for (size_t h = 0; h < m_sumPx[b].size(); ++h)
            out[b].push_back({m_rows[b][h] > 0 ? m_sumPx[b][h] / m_rows[b][h] : 0.0, m_rows[b][h]});
    return out;
}

std::vector<double> AttentionDistances::perBlock() const {
    std::vector<double> out;
    for (const auto& heads : perHead()) {
        double sum = 0;
        int n = 0;
        for (const AttentionDistance& d : heads)
            if (d.rows > 0) sum += d.px, ++n;
        out.push_back(n > 0 ? sum / n : 0.0);
    }
    return out;
}

}  // namespace attnviz
