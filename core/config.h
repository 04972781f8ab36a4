// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "block_config.h"
#include "input_limits.h"  // readTextFile, parseJson

namespace attnviz {

enum class Arch { Seq2Seq, Decoder };
enum class Norm { Pre, Post };

struct ModelConfig {
    Arch arch = Arch::Seq2Seq;
    int dModel = 64;
    int heads = 4;
    int dFf = 256;
    int encLayers = 2;
    int decLayers = 2;
    int maxLen = 64;
    Norm norm = Norm::Pre;
    bool bias = true;
    bool shareEmbeddings = false;
    bool tieOutput = true;
    BlockConfig encoderSelf, decoderSelf, cross;

    // Parses and validates; every problem is an Error naming the key and the rule.
    static ModelConfig fromJson(const nlohmann::json& j);
    static ModelConfig fromJsonText(const std::string& text);
    static ModelConfig fromFile(const std::string& path);
    // The resolved configuration, every default explicit.
    nlohmann::json toJson() const;

    const BlockConfig& block(BlockKind kind) const;
    BlockConfig& block(BlockKind kind);
    // Whether decoder layer `layer` has cross-attention.
    bool hasCross(int layer) const;
    bool hasEncoder() const { return arch == Arch::Seq2Seq; }
    bool operator==(const ModelConfig& o) const;
    // Weights besides the embeddings (attention, feed-forward, positions), an upper bound.
    uint64_t weightCount() const;
    // Memory one training step of `batch` sequences of max_len tokens may need: weights,
    // gradients per thread, Adam's moments and the activations kept for the backward pass.
    double trainingBytes(int batch, int threads) const;
};

}  // namespace attnviz
