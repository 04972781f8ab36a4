// SPDX-License-Identifier: GPL-3.0-or-later
// Learned local window ("local"): each head learns one logit per relative offset −w…w and
// attends with a softmax over the keys inside its window, nothing outside:
//   S_h[i, j] = c_h[j − i + w]  if |j − i| ≤ w,  −inf otherwise;  c_h ∈ R^{2w+1}.
// The trainable counterpart of hard-coded Gaussian windows (You et al., 2020): the same
// input-independent, position-only pattern, but its shape is learned. A query with no key
// inside its window (cross-attention with a much longer target) gets a row of zeros.
// On a vit model's patch grid (docs/model-spec.md 4.4) the window is a square of 2D offsets,
// |Δrow| ≤ w and |Δcolumn| ≤ w, with one logit per offset: (2w+1)² per head.
#include <algorithm>
#include <limits>

#include "error.h"
#include "texts.h"
#include "variants.h"

namespace attnviz {
namespace {

class LocalAttention : public AttentionVariant {
public:
    LocalAttention(const BlockConfig& cfg, const BlockGeometry& geo)
        : AttentionVariant(cfg, geo), m_w(cfg.integer("window")), m_pos(geo) {}

    // [h, 2w+1] on a line; [h, (2w+1)²] on a vit grid, offset (Δr, Δc) at (Δr+w)(2w+1) + Δc+w.
    std::vector<ParamSpec> parameters() const override {
        const int64_t k = 2 * int64_t(m_w) + 1;
        return {{"local.logits", {m_geo.heads, m_pos.grid > 0 ? k * k : k}, Init::normal(1.0)}};
    }

    void bind(const Bindings& b, const std::string& prefix) override {
        m_c = b.find(prefix + "local.logits");
    }

    // c [h, 2w+1] or [h, (2w+1)²] -> S[b*h+hd] [Tq, Tk]: c_hd[offset's index] inside the
    // window, −inf outside (on a grid, the class token's rule of 4.4); the same for every b
    // (the inputs are not used).
    void logits(const Mat&, const Mat&, int B, int Tq, int Tk, std::vector<Mat>& S) override {
        const int h = m_geo.heads;
        m_B = B, m_Tq = Tq, m_Tk = Tk;
        S.resize(static_cast<size_t>(B * h));
        for (int hd = 0; hd < h; ++hd) {
            Mat& s = S[static_cast<size_t>(hd)];
            s.setConstant(Tq, Tk, -std::numeric_limits<Scalar>::infinity());
            forEachInWindow(Tq, Tk, [&](int i, int j, int k) { s(i, j) = m_c.m()(hd, k); });
            classTokenLogits(m_pos, s);
            for (int b = 1; b < B; ++b) S[static_cast<size_t>(b * h + hd)] = s;
        }
    }

    // dc_h[k] += Σ_b Σ_(i,j) at offset k dS_bh[i, j] over the window's keys; nothing flows to
    // the inputs (nor from the class token's constant logits).
    void logitsBackward(const std::vector<Mat>& dS, Mat&, Mat&) override {
        if (!m_c.grad) return;
        const int h = m_geo.heads;
        for (int b = 0; b < m_B; ++b)
            for (int hd = 0; hd < h; ++hd) {
                const Mat& g = dS[static_cast<size_t>(b * h + hd)];
                forEachInWindow(m_Tq, m_Tk,
                                [&](int i, int j, int k) { m_c.grad->m(hd, k) += g(i, j); });
            }
    }

private:
    // f(i, j, k) for every query i and key j inside its window, k the index of their offset in
    // a head's logits: j − i + w on a line; on a grid, patches only, (Δr+w)(2w+1) + (Δc+w)
    // for |Δr| ≤ w and |Δc| ≤ w (a square cut by the border).
    template <class F>
    void forEachInWindow(int Tq, int Tk, F f) const {
        const int w = m_w;
        if (m_pos.grid == 0) {
            for (int i = 0; i < Tq; ++i)
                for (int j = std::max(0, i - w); j <= std::min(Tk - 1, i + w); ++j)
                    f(i, j, j - i + w);
            return;
        }
        const int G = m_pos.grid, first = m_pos.first;
        for (int i = first; i < Tq; ++i) {
            const int r = (i - first) / G, c = (i - first) % G;
            for (int rt = std::max(0, r - w); rt <= std::min(G - 1, r + w); ++rt)
                for (int ct = std::max(0, c - w); ct <= std::min(G - 1, c + w); ++ct) {
                    const int j = first + rt * G + ct;
                    if (j < Tk) f(i, j, (rt - r + w) * (2 * w + 1) + (ct - c + w));
                }
        }
    }

    int m_w;  // half width of the window
    PositionLayout m_pos;
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
            .about("half width w: keys i-w … i+w are attended, 2w+1 learned logits per head "
                   "(on an image's patch grid: a square of (2w+1)² patches and logits)")};
    // On a grid, offsets beyond G − 1 patches never occur: a larger window would only add
    // logits that no pair of patches uses (docs/model-spec.md 4.4, interpretation).
    v.resolve = [](BlockConfig& c, const BlockGeometry& g) {
        if (g.grid > 0 && c.integer("window") > g.grid - 1)
            throw Error("'window' on a grid of " + std::to_string(g.grid) + "×" +
                        std::to_string(g.grid) + " patches must be at most " +
                        std::to_string(g.grid - 1) + " (that already covers every patch), got " +
                        std::to_string(c.integer("window")));
    };
    v.create = [](const BlockConfig& c, const BlockGeometry& g) {
        return std::make_unique<LocalAttention>(c, g);
    };
    return v;
}

}  // namespace attnviz
