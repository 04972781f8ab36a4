// SPDX-License-Identifier: GPL-3.0-or-later
#include "block.h"

#include <algorithm>

#include "error.h"
#include "gemm.h"
#include "layers.h"

namespace attnviz {

AttentionBlock::AttentionBlock(std::string prefix, BlockKind kind, int layer,
                               const BlockConfig& cfg, int dModel, int maxLen, bool bias, int grid,
                               bool classToken)
    : m_prefix(std::move(prefix)), m_kind(kind), m_layer(layer) {
    m_geo = BlockGeometry{dModel, cfg.heads, maxLen, kind, bias, grid, classToken};
    m_variant = createVariant(cfg, m_geo);
    m_logitBased = variantInfo(cfg.variant).logitBased;
}

std::vector<ParamInfo> AttentionBlock::parameters() const {
    const int64_t d = m_geo.dModel;
    std::vector<ParamInfo> p;
    for (auto& s : m_variant->parameters())
        p.push_back({m_prefix + s.name, s.shape, s.init, s.trainable, s.role, name()});
    const char* vo = "attention.value_output";
    p.push_back({m_prefix + "v_proj.weight", {d, d}, Init::xavier(d, d), true, vo, name()});
    if (m_geo.bias) p.push_back({m_prefix + "v_proj.bias", {d}, Init::zeros(), true, vo, name()});
    p.push_back({m_prefix + "out_proj.weight", {d, d}, Init::xavier(d, d), true, vo, name()});
    if (m_geo.bias) p.push_back({m_prefix + "out_proj.bias", {d}, Init::zeros(), true, vo, name()});
    return p;
}

void AttentionBlock::bind(const Bindings& b) {
    m_variant->bind(b, m_prefix);
    m_wv = b.find(m_prefix + "v_proj.weight");
    m_wo = b.find(m_prefix + "out_proj.weight");
    m_bv = m_geo.bias ? b.find(m_prefix + "v_proj.bias") : Param{};
    m_bo = m_geo.bias ? b.find(m_prefix + "out_proj.bias") : Param{};
}

// The most values banded weights may hold for the block to run banded: 1 in kBandDensity
// of the entries the full matrices spend on real keys (each sequence's Tq rows times its
// keys; padding keys do not count). A banded row is a small product of its own, a full
// matrix one large product per head, so the band must be much sparser to pay: measured with
// `attnviz-cli bench train` (docs/engine.md, "Banded Gaussian attention"). Per sequence, so
// the decision follows the window's width against the lengths, not how a batch is padded.
size_t AttentionBlock::bandBudget(int heads, int Tq, int Tk, const AttentionMask& mask) {
    size_t keys = 0;
    for (int n : mask.keyLen) keys += size_t(std::clamp(n, 0, Tk));
    return size_t(heads) * size_t(Tq) * keys / kBandDensity;
}

void AttentionBlock::forward(const Mat& xq, const Mat& xk, int B, int Tq, int Tk,
                             const AttentionMask& mask, Mat& out) {
    const int h = m_geo.heads, dk = m_geo.dk();
    m_xk = &xk;
    m_B = B, m_Tq = Tq, m_Tk = Tk;
    m_banded = !m_logitBased && !m_keepWeights &&
               m_variant->bandedWeights(B, Tq, Tk, mask, bandBudget(h, Tq, Tk, mask), m_band);
    if (!m_banded) m_band.clear();
    if (m_banded) {
        // ctx row i of head hd = Σ over the band of w_ij V_j: [1, len] · [len, dk].
        linear(xk, m_wv, m_bv, m_v);
        m_ctx.resize(static_cast<Eigen::Index>(B) * Tq, m_geo.dModel);
        for (int b = 0; b < B; ++b)
            for (int hd = 0; hd < h; ++hd) {
                const BandedWeights& a = m_band[size_t(b * h + hd)];
                for (int i = 0; i < Tq; ++i) {
                    // Σ_j w_j V_j over the band, written out: a BLAS call per row (Eigen
                    // hands [1, len]·[len, dk] to gemv) cost more than the arithmetic.
                    auto c = m_ctx.row(b * Tq + i).segment(hd * dk, dk);
                    c.setZero();
                    const Scalar* w = a.values.data() + a.start[size_t(i)];
                    const int lo = b * Tk + a.lo[size_t(i)];
                    for (int j = 0; j < a.len[size_t(i)]; ++j)
                        c += w[j] * m_v.row(lo + j).segment(hd * dk, dk);
                }
            }
        applyGates();
        linear(m_ctx, m_wo, m_bo, out);
        m_a.clear();
        return;
    }
    if (m_logitBased) {
        m_variant->logits(xq, xk, B, Tq, Tk, m_s);
        m_a.resize(m_s.size());
        for (int b = 0; b < B; ++b) {
            for (int hd = 0; hd < h; ++hd)
                maskedSoftmax(m_s[size_t(b * h + hd)], b, mask, m_a[size_t(b * h + hd)]);
        }
    } else {
        m_variant->weights(B, Tq, Tk, mask, m_a);
    }
    linear(xk, m_wv, m_bv, m_v);  // V [B*Tk, d]
    m_ctx.resize(static_cast<Eigen::Index>(B) * Tq, m_geo.dModel);
    for (int b = 0; b < B; ++b) {
        for (int hd = 0; hd < h; ++hd) {
            assignProduct(m_ctx.block(b * Tq, hd * dk, Tq, dk), m_a[size_t(b * h + hd)],
                          m_v.block(b * Tk, hd * dk, Tk, dk));
        }
    }
    applyGates();
    linear(m_ctx, m_wo, m_bo, out);
}

// Head gates ξ_h (Michel et al. 2019): head h's context columns scaled by ξ_h before the
// output projection. All 1 (no gates set): nothing is done, so ungated passes are unchanged
// to the bit.
void AttentionBlock::applyGates() {
    if (m_gates.empty()) return;
    m_ctxRaw = m_ctx;
    scaleByGates(m_ctx);
}

// Head h's columns of m [N, d] times ξ_h (forward, decoding step and backward alike).
void AttentionBlock::scaleByGates(Mat& m) const {
    const int dk = m_geo.dk();
    for (int hd = 0; hd < int(m_gates.size()); ++hd)
        m.middleCols(hd * dk, dk) *= m_gates[size_t(hd)];
}

void AttentionBlock::setHeadGates(std::vector<Scalar> gates) {
    if (!gates.empty() && int(gates.size()) != m_geo.heads)
        throw Error(name() + " has " + std::to_string(m_geo.heads) + " heads, not " +
                    std::to_string(gates.size()) + " gates");
    m_gates = std::move(gates);
}

// dL/dξ_h for sequence b = Σ over its rows and head h's columns of dctx_gated ⊙ ctx_raw.
void AttentionBlock::gateGradients(const Mat& dctx) {
    const int h = m_geo.heads, dk = m_geo.dk();
    const Mat& raw = m_gates.empty() ? m_ctx : m_ctxRaw;
    m_gateGrads.assign(size_t(m_B * h), 0.0);
    for (int b = 0; b < m_B; ++b)
        for (int hd = 0; hd < h; ++hd)
            m_gateGrads[size_t(b * h + hd)] =
                double(dctx.block(b * m_Tq, hd * dk, m_Tq, dk)
                           .cwiseProduct(raw.block(b * m_Tq, hd * dk, m_Tq, dk))
                           .sum());
}

size_t AttentionBlock::weightBytes() const {
    size_t n = 0;
    for (const Mat& a : m_a) n += size_t(a.size());
    for (const Mat& a : m_s) n += size_t(a.size());
    if (m_banded)
        for (const auto& b : m_band) n += b.values.size() + 3 * b.lo.size();
    return n * sizeof(Scalar);
}

void AttentionBlock::backward(const Mat& dout, Mat& dxq, Mat& dxk) {
    const int h = m_geo.heads, dk = m_geo.dk(), B = m_B, Tq = m_Tq, Tk = m_Tk;
    linearBackward(m_ctx, dout, m_wo, m_bo, &m_dctx);  // dctx [B*Tq, d]
    if (m_wantGateGrads) gateGradients(m_dctx);
    scaleByGates(m_dctx);  // back through the gates: dctx_raw = ξ_h dctx_gated
    if (m_banded) {        // dV_j += Σ over the rows whose band holds j of w_ij dctx_i
        m_dv.setZero(m_v.rows(), m_v.cols());
        for (int b = 0; b < B; ++b)
            for (int hd = 0; hd < h; ++hd) {
                const BandedWeights& a = m_band[size_t(b * h + hd)];
                for (int i = 0; i < Tq; ++i) {
                    const int len = a.len[size_t(i)];
                    if (len == 0) continue;
                    m_dv.block(b * Tk + a.lo[size_t(i)], hd * dk, len, dk).noalias() +=
                        Eigen::Map<const Vec>(&a.values[size_t(a.start[size_t(i)])], len)
                            .transpose() *
                        m_dctx.block(b * Tq + i, hd * dk, 1, dk);
                }
            }
        linearBackward(*m_xk, m_dv, m_wv, m_bv, &dxk, true);
        return;
    }
    m_dv.resize(m_v.rows(), m_v.cols());
    const bool logits = m_logitBased;
    m_ds.resize(logits ? m_a.size() : 0);
    for (int b = 0; b < B; ++b) {
        for (int hd = 0; hd < h; ++hd) {
            const size_t i = size_t(b * h + hd);
            const auto dc = m_dctx.block(b * Tq, hd * dk, Tq, dk);
            // dV_bh = A_bhᵀ dctx_bh [Tk, dk]; dA_bh = dctx_bh V_bhᵀ [Tq, Tk]
            assignProduct(m_dv.block(b * Tk, hd * dk, Tk, dk), m_a[i].transpose(), dc);
            if (logits) {
                assignProduct(m_da, dc, m_v.block(b * Tk, hd * dk, Tk, dk).transpose());
                softmaxBackward(m_a[i], m_da, m_ds[i]);
            }
        }
    }
    linearBackward(*m_xk, m_dv, m_wv, m_bv, &dxk, true);
    if (logits) m_variant->logitsBackward(m_ds, dxq, dxk);
}

void AttentionBlock::beginSteps(int B, int capacity, const Mat* memory, int Ts) {
    m_stepB = B;
    m_cap = capacity;
    m_memory = memory;
    m_Ts = Ts;
    m_xc.resize(static_cast<Eigen::Index>(B) * capacity, m_geo.dModel);
    if (memory) {
        linear(*memory, m_wv, m_bv, m_vc);  // the memory's values, once: [B*Ts, d]
    } else {
        m_vc.resize(static_cast<Eigen::Index>(B) * capacity, m_geo.dModel);
    }
    m_variant->beginSteps();
}

void AttentionBlock::step(const Mat& x, int t, const AttentionMask& crossMask, Mat& out) {
    const int h = m_geo.heads, dk = m_geo.dk(), B = m_stepB;
    if (t >= m_cap) throw Error("decoding step beyond the room reserved by beginSteps");
    for (int b = 0; b < B; ++b) m_xc.row(b * m_cap + t) = x.row(b);
    const bool self = m_memory == nullptr;
    if (self) {  // this position's value joins the cache
        linear(x, m_wv, m_bv, m_vRow);
        for (int b = 0; b < B; ++b) m_vc.row(b * m_cap + t) = m_vRow.row(b);
    }
    DecodeStep s;
    s.xq = &m_xc;
    s.qStride = m_cap;
    s.q = t;
    s.xk = self ? &m_xc : m_memory;
    s.kStride = self ? m_cap : m_Ts;
    s.Tk = self ? t + 1 : m_Ts;
    s.B = B;
    const int vStride = self ? m_cap : m_Ts;
    // Row t of the whole matrix: self-attention is causal over positions 0..t.
    AttentionMask rowMask = crossMask, fullMask = crossMask;
    if (self) {
        rowMask = AttentionMask{std::vector<int>(size_t(B), t + 1), false};
        fullMask = AttentionMask{std::vector<int>(size_t(B), t + 1), true};
    }
    if (m_logitBased) {
        m_variant->logitsStep(s, m_sRow);
        m_aRow.resize(m_sRow.size());
        for (int b = 0; b < B; ++b)
            for (int hd = 0; hd < h; ++hd)
                maskedSoftmax(m_sRow[size_t(b * h + hd)], b, rowMask, m_aRow[size_t(b * h + hd)]);
    } else {
        m_variant->weightsStep(s, fullMask, m_aRow);
    }
    m_ctxRow.resize(B, m_geo.dModel);
    // Weights given directly (gaussian) vanish outside a window: as in forward(), when the
    // weights need not be kept, multiply over the window alone if it holds at most 1 in
    // kBandDensity of the sequence's keys.
    const bool windowed = !m_logitBased && !m_keepWeights;
    for (int b = 0; b < B; ++b) {
        const int keys = self ? s.Tk : std::clamp(crossMask.keyLen[size_t(b)], 0, s.Tk);
        for (int hd = 0; hd < h; ++hd) {
            const Mat& a = m_aRow[size_t(b * h + hd)];  // [1, Tk]
            auto ctx = m_ctxRow.block(b, hd * dk, 1, dk);
            Eigen::Index lo = 0, hi = s.Tk;
            if (windowed) {
                while (lo < hi && a(0, lo) == 0) ++lo;
                while (hi > lo && a(0, hi - 1) == 0) --hi;
            }
            if (!windowed || size_t(hi - lo) * kBandDensity > size_t(keys)) {
                ctx.noalias() = a * m_vc.block(b * vStride, hd * dk, s.Tk, dk);
            } else if (lo == hi) {
                ctx.setZero();
            } else {
                ctx.noalias() =
                    a.middleCols(lo, hi - lo) * m_vc.block(b * vStride + lo, hd * dk, hi - lo, dk);
            }
        }
    }
    scaleByGates(m_ctxRow);  // pruned or gated heads decode as they run (setHeadGates)
    linear(m_ctxRow, m_wo, m_bo, out);
}

CapturedBlock AttentionBlock::capture(int B, const std::vector<int>& qLen,
                                      const std::vector<int>& kLen) const {
    if (m_banded) throw Error("capture() after a forward that did not keep the weights");
    CapturedBlock c;
    c.name = name();
    c.kind = m_kind;
    c.layer = m_layer;
    c.variant = m_variant->config().variant;
    c.heads = m_geo.heads;
    for (int b = 0; b < B; ++b) {
        for (int hd = 0; hd < m_geo.heads; ++hd) {
            c.weights.push_back(
                m_a[size_t(b * m_geo.heads + hd)].topLeftCorner(qLen[size_t(b)], kLen[size_t(b)]));
        }
    }
    return c;
}

}  // namespace attnviz
