// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The Transformer of docs/model-spec.md with a pluggable attention variant per block kind:
// seq2seq (encoder + decoder with cross-attention) or decoder-only, pre- or post-norm.
#include <atomic>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "attention/attention.h"
#include "config.h"
#include "network.h"
#include "tokenizer.h"
#include "training_info.h"

namespace attnviz {

class SafeTensorsFile;

struct ForwardResult {
    Mat logits;          // [B*Tt, Vt]
    double lossSum = 0;  // Σ of -log p(target) over non-pad target positions
    int tokens = 0;      // number of non-pad target positions
    int correct = 0;     // positions whose most likely token is the target
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
    // For people, one per token: the tokenizer's display labels (subword marks removed),
    // a token the vocabulary does not know marked with "⁇" ("fox⁇").
    std::vector<std::string> sourceLabels, targetLabels;
    // Whether each token begins a word (always, for the word tokenizer): merging subword
    // pieces into words (core/word_merge.h).
    std::vector<bool> sourceWordStart, targetWordStart;
    // Tokens of the text that became <unk> (word tokenizer only; 0 with byte fallback).
    int unknownSource = 0, unknownTarget = 0;
};

// One image through an image model (arch "vit"), as `attnviz-cli attention` dumps it.
struct ImageAnalysis {
    std::vector<uint8_t> pixels;        // [image_size²] the image the model saw, 0 … 255
    std::vector<double> logits;         // [classes]
    std::vector<double> probabilities;  // [classes], softmax of the logits
    int predicted = 0;                  // the first arg-max
    std::optional<int> label;           // when known
    std::optional<double> loss;         // −log p(label), when the label is known
    std::vector<CapturedBlock> blocks;  // weights [heads] of [N, N] (docs/model-spec.md 3.10)
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
    // An image classifier (arch "vit") with the names of its classes, initialised from a seed.
    static Model initializeImages(ModelConfig config, std::vector<std::string> classes,
                                  uint64_t seed);
    // Reads and validates a checkpoint; Error naming the problem otherwise.
    static Model load(const std::string& path);
    // A checkpoint's configuration, from its header alone (the data is not read): for
    // deciding what a file holds (a model set's kind) without loading it. Error as load.
    static ModelConfig readConfig(const std::string& path);
    static Model fromSafeTensors(const SafeTensorsFile& file);
    SafeTensorsFile toSafeTensors() const;
    // Atomic write (temporary file + rename).
    void save(const std::string& path) const;

    const ModelConfig& config() const;
    const Vocab& srcVocab() const;
    const Vocab& tgtVocab() const;
    const Tokenizer& tokenizer() const;
    // vit: the class names in label order (config().classes of them); text models: empty.
    const std::vector<std::string>& classNames() const;
    // The rows forward() and training skip in the loss: <pad> for text, none (-1) for images.
    int ignoredTarget() const;
    // The "training" metadata, validated when the checkpoint was read (core/training_info.h).
    const TrainingInfo& training() const;
    // Replaces it (null: none); Error, and no change, when it is not valid training metadata.
    void setTraining(nlohmann::json training);
    ParamStore& params();
    const ParamStore& params() const;
    std::vector<ParamInfo> parameterInfo() const;

    // Replaces the configuration by one with exactly the same tensors (e.g. other Gaussian
    // sigma or offsets, which have no parameters); Error, and no change, otherwise.
    // The new configuration is validated like a configuration file.
    void reconfigure(const ModelConfig& config);

    // Whether a block kind's variant needs sequences of at most max_len.
    bool usesMaxLen(BlockKind kind) const;
    // Longest source (tokens without <eos>) and target (without <bos>) the model accepts.
    int maxSourceTokens() const;
    int maxTargetTokens() const;

    // Full forward pass on a batch; captures every block's weights when asked.
    ForwardResult forward(const Batch& batch, bool capture);
    // Forward passes without capture run Gaussian blocks banded (no Tq×Tk matrix,
    // O(Tq·w·d)) where the band is sparse enough to be faster (AttentionBlock::kBandDensity:
    // long sequences); on by default. Off: every block on the full matrices, as with capture.
    void setBanded(bool banded);
    // Head gates ξ (Michel et al. 2019), one vector per attention block in capture order
    // (encoder layers, then per decoder layer self- and cross-attention; an empty vector:
    // that block ungated). ξ_h = 0 prunes head h; forward, analysis and decoding follow.
    // An empty list ungates every block. Error when a vector's size is not the block's heads.
    void setHeadGates(const std::vector<std::vector<Scalar>>& gates);
    // Bytes of attention weights and logits the blocks hold after the last forward.
    size_t attentionBytes() const;
    // Greedy decoding of one source (ids without <eos>); returns target ids without <bos>/<eos>.
    // maxTokens < 0: 2·|source| + 10, capped by maxTargetTokens().
    std::vector<int> greedyDecode(const std::vector<int>& sourceIds, int maxTokens = -1);
    // The same for many sources at once (one batch, same results as one by one).
    std::vector<std::vector<int>> greedyDecode(const std::vector<std::vector<int>>& sources,
                                               int maxTokens = -1);
    struct DecodeOptions {
        int maxTokens = -1;  // as above
        // One new position per step with cached keys and values (Network::decodeStep);
        // false: the whole prefix through the decoder at every step (the reference).
        bool incremental = true;
        bool stopAtEos = true;  // false: <eos> never chosen (benchmarks: full length)
        // Checked before every step: once true, decoding stops by throwing Cancelled.
        const std::atomic<bool>* cancel = nullptr;
    };
    std::vector<std::vector<int>> greedyDecode(const std::vector<std::vector<int>>& sources,
                                               const DecodeOptions& options);

    // Tokenizes, checks lengths, decodes when no target is given (seq2seq), runs the model
    // and captures every block. For a decoder-only model `source` is the decoder input.
    // `cancel` (may be null) gives up a greedy decoding by throwing Cancelled once it is true.
    Analysis analyze(std::string_view source, std::optional<std::string_view> target = std::nullopt,
                     const std::atomic<bool>* cancel = nullptr);
    // The first stage of analyze(), which needs no decoding: for a seq2seq model the source's
    // tokens, labels and the encoder's self-attention blocks only (hasTarget false, no target,
    // no loss), each exactly what analyze() gives for the same source; for a decoder-only
    // model the whole analyze(source). The same errors as analyze() for the source.
    Analysis analyzeSource(std::string_view source);
    // The length and emptiness checks of analyze() alone (tokenizing, no model run): the
    // same Error analyze() would throw for these texts, at once.
    void checkInput(std::string_view source,
                    std::optional<std::string_view> target = std::nullopt) const;
    // An image model on one image of image_size² pixels (0 … 255, row-major), with its label
    // when known: logits, probabilities, and every block's weights. Error for a text model,
    // an image of another size or a label out of range.
    ImageAnalysis analyzeImage(const std::vector<uint8_t>& pixels,
                               std::optional<int> label = std::nullopt);

private:
    // Everything a checkpoint's header decides, checked: a model whose parameters are not
    // set yet. Error naming the problem.
    static Model fromHeader(const std::map<std::string, std::string>& metadata,
                            const std::map<std::string, std::vector<int64_t>>& shapes);
    static Model fromVisionHeader(ModelConfig cfg,
                                  const std::map<std::string, std::string>& metadata,
                                  const std::map<std::string, std::vector<int64_t>>& shapes);
    // The training metadata, and the tensors' names and shapes against the configuration.
    void checkHeaderRest(const std::map<std::string, std::string>& metadata,
                         const std::map<std::string, std::vector<int64_t>>& shapes);
    // Copies the parameters (shapes already checked); Error on NaN or infinity.
    void setParameters(const std::map<std::string, Tensor>& tensors);

    // The source's tokens (decoder-only: the text's), checked: Error when empty or too long.
    std::vector<std::string> inputTokens(std::string_view source) const;
    // The target's tokens (none without one), checked: Error when too long.
    std::vector<std::string> targetTokens(std::optional<std::string_view> target) const;
    // The source side of `a` from its tokens (text, tokens and ids, <eos> appended); returns
    // the ids without <eos>, as the encoder's batch takes them.
    std::vector<int> setSource(Analysis& a, std::string_view source,
                               const std::vector<std::string>& tokens) const;

    // Display labels and word starts of tokens with their ids; returns how many are <unk>.
    int label(const std::vector<std::string>& tokens, const std::vector<int>& ids,
              std::vector<std::string>& labels, std::vector<bool>& starts) const;

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
