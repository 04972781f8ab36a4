// SPDX-License-Identifier: GPL-3.0-or-later
// Hard-coded Gaussian attention (You, Sun & Iyyer, 2020): no parameters, no softmax.
// A_h[i, j] = N(j; mu_i, sigma²) = exp(-½((j - mu_i)/sigma)²) / (sigma sqrt(2π)),
// mu_i = r·i + o_h (r = ratio in cross-attention, 1 in self-attention). Masked entries are
// 0; rows are not renormalised unless `normalize` is set.
#include <cmath>

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
        A.resize(static_cast<size_t>(B * h));
        for (int b = 0; b < B; ++b) {
            for (int hd = 0; hd < h; ++hd) {
                Mat& a = A[static_cast<size_t>(b * h + hd)];
                a.setZero(Tq, Tk);
                for (int i = 0; i < Tq; ++i) fillRow(a.row(i), hd, i, mask.limit(b, i, Tk));
            }
        }
    }

    // Row q alone: the same densities, no matrix (incremental decoding).
    void weightsStep(const DecodeStep& s, const AttentionMask& mask, std::vector<Mat>& A) override {
        const int h = m_geo.heads;
        A.resize(static_cast<size_t>(s.B * h));
        for (int b = 0; b < s.B; ++b) {
            for (int hd = 0; hd < h; ++hd) {
                Mat& a = A[static_cast<size_t>(b * h + hd)];
                a.setZero(1, s.Tk);
                fillRow(a.row(0), hd, s.q, mask.limit(b, s.q, s.Tk));
            }
        }
    }

private:
    // Query i of head hd over its first n keys (the rest stay 0): densities evaluated in
    // double, then rounded.
    template <class Row>
    void fillRow(Row row, int hd, int i, int n) const {
        if (n <= 0) return;  // masked keys stay exactly 0
        const double sigma = m_sigma;
        const double r = m_geo.kind == BlockKind::Cross ? m_ratio : 1.0;
        const double norm = 1.0 / (sigma * std::sqrt(2.0 * M_PI));
        const double mu = r * i + offset(hd);
        const Eigen::ArrayXd z = (Eigen::ArrayXd::LinSpaced(n, 0, n - 1) - mu) / sigma;
        const Eigen::ArrayXd w = norm * (-0.5 * z.square()).exp();
        const double sum = w.sum();
        if (m_normalize && sum > 0) {
            row.head(n) = (w / sum).cast<Scalar>().matrix().transpose();
        } else {
            row.head(n) = w.cast<Scalar>().matrix().transpose();
        }
    }

    std::vector<double> m_offsets;
    double m_sigma, m_ratio;
    bool m_normalize;
};

}  // namespace

VariantInfo gaussianVariant() {
    VariantInfo v;
    v.name = "gaussian";
    v.summary =
        "Hard-coded Gaussian attention (You, Sun & Iyyer, 2020): fixed windows "
        "centred at an offset from each query position; nothing is learned.";
    v.formula =
        "A_h[i,j] = exp(-((j - mu_i)/sigma)^2 / 2) / (sigma sqrt(2 pi)),  "
        "mu_i = r i + o_h";
    v.logitBased = false;
    v.options = {
        OptionSpec::numbers("offsets", nullptr)
            .editable()
            .about("centre o_h of head h's window relative to the query (heads cycle through "
                   "the list); default [-1, 1], in decoder self-attention [-1, 0]"),
        OptionSpec::number("sigma", 1.0)
            .above(0)
            .editable()
            .about("standard deviation of every window, in positions"),
        OptionSpec::flag("normalize", false)
            .editable()
            .about("renormalise each row over its unmasked keys (the paper does not)"),
        OptionSpec::number("ratio", 1.0)
            .editable()
            .about("cross-attention only: window centre r*i + o_h, r ~ source/target length")};
    v.resolve = [](BlockConfig& c, const BlockGeometry& g) {
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
