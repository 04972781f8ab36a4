// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The Transformer of MODEL.md with a pluggable attention variant per block kind:
// seq2seq (encoder + decoder with cross-attention) or decoder-only, pre- or post-norm.
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "attention/attention.h"
#include "config.h"
#include "tokenizer.h"

namespace attnviz {

class SafeTensorsFile;

// A padded batch. Sequence b of the encoder input is src[b*Ts .. b*Ts+srcLen[b]-1]
// (source ids then <eos>), padded with <pad>; the decoder input tgtIn holds <bos> then the
// target ids, and tgtOut the prediction targets (target ids then <eos>), both [B*Tt].
struct Batch {
    int B = 0, Ts = 0, Tt = 0;
    std::vector<int> src, srcLen;
    std::vector<int> tgtIn, tgtOut, tgtLen;

    // From raw token ids (no specials). For a decoder-only model pass empty sources.
    static Batch make(const std::vector<std::vector<int>>& sources,
                      const std::vector<std::vector<int>>& targets);
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

struct ForwardResult {
    Mat logits;          // [B*Tt, Vt]
    double lossSum = 0;  // Σ of -log p(target) over non-pad target positions
    int tokens = 0;      // number of non-pad target positions
    double loss() const { return tokens ? lossSum / tokens : 0.0; }
    std::vector<CapturedBlock> blocks;  // when captured
};

// One sentence through one model, as shown by the app and dumped by the CLI.
struct Analysis {
    std::string sourceText;
    std::vector<std::string> sourceTokens;  // source tokens + "<eos>" (seq2seq only)
    std::vector<int> sourceIds;
    std::string targetText;
    std::vector<std::string> targetTokens;  // "<bos>" + target tokens
    std::vector<int> targetIds;
    bool hasTarget = false;  // seq2seq: a target was given or decoded; decoder: always
    bool decoded = false;    // the target came from greedy decoding
    std::optional<double> loss;
    std::vector<CapturedBlock> blocks;  // weights [heads] of [Nq, Nk]
};

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

class Model {
public:
    // Engine-wide limit on tokens per sequence, whatever the variant (memory is O(N²)).
    static constexpr int kMaxTokens = 1024;

    Model(ModelConfig config, Vocab src, Vocab tgt, Tokenizer tokenizer);
    ~Model();
    Model(Model&&) noexcept;
    Model& operator=(Model&&) noexcept;
    Model clone() const;

    // Random initialisation from a seed (docs/engine.md lists each tensor's scheme).
    static Model initialize(ModelConfig config, Vocab src, Vocab tgt, Tokenizer tokenizer,
                            uint64_t seed);
    // Reads and validates a checkpoint; Error naming the problem otherwise.
    static Model load(const std::string& path);
    static Model fromSafeTensors(const SafeTensorsFile& file);
    SafeTensorsFile toSafeTensors() const;
    // Atomic write (temporary file + rename).
    void save(const std::string& path) const;

    const ModelConfig& config() const;
    const Vocab& srcVocab() const;
    const Vocab& tgtVocab() const;
    const Tokenizer& tokenizer() const;
    const nlohmann::json& training() const;  // "training" metadata (null when absent)
    void setTraining(nlohmann::json training);
    ParamStore& params();
    const ParamStore& params() const;
    std::vector<ParamInfo> parameterInfo() const;

    // Whether a block kind's variant needs sequences of at most max_len.
    bool usesMaxLen(BlockKind kind) const;
    // Longest source (tokens without <eos>) and target (without <bos>) the model accepts.
    int maxSourceTokens() const;
    int maxTargetTokens() const;

    // Full forward pass on a batch; captures every block's weights when asked.
    ForwardResult forward(const Batch& batch, bool capture);
    // Greedy decoding of one source (ids without <eos>); returns target ids without <bos>/<eos>.
    std::vector<int> greedyDecode(const std::vector<int>& sourceIds, int maxTokens = -1);

    // Tokenizes, checks lengths, decodes when no target is given (seq2seq), runs the model
    // and captures every block. For a decoder-only model `source` is the decoder input.
    Analysis analyze(std::string_view source,
                     std::optional<std::string_view> target = std::nullopt);

private:
    struct Impl;
    std::unique_ptr<Impl> d;
};

// Parameter counts by role and by module.
struct ParamCount {
    int64_t total = 0, trainable = 0;
    std::map<std::string, int64_t> byRole;
    std::map<std::string, int64_t> byModule;
};
ParamCount countParameters(const std::vector<ParamInfo>& params);

}  // namespace attnviz
