// SPDX-License-Identifier: GPL-3.0-or-later
// Random synthesizer (Tay et al., 2021): one learned (or frozen) logit table per head,
// the same for every input: S_h = R_h[0:Nq, 0:Nk].
#include "texts.h"
#include "variants.h"

namespace attnviz {
namespace {

class RandomAttention : public AttentionVariant {
public:
    using AttentionVariant::AttentionVariant;

    std::vector<ParamSpec> parameters() const override {
        const int64_t h = m_geo.heads, L = m_geo.maxLen;
        return {{"random.r", {h, L, L}, Init::normal(1.0), m_cfg.flag("trainable")}};
    }

    void bind(const Bindings& b, const std::string& prefix) override {
        m_r = b.find(prefix + "random.r");
    }

    bool usesMaxLen() const override { return true; }

    // R [h*L, L]; S[b*h+hd] = R_hd[0:Tq, 0:Tk], identical for every b.
    void logits(const Mat&, const Mat&, int B, int Tq, int Tk, std::vector<Mat>& S) override {
        checkMaxLen(m_geo, "random", Tq, Tk);
        const int h = m_geo.heads, L = m_geo.maxLen;
        m_B = B, m_Tq = Tq, m_Tk = Tk;
        S.resize(static_cast<size_t>(B * h));
        for (int b = 0; b < B; ++b) {
            for (int hd = 0; hd < h; ++hd)
                S[static_cast<size_t>(b * h + hd)] = m_r.m().block(hd * L, 0, Tq, Tk);
        }
    }

    // dR_h[0:Tq, 0:Tk] += Σ_b dS_bh; nothing flows to the inputs. Frozen: no gradient.
    void logitsBackward(const std::vector<Mat>& dS, Mat&, Mat&) override {
        if (!m_r.grad) return;
        const int h = m_geo.heads, L = m_geo.maxLen;
        for (int b = 0; b < m_B; ++b) {
            for (int hd = 0; hd < h; ++hd)
                m_r.grad->m.block(hd * L, 0, m_Tq, m_Tk) += dS[static_cast<size_t>(b * h + hd)];
        }
    }

private:
    Param m_r;
    int m_B = 0, m_Tq = 0, m_Tk = 0;
};

}  // namespace

VariantInfo randomVariant() {
    VariantInfo v;
    v.name = "random";
    v.summary =
        ATTNVIZ_TR("attnviz::Engine",
                   "Random synthesizer (Tay et al., 2021): one table of weights per head, the "
                   "same for every sentence; trainable or fixed.");
    v.formula = "S_h = R_h[0:N_q, 0:N_k],  R in R^{h x L x L}";
    v.options = {
        OptionSpec::flag("trainable", true)
            .about("false: the table keeps its random initialisation (fixed random synthesizer)")};
    v.create = [](const BlockConfig& c, const BlockGeometry& g) {
        return std::make_unique<RandomAttention>(c, g);
    };
    return v;
}

}  // namespace attnviz
