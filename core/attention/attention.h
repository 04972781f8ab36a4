// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "block_config.h"
#include "tensor.h"

namespace attnviz {

// All tensors of a model by their checkpoint name. std::map keeps element addresses
// stable, so variants can hold pointers into it.
using ParamStore = std::map<std::string, Tensor>;

// A tensor as a layer sees it: its value and, while training, the accumulator of its
// gradient (same shape). grad is null for inference and for frozen tensors.
struct Param {
    const Tensor* value = nullptr;
    Tensor* grad = nullptr;
    const Mat& m() const { return value->m; }
    explicit operator bool() const { return value != nullptr; }
};

// Where layers find their tensors: the values and, while training, a store of gradient
// accumulators holding an entry for every trainable tensor (frozen ones are absent).
struct Bindings {
    const ParamStore* values = nullptr;
    ParamStore* grads = nullptr;
    Bindings(const ParamStore& v, ParamStore* g = nullptr) : values(&v), grads(g) {}  // NOLINT
    // The tensor `name`; Error naming it when it is missing.
    Param find(const std::string& name) const;
};

// What a block is built for: width, its own head count, the model's max_len, its kind.
struct BlockGeometry {
    int dModel = 0;
    int heads = 0;
    int maxLen = 0;
    BlockKind kind = BlockKind::EncoderSelf;
    bool bias = true;  // whether q/k/v/out projections have biases
    // arch "vit" (docs/model-spec.md 4.4): the positions are a grid of grid × grid patches,
    // after a class token at position 0 when classToken. 0: a text block (a sequence).
    int grid = 0;
    bool classToken = false;
    int dk() const { return dModel / heads; }
};

// How a fresh tensor is filled by random initialisation.
struct Init {
    enum Kind { Zeros, Ones, Uniform, Normal } kind = Zeros;
    double scale = 0;  // Uniform: bound a of U(-a, a); Normal: standard deviation
    static Init zeros() { return {Zeros, 0}; }
    static Init ones() { return {Ones, 0}; }
    static Init uniform(double a) { return {Uniform, a}; }
    static Init normal(double sd) { return {Normal, sd}; }
    // Xavier/Glorot uniform for a weight with the given fan-in and fan-out.
    static Init xavier(int64_t fanIn, int64_t fanOut);
};

// A tensor a variant owns: its name below the block prefix ("q_proj.weight"), shape,
// initialisation, whether training may change it, and its role for parameter counting.
struct ParamSpec {
    std::string name;
    std::vector<int64_t> shape;
    Init init;
    bool trainable = true;
    std::string role = "attention.scores";
};

// Which keys query i of sequence b may attend to: keys j < keyLen[b], and j <= i when
// causal. Padding keys and future keys are masked.
struct AttentionMask {
    std::vector<int> keyLen;  // [B]
    bool causal = false;
    bool allowed(int b, int i, int j) const {
        return j < keyLen[static_cast<size_t>(b)] && (!causal || j <= i);
    }
    // The allowed keys of query i always form a prefix: keys 0 .. limit-1.
    int limit(int b, int i, int Tk) const {
        int n = std::min(Tk, keyLen[static_cast<size_t>(b)]);
        return causal ? std::min(n, i + 1) : n;
    }
};

// One step of incremental decoding (docs/engine.md): query position q of every sequence
// against keys 0..Tk-1, the inputs of earlier positions kept by the block. Sequence b's
// query inputs are rows xq[b*qStride + p], p <= q (row q is the new one); its key inputs
// are rows xk[b*kStride + j], j < Tk. In self-attention xk is xq and Tk = q + 1: one key
// is added per step. In cross-attention xk is the encoder memory, the same at every step.
struct DecodeStep {
    const Mat* xq = nullptr;
    int qStride = 0, q = 0;
    const Mat* xk = nullptr;
    int kStride = 0, Tk = 0;
    int B = 0;
};

// Weights that are exactly zero outside a band of keys in each query row (Gaussian windows):
// row i holds keys lo[i] .. lo[i] + len[i] - 1, their weights at values[start[i] ...].
// O(Tq·w) memory instead of O(Tq·Tk).
struct BandedWeights {
    std::vector<int> lo, len, start;  // [Tq]
    std::vector<Scalar> values;
};

// One attention variant of one block: everything that turns queries and keys into the
// per-head weights A_h. Values and the output projection are shared by all variants and
// live in AttentionBlock. One file per variant in core/attention/, one registry entry.
class AttentionVariant {
public:
    AttentionVariant(BlockConfig cfg, BlockGeometry geo) : m_cfg(std::move(cfg)), m_geo(geo) {}
    virtual ~AttentionVariant() = default;
    AttentionVariant(const AttentionVariant&) = delete;
    AttentionVariant& operator=(const AttentionVariant&) = delete;

    // The tensors this variant owns (names relative to the block prefix, e.g. "q_proj.weight").
    virtual std::vector<ParamSpec> parameters() const = 0;
    // Resolves the variant's tensors (and gradients) under `prefix`
    // ("encoder.layers.0.self_attn.").
    virtual void bind(const Bindings& b, const std::string& prefix) = 0;

    // Logit variants (softmax taken by the block):
    //   xq [B*Tq, d] queries, xk [B*Tk, d] keys/values input, sequence b at rows b*T...
    //   S  [B*h] matrices of [Tq, Tk]; S[b*h + head] holds that head's logits, unmasked.
    // xq and xk must stay alive and unchanged until logitsBackward of the same pass.
    virtual void logits(const Mat& xq, const Mat& xk, int B, int Tq, int Tk, std::vector<Mat>& S);

    // Backward of the last logits() call: dS [B*h] of [Tq, Tk] is dLoss/dS. Adds the
    // gradients of the bound trainable tensors into their accumulators, dLoss/dxq into
    // dxq [B*Tq, d] and dLoss/dxk into dxk [B*Tk, d] (both sized by the caller; they may be
    // the same matrix for self-attention).
    virtual void logitsBackward(const std::vector<Mat>& dS, Mat& dxq, Mat& dxk);

    // Weight variants (no softmax, e.g. gaussian): A [B*h] of [Tq, Tk], masks applied.
    virtual void weights(int B, int Tq, int Tk, const AttentionMask& mask, std::vector<Mat>& A);

    // Weight variants whose rows vanish outside a band (gaussian): the same weights as
    // weights(), banded, A [B*h]; false when the variant has none or its bands would hold
    // more than maxEntries values (the block then uses the full matrices). Used when the
    // weights need not be kept for capture.
    virtual bool bandedWeights(int /*B*/, int /*Tq*/, int /*Tk*/, const AttentionMask& /*mask*/,
                               size_t /*maxEntries*/, std::vector<BandedWeights>& /*A*/) {
        return false;
    }

    // Incremental decoding. beginSteps() starts a decoding (forgets what a variant cached
    // about the keys). logitsStep / weightsStep give row q alone, S or A [B*h] of [1, Tk],
    // equal to row q of logits() / weights() on positions 0..q (mask: as for the whole
    // matrix, causal in self-attention). The defaults compute exactly that matrix and keep
    // its row q, so every variant decodes correctly; variants whose rows are cheap to get
    // alone (dot: cached key projections; gaussian: one row of densities) override them.
    virtual void beginSteps() {}
    virtual void logitsStep(const DecodeStep& s, std::vector<Mat>& S);
    virtual void weightsStep(const DecodeStep& s, const AttentionMask& mask, std::vector<Mat>& A);

    // Whether Tq and Tk must not exceed max_len (dense, random, factorized_*).
    virtual bool usesMaxLen() const { return false; }

    const BlockConfig& config() const { return m_cfg; }
    const BlockGeometry& geometry() const { return m_geo; }

protected:
    // logitsStep for variants whose row i depends on query input x_i alone, not on i (dense,
    // factorized dense): logits() of the step's query rows, one per sequence.
    void rowOnlyLogitsStep(const DecodeStep& s, std::vector<Mat>& S);

    BlockConfig m_cfg;
    BlockGeometry m_geo;
};

// A registry entry: everything about a variant that is not per-instance. Generic code
// (core/attention/options.cpp) parses, validates, writes and compares a block's options
// from `options`; the app's Variant tab, `attnviz-cli variants` and the tests read the rest.
struct VariantInfo {
    std::string name;        // as written in configs and checkpoints ("dot", "gaussian", …)
    std::string summary;     // one sentence for people, naming the paper
    std::string formula;     // plain-text formula of the weights or logits
    bool logitBased = true;  // logits, softmax taken by the block; false: weights directly
    bool mixable = true;     // may be a component of a mixture (finite logits everywhere)
    std::vector<OptionSpec> options;
    // Options that make a typical block of this variant beyond its defaults (e.g. a
    // mixture's components): used by the tests, benchmarks and documentation.
    nlohmann::json example = nlohmann::json::object();
    // Optional: fills in the defaults that depend on the block (offsets by kind, a and b from
    // max_len) and checks rules that involve several options; throws Error.
    std::function<void(BlockConfig&, const BlockGeometry&)> resolve;
    // Multiply-adds ×2 of the score computation for one sequence of Tq queries and Tk keys
    // (projections included), for the training benchmark's FLOP count; 0 when negligible.
    std::function<double(const BlockConfig&, double Tq, double Tk, double dModel)> scoreFlops;
    std::function<std::unique_ptr<AttentionVariant>(const BlockConfig&, const BlockGeometry&)>
        create;
};

const std::vector<VariantInfo>& allVariants();
std::vector<std::string> variantNames();  // allVariants()' names, in their order
const VariantInfo* findVariant(const std::string& name);
// Error listing the known variants when `name` is unknown.
const VariantInfo& variantInfo(const std::string& name);
std::unique_ptr<AttentionVariant> createVariant(const BlockConfig& cfg, const BlockGeometry& geo);

// Every option that applies to a block of `variant`: its own, then those of the variants
// named by its Variants-typed options (a mixture's components), without repeats.
// Error when the variant or a component is unknown.
std::vector<OptionSpec> blockOptions(const std::string& variant, const nlohmann::json& options);
// Parses and validates a block's JSON ("variant", "heads", "layers" for cross, and the
// variant's options), fills in every default, runs the variant's resolve(); Error naming
// the block, the key and the rule otherwise. `modelHeads` is the model's head count.
BlockConfig parseBlockConfig(const nlohmann::json& j, BlockKind kind, int dModel, int modelHeads,
                             int maxLen);
// The resolved block as JSON, every option explicit (the inverse of parseBlockConfig).
nlohmann::json blockConfigJson(const BlockConfig& b, BlockKind kind);

// Row-wise softmax of logits with masked entries excluded (weight exactly 0); −inf logits
// get weight 0; a row with no allowed key, or only −inf logits, becomes all zeros. S [Tq, Tk]
// logits of sequence b -> A [Tq, Tk].
void maskedSoftmax(const Mat& S, int b, const AttentionMask& mask, Mat& A);
// Its backward: dS = A ⊙ (dA − rowsum(dA ⊙ A)); masked entries (A = 0) get 0.
// A, dA [Tq, Tk] -> dS [Tq, Tk].
void softmaxBackward(const Mat& A, const Mat& dA, Mat& dS);

}  // namespace attnviz
