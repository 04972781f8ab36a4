// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// One attention block: a variant for the weights A_h plus the value and output projections
// all variants share (docs/model-spec.md, "Attention blocks").
#include <memory>
#include <string>
#include <vector>

#include "attention.h"

namespace attnviz {

// A tensor the model expects: its full checkpoint name, shape, how it is initialised,
// whether training may change it, its role ("embedding", "attention.scores",
// "attention.value_output", "ffn", "norm", "output") and the block or module it belongs to.
struct ParamInfo {
    std::string name;
    std::vector<int64_t> shape;
    Init init;
    bool trainable = true;
    std::string role;
    std::string module;  // e.g. "encoder.layers.0.self_attn", "encoder.layers.0.ffn", "embeddings"
    int64_t numel() const {
        int64_t n = 1;
        for (auto s : shape) n *= s;
        return n;
    }
};

// The attention weights of one block for every sequence of a batch.
struct CapturedBlock {
    std::string name;  // "encoder.layers.0.self_attn"
    BlockKind kind = BlockKind::EncoderSelf;
    int layer = 0;
    std::string variant;
    int heads = 0;
    // [B*heads] matrices; weights[b*heads + h] is [Nq_b, Nk_b], trimmed to the real lengths.
    std::vector<Mat> weights;
};

// xq [B*Tq, d], xk [B*Tk, d] -> out [B*Tq, d]; keeps A [B*h] of [Tq, Tk] and what the
// backward pass needs (xq and xk themselves must outlive the backward pass).
class AttentionBlock {
public:
    // grid, classToken: the patch grid of an image model (BlockGeometry), 0 for text.
    AttentionBlock(std::string prefix, BlockKind kind, int layer, const BlockConfig& cfg,
                   int dModel, int maxLen, bool bias, int grid = 0, bool classToken = false);

    std::vector<ParamInfo> parameters() const;
    void bind(const Bindings& b);

    void forward(const Mat& xq, const Mat& xk, int B, int Tq, int Tk, const AttentionMask& mask,
                 Mat& out);
    // Whether forward() keeps the full weight matrices for capture() (default). Without,
    // a variant with banded weights (gaussian) runs banded: O(Tq·w·d), no Tq×Tk matrix.
    void setKeepWeights(bool keep) { m_keepWeights = keep; }
    // Whether the last forward ran banded: without keeping the weights, and with bands that
    // hold at most 1 in kBandDensity of the entries on real keys (sparser is faster).
    bool ranBanded() const { return m_banded; }
    static constexpr size_t kBandDensity = 10;
    // That many entries for `heads` heads of the sequences of `mask`, Tq queries, Tk keys.
    static size_t bandBudget(int heads, int Tq, int Tk, const AttentionMask& mask);
    // Head gates ξ [heads] (Michel et al. 2019): head h's output scaled by ξ_h; empty: none
    // (every ξ_h = 1, nothing computed). ξ_h = 0 prunes head h.
    void setHeadGates(std::vector<Scalar> gates);
    // With wantGateGradients, backward() records dL/dξ_h per sequence: [B*heads].
    void setWantGateGradients(bool want) { m_wantGateGrads = want; }
    const std::vector<double>& gateGradients() const { return m_gateGrads; }
    int heads() const { return m_geo.heads; }
    BlockKind kind() const { return m_kind; }
    int layer() const { return m_layer; }
    // Bytes of attention weights the last forward holds (full matrices or bands).
    size_t weightBytes() const;
    // dout [B*Tq, d] -> adds dLoss/dxq into dxq [B*Tq, d] and dLoss/dxk into dxk [B*Tk, d]
    // (sized by the caller; the same matrix for self-attention) and parameter gradients.
    void backward(const Mat& dout, Mat& dxq, Mat& dxk);

    // Incremental decoding (Network::decodeStep): beginSteps before the first position, then
    // step() with positions t = 0, 1, … in order. Self-attention keeps its inputs and their
    // values (room for `capacity` positions); cross-attention reads `memory` [B*Ts, d], whose
    // values are computed once. x [B, d]: the block's input at position t -> out [B, d].
    // crossMask: the memory's valid keys (cross-attention only).
    void beginSteps(int B, int capacity, const Mat* memory, int Ts);
    void step(const Mat& x, int t, const AttentionMask& crossMask, Mat& out);

    // Weights of the last forward, trimmed to each sequence's real query and key lengths.
    CapturedBlock capture(int B, const std::vector<int>& qLen, const std::vector<int>& kLen) const;

    std::string name() const { return m_prefix.substr(0, m_prefix.size() - 1); }
    bool usesMaxLen() const { return m_variant->usesMaxLen(); }
    AttentionVariant& variant() { return *m_variant; }

private:
    std::string m_prefix;  // "encoder.layers.0.self_attn."
    BlockKind m_kind;
    int m_layer;
    BlockGeometry m_geo;
    std::unique_ptr<AttentionVariant> m_variant;
    bool m_logitBased;  // the variant's VariantInfo::logitBased
    bool m_keepWeights = true;
    std::vector<Scalar> m_gates;  // [heads], empty: ungated
    Mat m_ctxRaw;                 // the context before the gates (gated passes only)
    bool m_wantGateGrads = false;
    std::vector<double> m_gateGrads;  // [B*heads]
    void applyGates();
    void scaleByGates(Mat& m) const;  // no gates: nothing
    void gateGradients(const Mat& dctx);
    bool m_banded = false;              // the last forward ran banded (m_band, not m_a)
    std::vector<BandedWeights> m_band;  // [B*h]
    Param m_wv, m_bv, m_wo, m_bo;
    const Mat* m_xk = nullptr;
    int m_B = 0, m_Tq = 0, m_Tk = 0;
    std::vector<Mat> m_s, m_a, m_ds;  // [B*h] of [Tq, Tk]: logits, weights, dLoss/dlogits
    Mat m_v, m_ctx;                   // V [B*Tk, d], concat_h(A_h V_h) [B*Tq, d]
    Mat m_dctx, m_dv, m_da;           // their gradients; dA of one head [Tq, Tk]
    // Incremental decoding: inputs so far [B*cap, d] (row b*cap + t), their values (self) or
    // the memory's values [B*Ts, d] (cross), and one step's rows [B*h] of [1, Tk].
    int m_stepB = 0, m_cap = 0, m_Ts = 0;
    const Mat* m_memory = nullptr;
    Mat m_xc, m_vc, m_ctxRow, m_vRow;
    std::vector<Mat> m_sRow, m_aRow;
};

}  // namespace attnviz
