// SPDX-License-Identifier: GPL-3.0-or-later
// Factorized dense synthesizer (Tay et al., 2021): a row of length L = a*b is the outer
// product of two short predictions, A (length a) and B (length b): element p*b+q = A[p]*B[q].
#include <cmath>

#include "error.h"
#include "variants.h"

namespace attnviz {
namespace {

class FactorizedDenseAttention : public AttentionVariant {
public:
    using AttentionVariant::AttentionVariant;

    std::vector<ParamSpec> parameters() const override {
        const int64_t h = m_geo.heads, dk = m_geo.dk(), d = m_geo.dModel;
        const int64_t a = m_cfg.a, b = m_cfg.b;
        return {{"fdense.w1.weight", {h, dk, d}, Init::xavier(d, dk)},
                {"fdense.w1.bias", {h, dk}, Init::zeros()},
                {"fdense.wa.weight", {h, a, dk}, Init::xavier(dk, a)},
                {"fdense.wa.bias", {h, a}, Init::zeros()},
                {"fdense.wb.weight", {h, b, dk}, Init::xavier(dk, b)},
                {"fdense.wb.bias", {h, b}, Init::zeros()}};
    }

    void bind(const ParamStore& store, const std::string& prefix) override {
        m_w1 = find(store, prefix, "fdense.w1.weight");
        m_b1 = find(store, prefix, "fdense.w1.bias");
        m_wa = find(store, prefix, "fdense.wa.weight");
        m_ba = find(store, prefix, "fdense.wa.bias");
        m_wb = find(store, prefix, "fdense.wb.weight");
        m_bb = find(store, prefix, "fdense.wb.bias");
    }

    bool usesMaxLen() const override { return true; }

    // H = ReLU(xq W1ᵀ + b1) [B*Tq, h*dk]; per head: A = H_hd Wa_hdᵀ + ba [Tq, a],
    // Bm = H_hd Wb_hdᵀ + bb [Tq, b]; S[i, p*b+q] = A[i,p] * Bm[i,q] for p*b+q < Tk.
    void logits(const Mat& xq, const Mat&, int B, int Tq, int Tk, std::vector<Mat>& S) override {
        checkMaxLen(m_geo, "factorized_dense", Tq, Tk);
        const int h = m_geo.heads, dk = m_geo.dk(), a = m_cfg.a, bl = m_cfg.b;
        m_h.noalias() = xq * m_w1->m.transpose();
        m_h.rowwise() += flat(*m_b1);
        m_h = m_h.cwiseMax(0.0f);
        S.resize(static_cast<size_t>(B * h));
        for (int hd = 0; hd < h; ++hd) {
            const auto hcols = m_h.middleCols(hd * dk, dk);  // [B*Tq, dk]
            m_a.noalias() = hcols * m_wa->m.middleRows(hd * a, a).transpose();
            m_a.rowwise() += m_ba->m.row(hd);
            m_b.noalias() = hcols * m_wb->m.middleRows(hd * bl, bl).transpose();
            m_b.rowwise() += m_bb->m.row(hd);
            for (int b = 0; b < B; ++b) {
                Mat& s = S[static_cast<size_t>(b * h + hd)];
                s.resize(Tq, Tk);
                for (int i = 0; i < Tq; ++i) {
                    for (int j = 0; j < Tk; ++j)
                        s(i, j) = m_a(b * Tq + i, j / bl) * m_b(b * Tq + i, j % bl);
                }
            }
        }
    }

private:
    const Tensor *m_w1 = nullptr, *m_b1 = nullptr, *m_wa = nullptr, *m_ba = nullptr,
                 *m_wb = nullptr, *m_bb = nullptr;
    Mat m_h, m_a, m_b;
};

}  // namespace

VariantInfo factorizedDenseVariant() {
    VariantInfo v;
    v.name = "factorized_dense";
    v.summary =
        "Factorized dense synthesizer (Tay et al., 2021): two short predictions of "
        "lengths a and b whose outer product gives a row of length L = a*b.";
    v.formula =
        "S_h[i, p*b+q] = A_i[p] * B_i[q],  A_i = W_a H_i + b_a,  B_i = W_b H_i + b_b,  "
        "H_i = ReLU(W1 x_i + b1)";
    v.usesMaxLen = true;
    v.options = {"a", "b"};
    v.resolve = [](BlockConfig& c, const BlockGeometry& g) {
        const int L = g.maxLen;
        if (c.a == 0 && c.b == 0) {
            int a = 1;
            for (int x = 1; x * x <= L; ++x)
                if (L % x == 0) a = x;
            c.a = a;
            c.b = L / a;
        } else if (c.a == 0) {
            if (L % c.b) {
                throw Error("'b' (" + std::to_string(c.b) + ") must divide max_len (" +
                            std::to_string(L) + ")");
            }
            c.a = L / c.b;
        } else if (c.b == 0) {
            if (L % c.a) {
                throw Error("'a' (" + std::to_string(c.a) + ") must divide max_len (" +
                            std::to_string(L) + ")");
            }
            c.b = L / c.a;
        }
        if (static_cast<int64_t>(c.a) * c.b != L) {
            throw Error("a*b (" + std::to_string(c.a) + "*" + std::to_string(c.b) + "=" +
                        std::to_string(static_cast<int64_t>(c.a) * c.b) + ") must equal max_len (" +
                        std::to_string(L) + ")");
        }
    };
    v.create = [](const BlockConfig& c, const BlockGeometry& g) {
        return std::make_unique<FactorizedDenseAttention>(c, g);
    };
    return v;
}

}  // namespace attnviz
