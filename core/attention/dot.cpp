// SPDX-License-Identifier: GPL-3.0-or-later
// Dot-product attention (Vaswani et al., 2017): S_h = Q_h K_hᵀ / sqrt(dk).
#include <cmath>

#include "gemm.h"
#include "layers.h"
#include "texts.h"
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

    void bind(const Bindings& b, const std::string& prefix) override {
        m_wq = b.find(prefix + "q_proj.weight");
        m_wk = b.find(prefix + "k_proj.weight");
        m_bq = m_geo.bias ? b.find(prefix + "q_proj.bias") : Param{};
        m_bk = m_geo.bias ? b.find(prefix + "k_proj.bias") : Param{};
    }

    // xq [B*Tq, d], xk [B*Tk, d] -> Q [B*Tq, d], K [B*Tk, d] -> S[b*h+hd] [Tq, Tk]
    void logits(const Mat& xq, const Mat& xk, int B, int Tq, int Tk, std::vector<Mat>& S) override {
        m_xq = &xq;
        m_xk = &xk;
        m_B = B, m_Tq = Tq, m_Tk = Tk;
        linear(xq, m_wq, m_bq, m_q);
        linear(xk, m_wk, m_bk, m_k);
        const int h = m_geo.heads, dk = m_geo.dk();
        const Scalar scale = Scalar(1) / std::sqrt(static_cast<Scalar>(dk));
        S.resize(static_cast<size_t>(B * h));
        for (int b = 0; b < B; ++b) {
            for (int hd = 0; hd < h; ++hd) {
                Mat& s = S[static_cast<size_t>(b * h + hd)];
                assignProduct(s, m_q.block(b * Tq, hd * dk, Tq, dk),
                              m_k.block(b * Tk, hd * dk, Tk, dk).transpose());
                s *= scale;
            }
        }
    }

    // dQ_bh = scale · dS K_bh, dK_bh = scale · dSᵀ Q_bh, then through both projections.
    void logitsBackward(const std::vector<Mat>& dS, Mat& dxq, Mat& dxk) override {
        const int h = m_geo.heads, dk = m_geo.dk(), Tq = m_Tq, Tk = m_Tk;
        const Scalar scale = Scalar(1) / std::sqrt(static_cast<Scalar>(dk));
        m_dq.resize(m_q.rows(), m_q.cols());
        m_dk.resize(m_k.rows(), m_k.cols());
        for (int b = 0; b < m_B; ++b) {
            for (int hd = 0; hd < h; ++hd) {
                const Mat& g = dS[static_cast<size_t>(b * h + hd)];
                assignProduct(m_dq.block(b * Tq, hd * dk, Tq, dk), scale * g,
                              m_k.block(b * Tk, hd * dk, Tk, dk));
                assignProduct(m_dk.block(b * Tk, hd * dk, Tk, dk), scale * g.transpose(),
                              m_q.block(b * Tq, hd * dk, Tq, dk));
            }
        }
        linearBackward(*m_xq, m_dq, m_wq, m_bq, &dxq, true);
        linearBackward(*m_xk, m_dk, m_wk, m_bk, &dxk, true);
    }

    void beginSteps() override { m_kDone = 0; }

    // Row q alone: this position's query against the keys' projections, each key projected
    // once per decoding (self-attention adds one per step; the memory's come at step 0).
    void logitsStep(const DecodeStep& s, std::vector<Mat>& S) override {
        const int h = m_geo.heads, dk = m_geo.dk(), d = m_geo.dModel;
        if (m_kDone == 0) m_kc.resize(static_cast<Eigen::Index>(s.B) * s.kStride, d);
        if (s.Tk > m_kDone) {
            const int n = s.Tk - m_kDone;
            Mat rows(static_cast<Eigen::Index>(s.B) * n, d), proj;
            for (int b = 0; b < s.B; ++b)
                rows.middleRows(b * n, n) = s.xk->middleRows(b * s.kStride + m_kDone, n);
            linear(rows, m_wk, m_bk, proj);
            for (int b = 0; b < s.B; ++b)
                m_kc.middleRows(b * s.kStride + m_kDone, n) = proj.middleRows(b * n, n);
            m_kDone = s.Tk;
        }
        Mat xq(s.B, d), q;
        for (int b = 0; b < s.B; ++b) xq.row(b) = s.xq->row(b * s.qStride + s.q);
        linear(xq, m_wq, m_bq, q);  // [B, d]
        const Scalar scale = Scalar(1) / std::sqrt(static_cast<Scalar>(dk));
        S.resize(static_cast<size_t>(s.B * h));
        for (int b = 0; b < s.B; ++b)
            for (int hd = 0; hd < h; ++hd) {
                Mat& out = S[static_cast<size_t>(b * h + hd)];
                out.noalias() = q.block(b, hd * dk, 1, dk) *
                                m_kc.block(b * s.kStride, hd * dk, s.Tk, dk).transpose();
                out *= scale;
            }
    }

private:
    int m_kDone = 0;  // key positions projected in this decoding
    Mat m_kc;         // their projections [B*kStride, d]
    Param m_wq, m_wk, m_bq, m_bk;
    const Mat *m_xq = nullptr, *m_xk = nullptr;
    int m_B = 0, m_Tq = 0, m_Tk = 0;
    Mat m_q, m_k, m_dq, m_dk;  // [B*Tq, d], [B*Tk, d]
};

}  // namespace

VariantInfo dotVariant() {
    VariantInfo v;
    v.name = "dot";
    v.summary = ATTNVIZ_TR("attnviz::Engine",
                           "Dot-product attention (Vaswani et al., 2017): query-key similarity.");
    v.formula = "S_h = Q_h K_h^T / sqrt(d_k),  Q = X_q W_q^T + b_q,  K = X_k W_k^T + b_k";
    // Q and K projections, then QKᵀ.
    v.scoreFlops = [](const BlockConfig&, double Tq, double Tk, double d) {
        return 2 * Tq * d * d + 2 * Tk * d * d + 2 * Tq * Tk * d;
    };
    v.create = [](const BlockConfig& c, const BlockGeometry& g) {
        return std::make_unique<DotAttention>(c, g);
    };
    return v;
}

}  // namespace attnviz
