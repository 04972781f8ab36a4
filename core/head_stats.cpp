// SPDX-License-Identifier: GPL-3.0-or-later
#include "head_stats.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <stdexcept>
#include <tuple>

namespace attnviz {
namespace {

// Allowed keys of row i: 0 .. n-1.
int allowedKeys(const HeadTable& t, int i) {
    const int nk = int(t.weights->cols());
    return t.causal ? std::min(nk, i + 1) : nk;
}

// Row i normalised over its allowed keys (double); empty when it carries no weight.
std::vector<double> normalisedRow(const HeadTable& t, int i) {
    const int n = allowedKeys(t, i);
    std::vector<double> p(size_t(std::max(0, n)));
    double sum = 0;
    for (int j = 0; j < n; ++j) sum += (p[size_t(j)] = std::max(0.0, double((*t.weights)(i, j))));
    if (!(sum > 0) || !std::isfinite(sum)) return {};
    for (double& x : p) x /= sum;
    return p;
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

}  // namespace

double gaussianSse(const std::vector<HeadTable>& tables, double offset, double sigma) {
    return Rows(tables).sse(offset, sigma);
}

GaussianFit fitGaussian(const std::vector<HeadTable>& tables) {
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

HeadStats headStats(const std::vector<HeadTable>& tables) {
    HeadStats s;
    for (const auto& t : tables)
        for (int i = 0; i < int(t.weights->rows()); ++i) {
            const auto p = normalisedRow(t, i);
            if (p.empty()) continue;
            double h = 0, mx = 0, dist = 0;
            for (size_t j = 0; j < p.size(); ++j) {
                if (p[j] > 0) h -= p[j] * std::log(p[j]);
                mx = std::max(mx, p[j]);
                dist += p[j] * std::abs(double(i) - double(j));
            }
            s.entropy += h, s.confidence += mx, s.distance += dist, ++s.rows;
        }
    if (s.rows > 0) {
        s.entropy /= s.rows;
        s.confidence /= s.rows;
        s.distance /= s.rows;
    }
    s.fit = fitGaussian(tables);
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
    // The fitted Gaussian's rows where the head has weight, as tables of their own.
    std::vector<Mat> gs;
    gs.reserve(tables.size());
    std::vector<double> g;
    for (const auto& t : tables) {
        Mat m = Mat::Zero(t.weights->rows(), t.weights->cols());
        for (int i = 0; i < int(m.rows()); ++i) {
            const auto p = normalisedRow(t, i);
            if (p.empty()) continue;
            gaussianRow(i, int(p.size()), fit.offset, fit.sigma, g);
            for (size_t j = 0; j < g.size(); ++j) m(i, Eigen::Index(j)) = Scalar(g[j]);
        }
        gs.push_back(std::move(m));
    }
    std::vector<HeadTable> gt;
    for (size_t k = 0; k < gs.size(); ++k) gt.push_back({&gs[k], tables[k].causal});
    return offsetProfile(gt, maxOffset);
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

}  // namespace attnviz
