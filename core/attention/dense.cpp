// SPDX-License-Identifier: GPL-3.0-or-later
// Dense synthesizer (Tay et al., 2021): each query token alone predicts its row of logits,
// S_h[i, :] = W2_h · ReLU(W1_h · x_i + b1_h) + b2_h, length max_len, truncated to Nk.
#include "variants.h"

namespace attnviz {
namespace {

class DenseAttention : public AttentionVariant {
public:
    using AttentionVariant::AttentionVariant;

    std::vector<ParamSpec> parameters() const override {
        const int64_t h = m_geo.heads, dk = m_geo.dk(), d = m_geo.dModel, L = m_geo.maxLen;
        return {{"dense.w1.weight", {h, dk, d}, Init::xavier(d, dk)},
                {"dense.w1.bias", {h, dk}, Init::zeros()},
                {"dense.w2.weight", {h, L, dk}, Init::xavier(dk, L)},
                {"dense.w2.bias", {h, L}, Init::zeros()}};
    }

    void bind(const ParamStore& store, const std::string& prefix) override {
        m_w1 = find(store, prefix, "dense.w1.weight");
        m_b1 = find(store, prefix, "dense.w1.bias");
        m_w2 = find(store, prefix, "dense.w2.weight");
        m_b2 = find(store, prefix, "dense.w2.bias");
    }

    bool usesMaxLen() const override { return true; }

    // xq [B*Tq, d] -> H = ReLU(xq W1ᵀ + b1) [B*Tq, h*dk] (head hd: columns hd*dk...)
    // S[b*h+hd] = H_b,hd [Tq, dk] · W2_hd[0:Tk]ᵀ [dk, Tk] + b2_hd[0:Tk]
    void logits(const Mat& xq, const Mat&, int B, int Tq, int Tk, std::vector<Mat>& S) override {
        checkMaxLen(m_geo, "dense", Tq, Tk);
        const int h = m_geo.heads, dk = m_geo.dk(), L = m_geo.maxLen;
        m_h.noalias() = xq * m_w1->m.transpose();
        m_h.rowwise() += flat(*m_b1);
        m_h = m_h.cwiseMax(0.0f);
        S.resize(static_cast<size_t>(B * h));
        for (int b = 0; b < B; ++b) {
            for (int hd = 0; hd < h; ++hd) {
                Mat& s = S[static_cast<size_t>(b * h + hd)];
                s.noalias() = m_h.block(b * Tq, hd * dk, Tq, dk) *
                              m_w2->m.block(hd * L, 0, Tk, dk).transpose();
                s.rowwise() += m_b2->m.row(hd).head(Tk);
            }
        }
    }

private:
    const Tensor *m_w1 = nullptr, *m_b1 = nullptr, *m_w2 = nullptr, *m_b2 = nullptr;
    Mat m_h;
};

}  // namespace

VariantInfo denseVariant() {
    VariantInfo v;
    v.name = "dense";
    v.summary =
        "Dense synthesizer (Tay et al., 2021): each token predicts its own row of "
        "weights over positions, without looking at the keys.";
    v.formula = "S_h[i,:] = W2_h ReLU(W1_h x_i + b1_h) + b2_h   (length L, truncated to N_k)";
    v.usesMaxLen = true;
    v.resolve = [](BlockConfig&, const BlockGeometry&) {};
    v.create = [](const BlockConfig& c, const BlockGeometry& g) {
        return std::make_unique<DenseAttention>(c, g);
    };
    return v;
}

}  // namespace attnviz
