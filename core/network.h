// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The Transformer of docs/model-spec.md as a network of layers bound to a parameter store: forward
// (keeping every activation its backward needs), backward, and captured attention. A Model
// owns one for inference; the trainer runs one per thread, all bound to the same values
// and each to its own gradient store.
#include <memory>
#include <vector>

#include "attention/block.h"
#include "config.h"
#include "layers.h"

namespace attnviz {

// A padded batch. Sequence b of the encoder input is src[b*Ts .. b*Ts+srcLen[b]-1]
// (source ids then <eos>), padded with <pad>; the decoder input tgtIn holds <bos> then the
// target ids, and tgtOut the prediction targets (target ids then <eos>), both [B*Tt].
//
// For an image model (arch "vit") pixels holds B images of image_size² pixels (0 … 255,
// row-major), tgtOut their class labels [B] (Tt = 1), and every sequence has Ts = srcLen[b] =
// the model's positions; src and tgtIn are empty.
struct Batch {
    int B = 0, Ts = 0, Tt = 0;
    std::vector<int> src, srcLen;
    std::vector<int> tgtIn, tgtOut, tgtLen;
    std::vector<uint8_t> pixels;

    // From raw token ids (no specials). For a decoder-only model pass empty sources.
    static Batch make(const std::vector<std::vector<int>>& sources,
                      const std::vector<std::vector<int>>& targets);
    // Images for a vit model of `positions` positions: pixels [B * image_size²], labels [B].
    static Batch images(std::vector<uint8_t> pixels, const std::vector<int>& labels, int positions);
    // Number of non-pad prediction targets.
    int targetTokens() const;
};

// Dropout of one forward pass (rate 0: none). The mask of every sub-layer of sequence b is
// drawn from (seed, sub-layer, firstSequence + b), so it does not depend on how a batch is
// split between threads.
struct Dropout {
    float rate = 0;
    uint64_t seed = 0;
    int firstSequence = 0;
};

// Fresh tensors for `params`, filled from `seed` by each tensor's Init scheme (the
// embedding row of <pad> starts at zero, as with PyTorch's padding_idx).
ParamStore initializeParameters(const std::vector<ParamInfo>& params, uint64_t seed);

// Zeroed gradient accumulators for every trainable tensor of `params` (frozen ones absent).
ParamStore gradientStore(const std::vector<ParamInfo>& params);

class Network {
public:
    explicit Network(const ModelConfig& cfg);
    ~Network();
    Network(const Network&) = delete;
    Network& operator=(const Network&) = delete;

    // Every tensor the configuration needs, for vocabularies of the given sizes.
    std::vector<ParamInfo> parameterInfo(int64_t srcVocab, int64_t tgtVocab) const;
    // Resolves tensors (and, while training, gradient accumulators) by name.
    void bind(const Bindings& b);
    bool usesMaxLen(BlockKind kind) const;

    // Whether forward passes keep every block's full weights for capture() (default) or may
    // run banded where a variant allows (training, evaluation without capture).
    void setKeepWeights(bool keep);
    // Every attention block, in capture order (encoder layers; per decoder layer its self-
    // then cross-attention): for head gates and their gradients (core/head_importance.h).
    std::vector<AttentionBlock*> blocks();

    // Bytes of attention weights (and logits) the blocks hold after the last forward.
    size_t attentionBytes() const;

    // Encoder then decoder: logits [B*Tt, Vt]. For vit: patch embedding, encoder, pooling
    // and classifier: logits [B, classes].
    void forward(const Batch& batch, const Dropout& drop, Mat& logits);
    // Encoder only: keeps the memory [B*Ts, d] for decode().
    void encode(const Batch& batch, const Dropout& drop);
    // Decoder only, against the memory of the last encode(): logits [B*Tt, Vt].
    void decode(const Batch& batch, const Dropout& drop, Mat& logits);
    // Incremental greedy decoding against the memory of the last encode(): beginDecoding
    // reserves room for `capacity` target positions, then decodeStep feeds one token per
    // sequence at positions t = 0, 1, … (tokens [B], <bos> first) and gives the next-token
    // logits [B, Vt], equal (to rounding) to row t of decode() on the whole prefix. Each
    // step costs one position per layer, not the whole prefix again.
    void beginDecoding(int capacity);
    void decodeStep(const std::vector<int>& tokens, int t, Mat& logits);
    // Backward of the last forward(): dlogits [B*Tt, Vt] -> gradients added into the bound
    // accumulators.
    void backward(const Batch& batch, const Mat& dlogits);

    // The weights of every block in the last forward, trimmed to the real lengths.
    std::vector<CapturedBlock> capture(const Batch& batch) const;
    // The encoder's blocks only, after encode() alone (the decoder's hold an older pass).
    std::vector<CapturedBlock> captureEncoder(const Batch& batch) const;

private:
    void bindText(const Bindings& b);  // the embeddings, decoder and output of a text model
    struct Impl;
    std::unique_ptr<Impl> d;
};

}  // namespace attnviz
