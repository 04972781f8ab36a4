// SPDX-License-Identifier: GPL-3.0-or-later
// Factorized random synthesizer (Tay et al., 2021): a low-rank table per head,
// S_h = (R1_h R2_hᵀ)[0:Nq, 0:Nk] with R1_h, R2_h of shape [L, k].
#include <cmath>

#include "gemm.h"
#include "texts.h"
#include "variants.h"

namespace attnviz {
namespace {

class FactorizedRandomAttention : public AttentionVariant {
public:
    using AttentionVariant::AttentionVariant;

    std::vector<ParamSpec> parameters() const override {
        const int64_t h = m_geo.heads, L = m_geo.maxLen, k = m_cfg.integer("k");
        // Entries of R1 R2ᵀ have unit variance when each factor has sd k^(-1/4).
        const double sd = std::pow(static_cast<double>(k), -0.25);
        return {{"frandom.r1", {h, L, k}, Init::normal(sd), m_cfg.flag("trainable")},
                {"frandom.r2", {h, L, k}, Init::normal(sd), m_cfg.flag("trainable")}};
    }

    void bind(const Bindings& b, const std::string& prefix) override {
        m_r1 = b.find(prefix + "frandom.r1");
        m_r2 = b.find(prefix + "frandom.r2");
    }

    bool usesMaxLen() const override { return true; }

    // R1, R2 [h*L, k]; S[b*h+hd] = R1_hd[0:Tq] R2_hd[0:Tk]ᵀ [Tq, Tk], identical for every b.
    void logits(const Mat&, const Mat&, int B, int Tq, int Tk, std::vector<Mat>& S) override {
        checkMaxLen(m_geo, "factorized_random", Tq, Tk);
        const int h = m_geo.heads, L = m_geo.maxLen;
        m_B = B, m_Tq = Tq, m_Tk = Tk;
        S.resize(static_cast<size_t>(B * h));
        for (int hd = 0; hd < h; ++hd) {
            Mat& s0 = S[static_cast<size_t>(hd)];
            assignProduct(s0, m_r1.m().middleRows(hd * L, Tq),
                          m_r2.m().middleRows(hd * L, Tk).transpose());
            for (int b = 1; b < B; ++b) S[static_cast<size_t>(b * h + hd)] = s0;
        }
    }

    // G = Σ_b dS_bh [Tq, Tk]; dR1_h[0:Tq] += G R2_h[0:Tk], dR2_h[0:Tk] += Gᵀ R1_h[0:Tq].
    void logitsBackward(const std::vector<Mat>& dS, Mat&, Mat&) override {
        if (!m_r1.grad && !m_r2.grad) return;
        const int h = m_geo.heads, L = m_geo.maxLen;
        for (int hd = 0; hd < h; ++hd) {
            m_g = dS[static_cast<size_t>(hd)];
            for (int b = 1; b < m_B; ++b) m_g += dS[static_cast<size_t>(b * h + hd)];
            if (m_r1.grad)
                m_r1.grad->m.middleRows(hd * L, m_Tq).noalias() +=
                    m_g * m_r2.m().middleRows(hd * L, m_Tk);
            if (m_r2.grad)
                m_r2.grad->m.middleRows(hd * L, m_Tk).noalias() +=
                    m_g.transpose() * m_r1.m().middleRows(hd * L, m_Tq);
        }
    }

private:
    Param m_r1, m_r2;
    int m_B = 0, m_Tq = 0, m_Tk = 0;
    Mat m_g;
};

}  // namespace

VariantInfo factorizedRandomVariant() {
    VariantInfo v;
    v.name = "factorized_random";
    v.summary =
        ATTNVIZ_TR("attnviz::Engine",
                   "Factorized random synthesizer (Tay et al., 2021): a rank-k table per head, "
                   "the same for every sentence.");
    v.formula = "S_h = (R1_h R2_h^T)[0:N_q, 0:N_k],  R1_h, R2_h in R^{L x k}";
    v.options = {
        OptionSpec::flag("trainable", true)
            .about("false: the table keeps its random initialisation (fixed random synthesizer)"),
        OptionSpec::integer("k", 8).atLeast(1).atMost(1 << 16).about(
            "rank of each head's table R1 R2^T")};
    v.create = [](const BlockConfig& c, const BlockGeometry& g) {
        return std::make_unique<FactorizedRandomAttention>(c, g);
    };
    return v;
}

}  // namespace attnviz
