// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace attnviz {

enum class Arch { Seq2Seq, Decoder };
enum class Norm { Pre, Post };
enum class BlockKind { EncoderSelf, DecoderSelf, Cross };

// "encoder_self", "decoder_self", "cross": the names used in configs and dumps.
const char* blockKindName(BlockKind kind);
// The kind named `name` ("encoder_self", …); false when there is none.
bool blockKindFromName(const std::string& name, BlockKind* kind);

// One attention block's settings (MODEL.md, "Configuration"). After parsing, every
// default is filled in, so the variant code never guesses.
struct BlockConfig {
    std::string variant = "dot";
    int heads = 0;  // 0 while unresolved; then the model's heads unless set
    // gaussian
    std::vector<double> offsets;  // empty while unresolved; then the kind's default
    double sigma = 1.0;
    bool normalize = false;
    double ratio = 1.0;
    // random, factorized_random
    bool trainable = true;
    int k = 8;
    // factorized_dense (0 while unresolved)
    int a = 0, b = 0;
    // mixture
    std::vector<std::string> components;
    // cross only: "all" (every decoder layer) or "top" (only the last)
    bool topOnly = false;

    bool operator==(const BlockConfig& o) const;
};

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
};

// Reads a whole file into a string; Error naming the path when it cannot.
std::string readTextFile(const std::string& path);

}  // namespace attnviz
