// SPDX-License-Identifier: GPL-3.0-or-later
// Learned local window ("local"): each head learns one logit per relative offset −w…w and
// attends with a softmax over the keys inside its window, nothing outside:
//   S_h[i, j] = c_h[j − i + w]  if |j − i| ≤ w,  −inf otherwise;  c_h ∈ R^{2w+1}.
// The trainable counterpart of hard-coded Gaussian windows (You et al., 2020): the same
// input-independent, position-only pattern, but its shape is learned. A query with no key
// inside its window (cross-attention with a much longer target) gets a row of zeros.
#include <limits>

#include "texts.h"
#include "variants.h"

namespace attnviz {
namespace {

class LocalAttention : public AttentionVariant {
public:
    LocalAttention(const BlockConfig& cfg, const BlockGeometry& geo)
        : AttentionVariant(cfg, geo), m_w(cfg.integer("window")) {}

    std::vector<ParamSpec> parameters() const override {
        return {{"local.logits", {m_geo.heads, 2 * int64_t(m_w) + 1}, Init::normal(1.0)}};
    }

    void bind(const Bindings& b, const std::string& prefix) override {
        m_c = b.find(prefix + "local.logits");
    }

    // c [h, 2w+1] -> S[b*h+hd] [Tq, Tk]: c_hd[j − i + w] inside the window, −inf outside;
    // the same for every b (the inputs are not used).
    void logits(const Mat&, const Mat&, int B, int Tq, int Tk, std::vector<Mat>& S) override {
        const int h = m_geo.heads;
        m_B = B, m_Tq = Tq, m_Tk = Tk;
        S.resize(static_cast<size_t>(B * h));
        for (int hd = 0; hd < h; ++hd) {
            Mat& s = S[static_cast<size_t>(hd)];
            s.setConstant(Tq, Tk, -std::numeric_limits<Scalar>::infinity());
            for (int i = 0; i < Tq; ++i)
                for (int j = std::max(0, i - m_w); j <= std::min(Tk - 1, i + m_w); ++j)
                    s(i, j) = m_c.m()(hd, j - i + m_w);
            for (int b = 1; b < B; ++b) S[static_cast<size_t>(b * h + hd)] = s;
        }
    }

    // dc_h[o] += Σ_b Σ_i dS_bh[i, i + o − w] over the window's keys; nothing flows to the
    // inputs.
    void logitsBackward(const std::vector<Mat>& dS, Mat&, Mat&) override {
        if (!m_c.grad) return;
        const int h = m_geo.heads;
        for (int b = 0; b < m_B; ++b)
            for (int hd = 0; hd < h; ++hd) {
                const Mat& g = dS[static_cast<size_t>(b * h + hd)];
                for (int i = 0; i < m_Tq; ++i)
                    for (int j = std::max(0, i - m_w); j <= std::min(m_Tk - 1, i + m_w); ++j)
                        m_c.grad->m(hd, j - i + m_w) += g(i, j);
            }
    }

private:
    int m_w;  // half width of the window
    Param m_c;
    int m_B = 0, m_Tq = 0, m_Tk = 0;
};

}  // namespace

VariantInfo localVariant() {
    VariantInfo v;
    v.name = "local";
    v.summary =
        ATTNVIZ_TR("attnviz::Engine",
                   "Learned local window: each head learns how much to attend to each relative "
                   "position −w…w and ignores everything further away; no query-key comparison.");
    v.formula = "S_h[i,j] = c_h[j - i]  if |j - i| <= w,  -inf otherwise;  A_h = softmax(S_h)";
    v.mixable = false;  // −inf logits would turn a weighted sum into NaN
    v.options = {
        OptionSpec::integer("window", 2)
            .atLeast(0)
            .atMost(1024)
            .about("half width w: keys i-w … i+w are attended, 2w+1 learned logits per head")};
    v.create = [](const BlockConfig& c, const BlockGeometry& g) {
        return std::make_unique<LocalAttention>(c, g);
    };
    return v;
}

}  // namespace attnviz
