// SPDX-License-Identifier: GPL-3.0-or-later
// Hard-coded Gaussian attention (You, Sun & Iyyer, 2020): no parameters, no softmax.
// A_h[i, j] = N(j; mu_i, sigma²) = exp(-½((j - mu_i)/sigma)²) / (sigma sqrt(2π)),
// mu_i = r·i + o_h (r = ratio in cross-attention, 1 in self-attention). Masked entries are
// 0; rows are not renormalised unless `normalize` is set.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>
#include <unordered_map>

#include "error.h"
#include "texts.h"
#include "variants.h"

namespace attnviz {
namespace {

class GaussianAttention : public AttentionVariant {
public:
    std::vector<ParamSpec> parameters() const override { return {}; }
    void bind(const Bindings&, const std::string&) override {}
    GaussianAttention(const BlockConfig& cfg, const BlockGeometry& geo)
        : AttentionVariant(cfg, geo),
          m_offsets(cfg.numbers("offsets")),
          m_sigma(cfg.number("sigma")),
          m_ratio(cfg.number("ratio")),
          m_normalize(cfg.flag("normalize")) {}

    double offset(int head) const {
        return m_offsets[static_cast<size_t>(head) % m_offsets.size()];
    }

    // A[b*h+hd] [Tq, Tk], masks applied, rows renormalised when `normalize`.
    void weights(int B, int Tq, int Tk, const AttentionMask& mask, std::vector<Mat>& A) override {
        const int h = m_geo.heads;
        if (m_geo.grid > 0) {  // image patches: the same 2D weights for every image
            if (m_grid.empty()) buildGrid(Tq);
            A.resize(static_cast<size_t>(B * h));
            for (int b = 0; b < B; ++b)
                for (int hd = 0; hd < h; ++hd) A[size_t(b * h + hd)] = m_grid[size_t(hd)];
            return;
        }
        A.resize(static_cast<size_t>(B * h));
        for (int b = 0; b < B; ++b) {
            Shape& s = shape(Tq, Tk, keysOf(b, Tk, mask), mask.causal);
            for (int hd = 0; hd < h; ++hd) {
                Mat& a = A[static_cast<size_t>(b * h + hd)];
                if (!s.full.empty()) {
                    a = s.full[size_t(hd)];
                    continue;
                }
                fill(s.band[size_t(hd)], Tq, Tk, a);
                if (hd == h - 1 && cacheFull(Tq, Tk)) {  // kept for the next sequence or call
                    s.full.assign(&A[size_t(b * h)], &A[size_t(b * h)] + h);
                    m_bytes += size_t(h) * size_t(Tq) * size_t(Tk) * sizeof(Scalar);
                }
            }
        }
    }

    // The same weights, banded: no Tq×Tk matrix, O(Tq·w) values.
    bool bandedWeights(int B, int Tq, int Tk, const AttentionMask& mask, size_t maxEntries,
                       std::vector<BandedWeights>& A) override {
        const int h = m_geo.heads;
        if (m_geo.grid > 0) return false;  // a grid's rows are not bands of positions
        // First the count, so that nothing is copied when the bands are too many.
        size_t entries = 0;
        for (int b = 0; b < B; ++b) {
            entries += shape(Tq, Tk, keysOf(b, Tk, mask), mask.causal).entries;
            if (entries > maxEntries) return false;
        }
        A.resize(static_cast<size_t>(B * h));
        for (int b = 0; b < B; ++b) {
            const Shape& s = shape(Tq, Tk, keysOf(b, Tk, mask), mask.causal);
            for (int hd = 0; hd < h; ++hd) A[static_cast<size_t>(b * h + hd)] = s.band[size_t(hd)];
        }
        return true;
    }

    // Row q alone (incremental decoding).
    void weightsStep(const DecodeStep& s, const AttentionMask& mask, std::vector<Mat>& A) override {
        const int h = m_geo.heads;
        A.resize(static_cast<size_t>(s.B * h));
        for (int b = 0; b < s.B; ++b) {
            for (int hd = 0; hd < h; ++hd) {
                Mat& a = A[static_cast<size_t>(b * h + hd)];
                a.setZero(1, s.Tk);
                const Row& r = row(hd, s.q, mask.limit(b, s.q, s.Tk));
                a.row(0).segment(r.lo, Eigen::Index(r.values.size())) =
                    Eigen::Map<const Vec>(r.values.data(), Eigen::Index(r.values.size()));
            }
        }
    }

private:
    // The 2D reading on a vit model's patch grid (docs/model-spec.md 4.4): head hd's offset is
    // the pair (Δr, Δc) = offsets[2k], offsets[2k+1], k = hd mod (pairs); a patch query's row
    // over the patch keys is the 2D normal density of the grid distance to its centre, in
    // double, rounded to float (below the smallest normal float: 0), renormalised over the
    // patches when `normalize`. The class token (position 0) attends to every patch with
    // 1/patches and to itself with 0; no patch attends to it. m_grid [h] of [N, N].
    void buildGrid(int N) {
        const int G = m_geo.grid, first = m_geo.classToken ? 1 : 0, Np = G * G;
        if (N != Np + first)
            throw Error("gaussian attention on a grid of " + std::to_string(G) + "×" +
                        std::to_string(G) + " patches needs " + std::to_string(Np + first) +
                        " positions, got " + std::to_string(N));
        const size_t pairs = m_offsets.size() / 2;
        m_grid.assign(size_t(m_geo.heads), Mat::Zero(N, N));
        for (int hd = 0; hd < m_geo.heads; ++hd) {
            Mat& a = m_grid[size_t(hd)];
            const double dr = m_offsets[2 * (size_t(hd) % pairs)];
            const double dc = m_offsets[2 * (size_t(hd) % pairs) + 1];
            if (first) a.row(0).segment(1, Np).setConstant(Scalar(1.0 / Np));
            for (int q = 0; q < Np; ++q) {
                Eigen::ArrayXd d2(Np);
                for (int t = 0; t < Np; ++t) {
                    const double y = t / G - q / G - dr, x = t % G - q % G - dc;
                    d2(t) = y * y + x * x;
                }
                const double s2 = m_sigma * m_sigma;
                Eigen::ArrayXd w;
                if (m_normalize) {
                    w = (-0.5 * (d2 - d2.minCoeff()) / s2).exp();
                    w /= w.sum();
                } else {
                    w = (-0.5 * d2 / s2).exp() / (2.0 * M_PI * s2);
                }
                Eigen::Array<Scalar, Eigen::Dynamic, 1> f = w.cast<Scalar>();
                f = (f < std::numeric_limits<Scalar>::min()).select(Scalar(0), f);
                a.row(first + q).segment(first, Np) = f.transpose().matrix();
            }
        }
    }
    std::vector<Mat> m_grid;  // [h] of [N, N], built at the first forward

    // A sequence's weights depend on it only through its number of allowed keys
    // min(Tk, keyLen[b]) (and the causal mask): sequences alike share one Shape.
    static int keysOf(int b, int Tk, const AttentionMask& mask) {
        return std::min(Tk, mask.keyLen[static_cast<size_t>(b)]);
    }

    // Every head's weights for one shape of sequence: Tq queries over Tk keys of which the
    // first `keys` are allowed (causal: query i also only keys 0..i). The bands are built
    // when the shape is first seen; the full matrices the first time they are asked for
    // (kept when small, see cacheFull). Built from the same rows as row(), so the values
    // are the same bit for bit whichever road reads them.
    struct Shape {
        std::vector<BandedWeights> band;  // [h]
        size_t entries = 0;               // values in the h bands
        std::vector<Mat> full;            // [h] [Tq, Tk]; empty until asked and small enough
    };

    Shape& shape(int Tq, int Tk, int keys, bool causal) {
        const auto key = std::make_tuple(Tq, Tk, keys, causal);
        auto it = m_shapes.find(key);
        if (it != m_shapes.end()) return it->second;
        if (m_bytes > kMaxShapeBytes) m_shapes.clear(), m_bytes = 0;
        Shape s;
        s.band.resize(size_t(m_geo.heads));
        for (int hd = 0; hd < m_geo.heads; ++hd) {
            BandedWeights& a = s.band[size_t(hd)];
            a.lo.resize(size_t(Tq));
            a.len.resize(size_t(Tq));
            a.start.resize(size_t(Tq));
            for (int i = 0; i < Tq; ++i) {
                const Row& r = row(hd, i, causal ? std::min(keys, i + 1) : keys);
                a.lo[size_t(i)] = r.lo;
                a.len[size_t(i)] = int(r.values.size());
                a.start[size_t(i)] = int(a.values.size());
                a.values.insert(a.values.end(), r.values.begin(), r.values.end());
            }
            s.entries += a.values.size();
            m_bytes += a.values.size() * sizeof(Scalar) + 3 * sizeof(int) * size_t(Tq);
        }
        return m_shapes.emplace(key, std::move(s)).first->second;
    }

    // a [Tq, Tk]: zero outside the band. A band may hold no value at all (data(), not [0]).
    static void fill(const BandedWeights& band, int Tq, int Tk, Mat& a) {
        a.setZero(Tq, Tk);
        for (int i = 0; i < Tq; ++i)
            a.row(i).segment(band.lo[size_t(i)], band.len[size_t(i)]) = Eigen::Map<const Vec>(
                band.values.data() + band.start[size_t(i)], band.len[size_t(i)]);
    }

    // Full matrices are kept for shapes up to kMaxFullValues values a head (256 × 256).
    bool cacheFull(int Tq, int Tk) const {
        return size_t(Tq) * size_t(Tk) <= kMaxFullValues && m_bytes <= kMaxShapeBytes;
    }

    // Query i of head hd over its first n allowed keys, as float: the keys lo .. lo+size-1;
    // every other key's weight is exactly 0. Weights below the smallest normal float
    // (2^-126, about 13σ from the centre) are 0 too: subnormal operands make every product
    // with the weights several times slower on x86, and no sum of a row can show them.
    struct Row {
        int lo = 0;
        std::vector<Scalar> values;
    };

    // Rows depend only on (head, query, allowed keys) and the settings, which are fixed for
    // this object (the Variant tab's edits build a new network): computed once, the first
    // time, exactly as the whole row was (densities in double over keys 0..n-1, then
    // rounded), and kept. Bounded: cleared past kMaxRows rows.
    const Row& row(int hd, int i, int n) {
        const uint64_t key = (uint64_t(hd) << 44) | (uint64_t(i) << 22) | uint64_t(std::max(0, n));
        auto it = m_rows.find(key);
        if (it != m_rows.end()) return it->second;
        if (m_rows.size() >= kMaxRows) m_rows.clear();
        Row r;
        if (n > 0) {
            const double sigma = m_sigma;
            const double ratio = m_geo.kind == BlockKind::Cross ? m_ratio : 1.0;
            const double norm = 1.0 / (sigma * std::sqrt(2.0 * M_PI));
            const double mu = ratio * i + offset(hd);
            const Eigen::ArrayXd offsets = Eigen::ArrayXd::LinSpaced(n, 0, n - 1) - mu;
            Eigen::ArrayXd w;
            if (m_normalize) {
                // Over the allowed keys, exponents shifted by the largest, -½(d² - d²min)/σ²:
                // a window far past the keys still falls on the nearest ones, the nearest
                // key's exponent is exactly 0 however small σ is (no inf - inf), and no
                // density underflows first (Eigen's exp clamps its argument near -709, which
                // made such rows uniform).
                const Eigen::ArrayXd d2 = offsets.square();
                w = (-0.5 * ((d2 - d2.minCoeff()) / sigma / sigma)).exp();
                w /= w.sum();
            } else {
                const Eigen::ArrayXd z = offsets / sigma;
                w = norm * (-0.5 * z.square()).exp();  // below e^-709: 0 once in float
            }
            Eigen::Array<Scalar, Eigen::Dynamic, 1> f = w.cast<Scalar>();
            f = (f < std::numeric_limits<Scalar>::min()).select(Scalar(0), f);  // no subnormals
            int lo = 0, hi = n;
            while (lo < hi && f(lo) == 0) ++lo;
            while (hi > lo && f(hi - 1) == 0) --hi;
            r.lo = lo;
            r.values.assign(f.data() + lo, f.data() + hi);
        }
        return m_rows.emplace(key, std::move(r)).first->second;
    }

    static constexpr size_t kMaxRows = size_t(1) << 20;
    static constexpr size_t kMaxFullValues = 256 * 256;
    static constexpr size_t kMaxShapeBytes = size_t(64) << 20;  // then the shapes start over
    std::unordered_map<uint64_t, Row> m_rows;
    std::map<std::tuple<int, int, int, bool>, Shape> m_shapes;
    size_t m_bytes = 0;  // held by m_shapes
    std::vector<double> m_offsets;
    double m_sigma, m_ratio;
    bool m_normalize;
};

}  // namespace

VariantInfo gaussianVariant() {
    VariantInfo v;
    v.name = "gaussian";
    v.summary = ATTNVIZ_TR("attnviz::Engine",
                           "Hard-coded Gaussian attention (You, Sun & Iyyer, 2020): fixed windows "
                           "centred at an offset from each query position; nothing is learned.");
    v.formula =
        "A_h[i,j] = exp(-((j - mu_i)/sigma)^2 / 2) / (sigma sqrt(2 pi)),  "
        "mu_i = r i + o_h";
    v.logitBased = false;
    v.options = {
        OptionSpec::numbers("offsets", nullptr)
            .atLeast(-1024)
            .atMost(1024)
            .editable()
            .about(ATTNVIZ_TR(
                "attnviz::Engine",
                "centre o_h of head h's window relative to the query (heads cycle through "
                "the list); default [-1, 1], in decoder self-attention [-1, 0]")),
        // At least 0.001: the density's 1/(σ√2π) of a smaller σ overflows a float (1e308
        // was accepted and overflowed once squared); at most 1024, as learned_gaussian's.
        OptionSpec::number("sigma", 1.0)
            .atLeast(0.001)
            .atMost(1024)
            .editable()
            .about(
                ATTNVIZ_TR("attnviz::Engine", "standard deviation of every window, in positions")),
        OptionSpec::flag("normalize", false)
            .editable()
            .about(ATTNVIZ_TR("attnviz::Engine",
                              "renormalise each row over its unmasked keys (the paper does not)")),
        OptionSpec::number("ratio", 1.0)
            .atLeast(0)
            .atMost(1024)
            .editable()
            .about(ATTNVIZ_TR(
                "attnviz::Engine",
                "cross-attention only: window centre r*i + o_h, r ~ source/target length"))};
    v.resolve = [](BlockConfig& c, const BlockGeometry& g) {
        if (g.grid > 0) {  // the 2D reading (docs/model-spec.md 4.4): flat (Δr, Δc) pairs
            if (!c.has("offsets")) c.options["offsets"] = {0, -1, 0, 1, -1, 0, 1, 0};
            if (c.numbers("offsets").size() % 2 != 0)
                throw Error(
                    "'offsets' of a gaussian block on the patch grid are pairs "
                    "(Δrow, Δcolumn): an even number of numbers, got " +
                    std::to_string(c.numbers("offsets").size()));
            return;
        }
        if (!c.has("offsets")) {
            c.options["offsets"] = g.kind == BlockKind::DecoderSelf ? std::vector<int>{-1, 0}
                                                                    : std::vector<int>{-1, 1};
        }
    };
    v.create = [](const BlockConfig& c, const BlockGeometry& g) {
        return std::make_unique<GaussianAttention>(c, g);
    };
    return v;
}

}  // namespace attnviz
