// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "block_config.h"
#include "input_limits.h"  // readTextFile, parseJson

namespace attnviz {

enum class Arch { Seq2Seq, Decoder, Vit };
enum class Pool { Cls, Mean };
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
    // arch "vit" only (docs/model-spec.md 3.10): square images of imageSize pixels of
    // `channels` values each (1 grayscale, 3 RGB; a pixel's values together), cut into patches
    // of patch × patch pixels, a class token or mean pooling, `classes` outputs. maxLen is then
    // the number of positions (patches, plus one with a class token).
    int imageSize = 28;
    int channels = 1;
    int patch = 4;
    // A convolutional stem (docs/model-spec.md 3.10, Xiao et al. 2021): the output channels of
    // 3 × 3 convolutions of stride 2 with ReLU, applied to the image before the patch
    // embedding; each halves the image, so `patch` = 2^stem.size() and a patch is one cell of
    // the last convolution's G × G map. Empty: none (the patch's pixels are embedded).
    std::vector<int> stem;
    Pool pool = Pool::Cls;
    int classes = 10;

    // Parses and validates; every problem is an Error naming the key and the rule.
    static ModelConfig fromJson(const nlohmann::json& j);
    static ModelConfig fromJsonText(const std::string& text);
    static ModelConfig fromFile(const std::string& path);
    // arch "vit" (fromJson dispatches to it).
    static ModelConfig fromVitJson(const nlohmann::json& j);
    // Error when weightCount() is over kMaxModelWeights.
    void checkWeightLimit() const;
    // The resolved configuration, every default explicit.
    nlohmann::json toJson() const;

    const BlockConfig& block(BlockKind kind) const;
    BlockConfig& block(BlockKind kind);
    // Whether decoder layer `layer` has cross-attention.
    bool hasCross(int layer) const;
    // The attention blocks this model has, in order: seq2seq encoder self, decoder self,
    // cross; a decoder-only model decoder self; a vit encoder self (its patches). The first
    // is the block that names the model's variant.
    std::vector<BlockKind> blockKinds() const;
    bool hasBlock(BlockKind kind) const;
    bool hasEncoder() const { return arch == Arch::Seq2Seq; }
    // An image classifier (arch "vit"): an encoder over patches, no decoder, no vocabulary.
    bool isVision() const { return arch == Arch::Vit; }
    // vit: patches per side (imageSize / patch), patches, and positions (patches + class token).
    int gridSize() const { return imageSize / patch; }
    int patchCount() const { return gridSize() * gridSize(); }
    int positions() const { return patchCount() + (pool == Pool::Cls ? 1 : 0); }
    // vit: bytes of one image (imageSize² · channels) and values of one patch (patch² ·
    // channels; with a stem, the last convolution's channels).
    size_t imageBytes() const { return size_t(imageSize) * size_t(imageSize) * size_t(channels); }
    int patchValues() const { return stem.empty() ? patch * patch * channels : stem.back(); }
    // vit with a stem: the input channels of convolution i (the image's, then the previous').
    int stemInputs(size_t i) const { return i == 0 ? channels : stem[i - 1]; }
    bool operator==(const ModelConfig& o) const;
    // Weights besides the embeddings (attention, feed-forward, positions), an upper bound.
    uint64_t weightCount() const;
    // Memory one training step of `batch` sequences of max_len tokens may need: weights,
    // gradients per thread, Adam's moments and the activations kept for the backward pass.
    double trainingBytes(int batch, int threads) const;
};

}  // namespace attnviz
