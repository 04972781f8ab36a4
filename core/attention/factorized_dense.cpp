// SPDX-License-Identifier: GPL-3.0-or-later
// Factorized dense synthesizer (Tay et al., 2021): a row of length L = a*b is the outer
// product of two short predictions, A (length a) and B (length b): element p*b+q = A[p]*B[q].
// On a vit model's patch grid (docs/model-spec.md 4.4) the same formula reads rows × columns
// (a = b = G), and a class token key gets a score of its own, A[G] (a = G + 1).
#include <cmath>

#include "error.h"
#include "gemm.h"
#include "layers.h"
#include "texts.h"
#include "variants.h"

namespace attnviz {
namespace {

class FactorizedDenseAttention : public AttentionVariant {
public:
    FactorizedDenseAttention(const BlockConfig& cfg, const BlockGeometry& geo)
        : AttentionVariant(cfg, geo),
          m_la(cfg.integer("a")),
          m_lb(cfg.integer("b")),
          m_first(geo.grid > 0 && geo.classToken ? 1 : 0) {}

    std::vector<ParamSpec> parameters() const override {
        const int64_t h = m_geo.heads, dk = m_geo.dk(), d = m_geo.dModel;
        const int64_t a = m_la, b = m_lb;
        return {{"fdense.w1.weight", {h, dk, d}, Init::xavier(d, dk)},
                {"fdense.w1.bias", {h, dk}, Init::zeros()},
                {"fdense.wa.weight", {h, a, dk}, Init::xavier(dk, a)},
                {"fdense.wa.bias", {h, a}, Init::zeros()},
                {"fdense.wb.weight", {h, b, dk}, Init::xavier(dk, b)},
                {"fdense.wb.bias", {h, b}, Init::zeros()}};
    }

    void bind(const Bindings& b, const std::string& prefix) override {
        m_w1 = b.find(prefix + "fdense.w1.weight");
        m_b1 = b.find(prefix + "fdense.w1.bias");
        m_wa = b.find(prefix + "fdense.wa.weight");
        m_ba = b.find(prefix + "fdense.wa.bias");
        m_wb = b.find(prefix + "fdense.wb.weight");
        m_bb = b.find(prefix + "fdense.wb.bias");
    }

    bool usesMaxLen() const override { return true; }

    // H = ReLU(xq W1ᵀ + b1) [B*Tq, h*dk]; per head: A = H_hd Wa_hdᵀ + ba [Tq, a],
    // Bm = H_hd Wb_hdᵀ + bb [Tq, b]; S[i, p*b+q] = A[i,p] * Bm[i,q] for p*b+q < Tk. On a
    // vit grid with a class token, key 0 is the class token, S[i, 0] = A[i, a-1], and the
    // patches follow: S[i, 1 + p*b+q] (then a = G + 1, b = G: row p, column q).
    // Row i depends on x_i alone: a decoding step computes that one row.
    void logitsStep(const DecodeStep& s, std::vector<Mat>& S) override { rowOnlyLogitsStep(s, S); }

    void logits(const Mat& xq, const Mat&, int B, int Tq, int Tk, std::vector<Mat>& S) override {
        checkMaxLen(m_geo, "factorized_dense", Tq, Tk);
        const int h = m_geo.heads, dk = m_geo.dk(), a = m_la, bl = m_lb;
        m_xq = &xq;
        m_B = B, m_Tq = Tq, m_Tk = Tk;
        linear(xq, m_w1, m_b1, m_h);
        m_h = m_h.cwiseMax(Scalar(0));
        m_a.resize(static_cast<size_t>(h));
        m_b.resize(static_cast<size_t>(h));
        S.resize(static_cast<size_t>(B * h));
        for (int hd = 0; hd < h; ++hd) {
            const auto hcols = m_h.middleCols(hd * dk, dk);  // [B*Tq, dk]
            Mat& A = m_a[size_t(hd)];                        // [B*Tq, a]
            Mat& Bm = m_b[size_t(hd)];                       // [B*Tq, b]
            assignProduct(A, hcols, m_wa.m().middleRows(hd * a, a).transpose());
            A.rowwise() += m_ba.m().row(hd);
            assignProduct(Bm, hcols, m_wb.m().middleRows(hd * bl, bl).transpose());
            Bm.rowwise() += m_bb.m().row(hd);
            for (int b = 0; b < B; ++b) {
                Mat& s = S[static_cast<size_t>(b * h + hd)];
                s.resize(Tq, Tk);
                for (int i = 0; i < Tq; ++i) {
                    const int r = b * Tq + i;
                    if (m_first && Tk > 0) s(i, 0) = A(r, a - 1);
                    for (int j = m_first; j < Tk; ++j) {
                        const int n = j - m_first;
                        s(i, j) = A(r, n / bl) * Bm(r, n % bl);
                    }
                }
            }
        }
    }

    // dA[i,p] = Σ_q dS[i,p*b+q] Bm[i,q], dBm[i,q] = Σ_p dS[i,p*b+q] A[i,p] (only j < Tk;
    // with a class token, keys shifted by one and dA[i,a-1] = dS[i,0]); then through Wa, Wb,
    // the ReLU and W1.
    void logitsBackward(const std::vector<Mat>& dS, Mat& dxq, Mat&) override {
        const int h = m_geo.heads, dk = m_geo.dk(), a = m_la, bl = m_lb;
        const int Tq = m_Tq, Tk = m_Tk;
        m_dh.resize(m_h.rows(), m_h.cols());
        for (int hd = 0; hd < h; ++hd) {
            const Mat& A = m_a[size_t(hd)];
            const Mat& Bm = m_b[size_t(hd)];
            m_da.setZero(A.rows(), a);
            m_db.setZero(Bm.rows(), bl);
            for (int b = 0; b < m_B; ++b) {
                const Mat& g = dS[static_cast<size_t>(b * h + hd)];
                for (int i = 0; i < Tq; ++i) {
                    const int r = b * Tq + i;
                    if (m_first && Tk > 0) m_da(r, a - 1) += g(i, 0);
                    for (int j = m_first; j < Tk; ++j) {
                        const int n = j - m_first;
                        m_da(r, n / bl) += g(i, j) * Bm(r, n % bl);
                        m_db(r, n % bl) += g(i, j) * A(r, n / bl);
                    }
                }
            }
            const auto hcols = m_h.middleCols(hd * dk, dk);
            if (m_wa.grad) m_wa.grad->m.middleRows(hd * a, a).noalias() += m_da.transpose() * hcols;
            if (m_ba.grad) m_ba.grad->m.row(hd) += m_da.colwise().sum();
            if (m_wb.grad)
                m_wb.grad->m.middleRows(hd * bl, bl).noalias() += m_db.transpose() * hcols;
            if (m_bb.grad) m_bb.grad->m.row(hd) += m_db.colwise().sum();
            assignProduct(m_dh.middleCols(hd * dk, dk), m_da, m_wa.m().middleRows(hd * a, a));
            m_dh.middleCols(hd * dk, dk).noalias() += m_db * m_wb.m().middleRows(hd * bl, bl);
        }
        m_dh = (m_h.array() > Scalar(0)).select(m_dh, Scalar(0));
        linearBackward(*m_xq, m_dh, m_w1, m_b1, &dxq, true);
    }

private:
    int m_la, m_lb;  // lengths a and b of the two factors, a*b = max_len (text)
    int m_first;     // 1: key 0 is a vit model's class token, with a logit A[a-1] of its own
    Param m_w1, m_b1, m_wa, m_ba, m_wb, m_bb;
    const Mat* m_xq = nullptr;
    int m_B = 0, m_Tq = 0, m_Tk = 0;
    Mat m_h, m_dh, m_da, m_db;  // [B*Tq, h*dk], [B*Tq, h*dk], [B*Tq, a], [B*Tq, b]
    std::vector<Mat> m_a, m_b;  // per head: [B*Tq, a], [B*Tq, b]
};
}  // namespace

VariantInfo factorizedDenseVariant() {
    VariantInfo v;
    v.name = "factorized_dense";
    v.summary =
        ATTNVIZ_TR("attnviz::Engine",
                   "Factorized dense synthesizer (Tay et al., 2021): two short predictions of "
                   "lengths a and b whose outer product gives a row of length L = a*b.");
    v.formula =
        "S_h[i, p*b+q] = A_i[p] * B_i[q],  A_i = W_a H_i + b_a,  B_i = W_b H_i + b_b,  "
        "H_i = ReLU(W1 x_i + b1)";
    v.options = {
        OptionSpec::integer("a", nullptr)
            .atLeast(1)
            .atMost(1 << 20)
            .about("length of the first factor; a*b = max_len (default: the divisor of max_len "
                   "nearest its square root); on an image's patch grid fixed: the grid's rows, "
                   "plus one for a class token"),
        OptionSpec::integer("b", nullptr)
            .atLeast(1)
            .atMost(1 << 20)
            .about("length of the second factor; a*b = max_len; on an image's patch grid "
                   "fixed: the grid's columns")};
    v.resolve = [](BlockConfig& c, const BlockGeometry& g) {
        if (g.grid > 0) {  // rows × columns of the patch grid (docs/model-spec.md 4.4)
            const int a = g.grid + (g.classToken ? 1 : 0), b = g.grid;
            // The resolved configuration names them, so the grid's own values are accepted.
            if ((c.has("a") && c.integer("a") != a) || (c.has("b") && c.integer("b") != b))
                throw Error("'a' and 'b' are fixed by the patch grid of arch \"vit\" (a = " +
                            std::to_string(a) + ", b = " + std::to_string(b) +
                            " here: a score per grid row" +
                            (g.classToken ? " and one for the class token" : "") +
                            ", one per column): leave them out");
            c.options["a"] = a;
            c.options["b"] = b;
            return;
        }
        const int L = g.maxLen;
        auto divides = [&](const char* key) {
            if (L % c.integer(key)) {
                throw Error("'" + std::string(key) + "' (" + std::to_string(c.integer(key)) +
                            ") must divide max_len (" + std::to_string(L) + ")");
            }
        };
        if (!c.has("a") && !c.has("b")) {
            int a = 1;
            for (int x = 1; x * x <= L; ++x)
                if (L % x == 0) a = x;
            c.options["a"] = a;
            c.options["b"] = L / a;
        } else if (!c.has("a")) {
            divides("b");
            c.options["a"] = L / c.integer("b");
        } else if (!c.has("b")) {
            divides("a");
            c.options["b"] = L / c.integer("a");
        }
        const int64_t a = c.integer("a"), b = c.integer("b");
        if (a * b != L) {
            throw Error("a*b (" + std::to_string(a) + "*" + std::to_string(b) + "=" +
                        std::to_string(a * b) + ") must equal max_len (" + std::to_string(L) + ")");
        }
    };
    v.create = [](const BlockConfig& c, const BlockGeometry& g) {
        return std::make_unique<FactorizedDenseAttention>(c, g);
    };
    return v;
}

}  // namespace attnviz
