// SPDX-License-Identifier: GPL-3.0-or-later
// Dot-product attention (Vaswani et al., 2017): S_h = Q_h K_hᵀ / sqrt(dk).
#include <cmath>

#include "variants.h"

namespace attnviz {
namespace {

class DotAttention : public AttentionVariant {
public:
    using AttentionVariant::AttentionVariant;

    std::vector<ParamSpec> parameters() const override {
        const int64_t d = m_geo.dModel;
        std::vector<ParamSpec> p{{"q_proj.weight", {d, d}, Init::xavier(d, d)},
                                 {"k_proj.weight", {d, d}, Init::xavier(d, d)}};
        if (m_geo.bias) {
            p.push_back({"q_proj.bias", {d}, Init::zeros()});
            p.push_back({"k_proj.bias", {d}, Init::zeros()});
        }
        return p;
    }

    void bind(const ParamStore& store, const std::string& prefix) override {
        m_wq = find(store, prefix, "q_proj.weight");
        m_wk = find(store, prefix, "k_proj.weight");
        m_bq = m_geo.bias ? find(store, prefix, "q_proj.bias") : nullptr;
        m_bk = m_geo.bias ? find(store, prefix, "k_proj.bias") : nullptr;
    }

    // xq [B*Tq, d], xk [B*Tk, d] -> Q [B*Tq, d], K [B*Tk, d] -> S[b*h+hd] [Tq, Tk]
    void logits(const Mat& xq, const Mat& xk, int B, int Tq, int Tk, std::vector<Mat>& S) override {
        m_q.noalias() = xq * m_wq->m.transpose();
        m_k.noalias() = xk * m_wk->m.transpose();
        if (m_bq) m_q.rowwise() += flat(*m_bq);
        if (m_bk) m_k.rowwise() += flat(*m_bk);
        const int h = m_geo.heads, dk = m_geo.dk();
        const float scale = 1.0f / std::sqrt(static_cast<float>(dk));
        S.resize(static_cast<size_t>(B * h));
        for (int b = 0; b < B; ++b) {
            for (int hd = 0; hd < h; ++hd) {
                Mat& s = S[static_cast<size_t>(b * h + hd)];
                s.noalias() = m_q.block(b * Tq, hd * dk, Tq, dk) *
                              m_k.block(b * Tk, hd * dk, Tk, dk).transpose();
                s *= scale;
            }
        }
    }

private:
    const Tensor *m_wq = nullptr, *m_wk = nullptr, *m_bq = nullptr, *m_bk = nullptr;
    Mat m_q, m_k;
};

}  // namespace

VariantInfo dotVariant() {
    VariantInfo v;
    v.name = "dot";
    v.summary = "Dot-product attention (Vaswani et al., 2017): query-key similarity.";
    v.formula = "S_h = Q_h K_h^T / sqrt(d_k),  Q = X_q W_q^T + b_q,  K = X_k W_k^T + b_k";
    v.resolve = [](BlockConfig&, const BlockGeometry&) {};
    v.create = [](const BlockConfig& c, const BlockGeometry& g) {
        return std::make_unique<DotAttention>(c, g);
    };
    return v;
}

}  // namespace attnviz
