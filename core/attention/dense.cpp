// SPDX-License-Identifier: GPL-3.0-or-later
// Dense synthesizer (Tay et al., 2021): each query token alone predicts its row of logits,
// S_h[i, :] = W2_h · ReLU(W1_h · x_i + b1_h) + b2_h, length max_len, truncated to Nk.
#include "gemm.h"
#include "layers.h"
#include "texts.h"
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

    void bind(const Bindings& b, const std::string& prefix) override {
        m_w1 = b.find(prefix + "dense.w1.weight");
        m_b1 = b.find(prefix + "dense.w1.bias");
        m_w2 = b.find(prefix + "dense.w2.weight");
        m_b2 = b.find(prefix + "dense.w2.bias");
    }

    bool usesMaxLen() const override { return true; }

    // xq [B*Tq, d] -> H = ReLU(xq W1ᵀ + b1) [B*Tq, h*dk] (head hd: columns hd*dk...)
    // S[b*h+hd] = H_b,hd [Tq, dk] · W2_hd[0:Tk]ᵀ [dk, Tk] + b2_hd[0:Tk]
    // Row i depends on x_i alone: a decoding step computes that one row.
    void logitsStep(const DecodeStep& s, std::vector<Mat>& S) override { rowOnlyLogitsStep(s, S); }

    void logits(const Mat& xq, const Mat&, int B, int Tq, int Tk, std::vector<Mat>& S) override {
        checkMaxLen(m_geo, "dense", Tq, Tk);
        const int h = m_geo.heads, dk = m_geo.dk(), L = m_geo.maxLen;
        m_xq = &xq;
        m_B = B, m_Tq = Tq, m_Tk = Tk;
        linear(xq, m_w1, m_b1, m_h);
        m_h = m_h.cwiseMax(Scalar(0));
        S.resize(static_cast<size_t>(B * h));
        for (int b = 0; b < B; ++b) {
            for (int hd = 0; hd < h; ++hd) {
                Mat& s = S[static_cast<size_t>(b * h + hd)];
                assignProduct(s, m_h.block(b * Tq, hd * dk, Tq, dk),
                              m_w2.m().block(hd * L, 0, Tk, dk).transpose());
                s.rowwise() += m_b2.m().row(hd).head(Tk);
            }
        }
    }

    // dH_bh = dS W2_h[0:Tk], dW2_h[0:Tk] += dSᵀ H_bh, db2_h[0:Tk] += Σ_rows dS; then
    // through the ReLU and W1.
    void logitsBackward(const std::vector<Mat>& dS, Mat& dxq, Mat&) override {
        const int h = m_geo.heads, dk = m_geo.dk(), L = m_geo.maxLen, Tq = m_Tq, Tk = m_Tk;
        m_dh.resize(m_h.rows(), m_h.cols());
        for (int b = 0; b < m_B; ++b) {
            for (int hd = 0; hd < h; ++hd) {
                const Mat& g = dS[static_cast<size_t>(b * h + hd)];
                assignProduct(m_dh.block(b * Tq, hd * dk, Tq, dk), g,
                              m_w2.m().block(hd * L, 0, Tk, dk));
                if (m_w2.grad) {
                    m_w2.grad->m.block(hd * L, 0, Tk, dk).noalias() +=
                        g.transpose() * m_h.block(b * Tq, hd * dk, Tq, dk);
                }
                if (m_b2.grad) m_b2.grad->m.row(hd).head(Tk) += g.colwise().sum();
            }
        }
        m_dh = (m_h.array() > Scalar(0)).select(m_dh, Scalar(0));
        linearBackward(*m_xq, m_dh, m_w1, m_b1, &dxq, true);
    }

private:
    Param m_w1, m_b1, m_w2, m_b2;
    const Mat* m_xq = nullptr;
    int m_B = 0, m_Tq = 0, m_Tk = 0;
    Mat m_h, m_dh;  // [B*Tq, h*dk]
};

}  // namespace

VariantInfo denseVariant() {
    VariantInfo v;
    v.name = "dense";
    v.summary =
        ATTNVIZ_TR("attnviz::Engine",
                   "Dense synthesizer (Tay et al., 2021): each token predicts its own row of "
                   "weights over positions, without looking at the keys.");
    v.formula = "S_h[i,:] = W2_h ReLU(W1_h x_i + b1_h) + b2_h   (length L, truncated to N_k)";
    v.create = [](const BlockConfig& c, const BlockGeometry& g) {
        return std::make_unique<DenseAttention>(c, g);
    };
    return v;
}

}  // namespace attnviz
