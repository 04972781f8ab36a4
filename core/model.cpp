// SPDX-License-Identifier: GPL-3.0-or-later
#include "model.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "error.h"
#include "layers.h"
#include "rng.h"
#include "safetensors.h"

namespace attnviz {
namespace {

using nlohmann::json;

// One attention block: a variant for the weights plus the shared value and output
// projections. xq [B*Tq, d], xk [B*Tk, d] -> out [B*Tq, d]; keeps A [B*h] of [Tq, Tk].
class AttentionBlock {
public:
    AttentionBlock(std::string prefix, BlockKind kind, int layer, const BlockConfig& cfg,
                   const ModelConfig& model)
        : m_prefix(std::move(prefix)), m_kind(kind), m_layer(layer) {
        m_geo = BlockGeometry{model.dModel, cfg.heads, model.maxLen, kind, model.bias};
        m_variant = createVariant(cfg, m_geo);
    }

    std::vector<ParamInfo> parameters() const {
        const int64_t d = m_geo.dModel;
        std::vector<ParamInfo> p;
        for (auto& s : m_variant->parameters())
            p.push_back({m_prefix + s.name, s.shape, s.init, s.trainable, s.role, name()});
        const char* vo = "attention.value_output";
        p.push_back({m_prefix + "v_proj.weight", {d, d}, Init::xavier(d, d), true, vo, name()});
        if (m_geo.bias)
            p.push_back({m_prefix + "v_proj.bias", {d}, Init::zeros(), true, vo, name()});
        p.push_back({m_prefix + "out_proj.weight", {d, d}, Init::xavier(d, d), true, vo, name()});
        if (m_geo.bias)
            p.push_back({m_prefix + "out_proj.bias", {d}, Init::zeros(), true, vo, name()});
        return p;
    }

    void bind(const ParamStore& store) {
        m_variant->bind(store, m_prefix);
        auto get = [&](const std::string& n) -> const Tensor* {
            auto it = store.find(m_prefix + n);
            if (it == store.end()) throw Error("missing tensor '" + m_prefix + n + "'");
            return &it->second;
        };
        m_wv = get("v_proj.weight");
        m_wo = get("out_proj.weight");
        m_bv = m_geo.bias ? get("v_proj.bias") : nullptr;
        m_bo = m_geo.bias ? get("out_proj.bias") : nullptr;
    }

    void forward(const Mat& xq, const Mat& xk, int B, int Tq, int Tk, const AttentionMask& mask,
                 Mat& out) {
        const int h = m_geo.heads, dk = m_geo.dk();
        if (m_variant->logitBased()) {
            m_variant->logits(xq, xk, B, Tq, Tk, m_s);
            m_a.resize(m_s.size());
            for (int b = 0; b < B; ++b) {
                for (int hd = 0; hd < h; ++hd)
                    maskedSoftmax(m_s[size_t(b * h + hd)], b, mask, m_a[size_t(b * h + hd)]);
            }
        } else {
            m_variant->weights(B, Tq, Tk, mask, m_a);
        }
        linear(xk, *m_wv, m_bv, m_v);  // V [B*Tk, d]
        m_ctx.resize(static_cast<Eigen::Index>(B) * Tq, m_geo.dModel);
        for (int b = 0; b < B; ++b) {
            for (int hd = 0; hd < h; ++hd) {
                m_ctx.block(b * Tq, hd * dk, Tq, dk).noalias() =
                    m_a[size_t(b * h + hd)] * m_v.block(b * Tk, hd * dk, Tk, dk);
            }
        }
        linear(m_ctx, *m_wo, m_bo, out);
    }

    // Weights of the last forward, trimmed to each sequence's real query and key lengths.
    CapturedBlock capture(int B, const std::vector<int>& qLen, const std::vector<int>& kLen) const {
        CapturedBlock c;
        c.name = name();
        c.kind = m_kind;
        c.layer = m_layer;
        c.variant = m_variant->config().variant;
        c.heads = m_geo.heads;
        for (int b = 0; b < B; ++b) {
            for (int hd = 0; hd < m_geo.heads; ++hd) {
                c.weights.push_back(m_a[size_t(b * m_geo.heads + hd)].topLeftCorner(
                    qLen[size_t(b)], kLen[size_t(b)]));
            }
        }
        return c;
    }

    std::string name() const { return m_prefix.substr(0, m_prefix.size() - 1); }
    bool usesMaxLen() const { return m_variant->usesMaxLen(); }
    AttentionVariant& variant() { return *m_variant; }

private:
    std::string m_prefix;  // "encoder.layers.0.self_attn."
    BlockKind m_kind;
    int m_layer;
    BlockGeometry m_geo;
    std::unique_ptr<AttentionVariant> m_variant;
    const Tensor *m_wv = nullptr, *m_bv = nullptr, *m_wo = nullptr, *m_bo = nullptr;
    std::vector<Mat> m_s, m_a;
    Mat m_v, m_ctx;
};

struct NormRef {
    const Tensor *w = nullptr, *b = nullptr;
};

struct FfnRef {
    const Tensor *w1 = nullptr, *b1 = nullptr, *w2 = nullptr, *b2 = nullptr;
};

struct EncoderLayer {
    std::unique_ptr<AttentionBlock> self;
    NormRef norm1, norm2;
    FfnRef ffn;
};

struct DecoderLayer {
    std::unique_ptr<AttentionBlock> self, cross;  // cross may be null
    NormRef norm1, norm2, norm3;
    FfnRef ffn;
};

const Tensor* lookup(const ParamStore& s, const std::string& name) {
    auto it = s.find(name);
    if (it == s.end()) throw Error("missing tensor '" + name + "'");
    return &it->second;
}

NormRef bindNorm(const ParamStore& s, const std::string& p) {
    return {lookup(s, p + ".weight"), lookup(s, p + ".bias")};
}

FfnRef bindFfn(const ParamStore& s, const std::string& p) {
    return {lookup(s, p + ".linear1.weight"), lookup(s, p + ".linear1.bias"),
            lookup(s, p + ".linear2.weight"), lookup(s, p + ".linear2.bias")};
}

void addNorm(std::vector<ParamInfo>& p, const std::string& name, int64_t d,
             const std::string& module) {
    p.push_back({name + ".weight", {d}, Init::ones(), true, "norm", module});
    p.push_back({name + ".bias", {d}, Init::zeros(), true, "norm", module});
}

void addFfn(std::vector<ParamInfo>& p, const std::string& name, int64_t d, int64_t f) {
    p.push_back({name + ".linear1.weight", {f, d}, Init::xavier(d, f), true, "ffn", name});
    p.push_back({name + ".linear1.bias", {f}, Init::zeros(), true, "ffn", name});
    p.push_back({name + ".linear2.weight", {d, f}, Init::xavier(f, d), true, "ffn", name});
    p.push_back({name + ".linear2.bias", {d}, Init::zeros(), true, "ffn", name});
}

// x [N, d] -> y [N, d] = linear2(ReLU(linear1(x)))
void ffnForward(const FfnRef& f, const Mat& x, Mat& hidden, Mat& y) {
    linear(x, *f.w1, f.b1, hidden);
    hidden = hidden.cwiseMax(0.0f);
    linear(hidden, *f.w2, f.b2, y);
}

std::string tokenJoin(const std::vector<std::string>& t) {
    std::string s;
    for (const auto& x : t) s += (s.empty() ? "" : " ") + x;
    return s;
}

}  // namespace

Batch Batch::make(const std::vector<std::vector<int>>& sources,
                  const std::vector<std::vector<int>>& targets) {
    Batch b;
    b.B = static_cast<int>(targets.size());
    if (!sources.empty() && sources.size() != targets.size()) {
        throw Error("batch has " + std::to_string(sources.size()) + " sources but " +
                    std::to_string(targets.size()) + " targets");
    }
    for (const auto& s : sources) b.Ts = std::max(b.Ts, static_cast<int>(s.size()) + 1);
    for (const auto& t : targets) b.Tt = std::max(b.Tt, static_cast<int>(t.size()) + 1);
    if (!sources.empty()) {
        b.src.assign(size_t(b.B) * size_t(b.Ts), Vocab::kPad);
        for (int i = 0; i < b.B; ++i) {
            const auto& s = sources[size_t(i)];
            std::copy(s.begin(), s.end(), b.src.begin() + long(i) * b.Ts);
            b.src[size_t(i) * size_t(b.Ts) + s.size()] = Vocab::kEos;
            b.srcLen.push_back(static_cast<int>(s.size()) + 1);
        }
    }
    b.tgtIn.assign(size_t(b.B) * size_t(b.Tt), Vocab::kPad);
    b.tgtOut.assign(size_t(b.B) * size_t(b.Tt), Vocab::kPad);
    for (int i = 0; i < b.B; ++i) {
        const auto& t = targets[size_t(i)];
        const size_t base = size_t(i) * size_t(b.Tt);
        b.tgtIn[base] = Vocab::kBos;
        for (size_t k = 0; k < t.size(); ++k) {
            b.tgtIn[base + k + 1] = t[k];
            b.tgtOut[base + k] = t[k];
        }
        b.tgtOut[base + t.size()] = Vocab::kEos;
        b.tgtLen.push_back(static_cast<int>(t.size()) + 1);
    }
    return b;
}

struct Model::Impl {
    ModelConfig cfg;
    Vocab src, tgt;
    Tokenizer tokenizer;
    json training;
    std::unique_ptr<ParamStore> params = std::make_unique<ParamStore>();
    std::vector<EncoderLayer> enc;
    std::vector<DecoderLayer> dec;
    NormRef encNorm, decNorm;
    const Tensor *srcEmbed = nullptr, *tgtEmbed = nullptr, *genW = nullptr, *genB = nullptr;
    // scratch
    Mat x, y, h, t, hidden, mem;

    void buildBlocks() {
        enc.clear();
        dec.clear();
        if (cfg.hasEncoder()) {
            for (int i = 0; i < cfg.encLayers; ++i) {
                EncoderLayer l;
                l.self = std::make_unique<AttentionBlock>(
                    "encoder.layers." + std::to_string(i) + ".self_attn.", BlockKind::EncoderSelf,
                    i, cfg.encoderSelf, cfg);
                enc.push_back(std::move(l));
            }
        }
        for (int i = 0; i < cfg.decLayers; ++i) {
            DecoderLayer l;
            const std::string p = "decoder.layers." + std::to_string(i);
            l.self = std::make_unique<AttentionBlock>(p + ".self_attn.", BlockKind::DecoderSelf, i,
                                                      cfg.decoderSelf, cfg);
            if (cfg.hasCross(i)) {
                l.cross = std::make_unique<AttentionBlock>(p + ".cross_attn.", BlockKind::Cross, i,
                                                           cfg.cross, cfg);
            }
            dec.push_back(std::move(l));
        }
    }

    std::vector<ParamInfo> parameterInfo() const {
        const int64_t d = cfg.dModel, f = cfg.dFf;
        const int64_t Vs = src.size(), Vt = tgt.size();
        std::vector<ParamInfo> p;
        const Init emb = Init::normal(1.0 / std::sqrt(static_cast<double>(d)));
        if (cfg.hasEncoder())
            p.push_back({"src_embed.weight", {Vs, d}, emb, true, "embedding", "embeddings"});
        if (!(cfg.hasEncoder() && cfg.shareEmbeddings))
            p.push_back({"tgt_embed.weight", {Vt, d}, emb, true, "embedding", "embeddings"});
        if (!cfg.tieOutput) {
            p.push_back(
                {"generator.weight", {Vt, d}, Init::xavier(d, Vt), true, "output", "generator"});
        }
        p.push_back({"generator.bias", {Vt}, Init::zeros(), true, "output", "generator"});
        for (size_t i = 0; i < enc.size(); ++i) {
            const std::string l = "encoder.layers." + std::to_string(i);
            addNorm(p, l + ".norm1", d, l + ".self_attn");
            for (auto& s : enc[i].self->parameters()) p.push_back(s);
            addNorm(p, l + ".norm2", d, l + ".ffn");
            addFfn(p, l + ".ffn", d, f);
        }
        for (size_t i = 0; i < dec.size(); ++i) {
            const std::string l = "decoder.layers." + std::to_string(i);
            addNorm(p, l + ".norm1", d, l + ".self_attn");
            for (auto& s : dec[i].self->parameters()) p.push_back(s);
            if (dec[i].cross) {
                addNorm(p, l + ".norm2", d, l + ".cross_attn");
                for (auto& s : dec[i].cross->parameters()) p.push_back(s);
            }
            addNorm(p, l + ".norm3", d, l + ".ffn");
            addFfn(p, l + ".ffn", d, f);
        }
        if (cfg.norm == Norm::Pre) {
            if (cfg.hasEncoder()) addNorm(p, "encoder.norm", d, "encoder.norm");
            addNorm(p, "decoder.norm", d, "decoder.norm");
        }
        return p;
    }

    void bind() {
        const ParamStore& s = *params;
        srcEmbed = cfg.hasEncoder() ? lookup(s, "src_embed.weight") : nullptr;
        tgtEmbed =
            (cfg.hasEncoder() && cfg.shareEmbeddings) ? srcEmbed : lookup(s, "tgt_embed.weight");
        genW = cfg.tieOutput ? tgtEmbed : lookup(s, "generator.weight");
        genB = lookup(s, "generator.bias");
        for (size_t i = 0; i < enc.size(); ++i) {
            const std::string l = "encoder.layers." + std::to_string(i);
            enc[i].self->bind(s);
            enc[i].norm1 = bindNorm(s, l + ".norm1");
            enc[i].norm2 = bindNorm(s, l + ".norm2");
            enc[i].ffn = bindFfn(s, l + ".ffn");
        }
        for (size_t i = 0; i < dec.size(); ++i) {
            const std::string l = "decoder.layers." + std::to_string(i);
            dec[i].self->bind(s);
            dec[i].norm1 = bindNorm(s, l + ".norm1");
            if (dec[i].cross) {
                dec[i].cross->bind(s);
                dec[i].norm2 = bindNorm(s, l + ".norm2");
            }
            dec[i].norm3 = bindNorm(s, l + ".norm3");
            dec[i].ffn = bindFfn(s, l + ".ffn");
        }
        if (cfg.norm == Norm::Pre) {
            if (cfg.hasEncoder()) encNorm = bindNorm(s, "encoder.norm");
            decNorm = bindNorm(s, "decoder.norm");
        }
    }

    // x += Attn(LN(x)) (pre) or x = LN(x + Attn(x)) (post); kv null for self-attention.
    void residualAttention(AttentionBlock& blk, const NormRef& n, Mat& x, const Mat* kv, int B,
                           int Tq, int Tk, const AttentionMask& mask) {
        if (cfg.norm == Norm::Pre) {
            layerNorm(x, *n.w, *n.b, h);
            blk.forward(h, kv ? *kv : h, B, Tq, Tk, mask, t);
            x += t;
        } else {
            blk.forward(x, kv ? *kv : x, B, Tq, Tk, mask, t);
            t += x;
            layerNorm(t, *n.w, *n.b, x);
        }
    }

    void residualFfn(const FfnRef& f, const NormRef& n, Mat& x) {
        if (cfg.norm == Norm::Pre) {
            layerNorm(x, *n.w, *n.b, h);
            ffnForward(f, h, hidden, t);
            x += t;
        } else {
            ffnForward(f, x, hidden, t);
            t += x;
            layerNorm(t, *n.w, *n.b, x);
        }
    }

    // Encoder: src ids [B*Ts] -> memory [B*Ts, d]
    void encode(const Batch& batch) {
        embed(*srcEmbed, batch.src, batch.Ts, x);
        AttentionMask mask{batch.srcLen, false};
        for (auto& l : enc) {
            residualAttention(*l.self, l.norm1, x, nullptr, batch.B, batch.Ts, batch.Ts, mask);
            residualFfn(l.ffn, l.norm2, x);
        }
        if (cfg.norm == Norm::Pre) {
            layerNorm(x, *encNorm.w, *encNorm.b, mem);
        } else {
            mem = x;
        }
    }

    // Decoder: tgtIn [B*Tt] (+ memory) -> logits [B*Tt, Vt]
    void decode(const Batch& batch, Mat& logits) {
        embed(*tgtEmbed, batch.tgtIn, batch.Tt, y);
        AttentionMask selfMask{batch.tgtLen, true};
        AttentionMask crossMask{batch.srcLen, false};
        for (auto& l : dec) {
            residualAttention(*l.self, l.norm1, y, nullptr, batch.B, batch.Tt, batch.Tt, selfMask);
            if (l.cross) {
                residualAttention(*l.cross, l.norm2, y, &mem, batch.B, batch.Tt, batch.Ts,
                                  crossMask);
            }
            residualFfn(l.ffn, l.norm3, y);
        }
        if (cfg.norm == Norm::Pre) {
            layerNorm(y, *decNorm.w, *decNorm.b, h);
            linear(h, *genW, genB, logits);
        } else {
            linear(y, *genW, genB, logits);
        }
    }

    void checkBatch(const Batch& b) const {
        if (cfg.hasEncoder() &&
            (b.src.size() != size_t(b.B) * size_t(b.Ts) || b.srcLen.size() != size_t(b.B)))
            throw Error("batch has no source for a seq2seq model");
        if (b.Ts > Model::kMaxTokens || b.Tt > Model::kMaxTokens) {
            throw Error("sequence of " + std::to_string(std::max(b.Ts, b.Tt)) +
                        " positions exceeds the engine limit of " +
                        std::to_string(Model::kMaxTokens));
        }
    }
};

Model::Model(ModelConfig config, Vocab src, Vocab tgt, Tokenizer tokenizer)
    : d(std::make_unique<Impl>()) {
    if (config.hasEncoder() && config.shareEmbeddings && !(src == tgt))
        throw Error("share_embeddings needs identical source and target vocabularies");
    if (!config.hasEncoder() && !(src == tgt))
        throw Error("a decoder-only model has one vocabulary: src_vocab must equal tgt_vocab");
    d->cfg = std::move(config);
    d->src = std::move(src);
    d->tgt = std::move(tgt);
    d->tokenizer = tokenizer;
    d->buildBlocks();
}

Model::~Model() = default;
Model::Model(Model&&) noexcept = default;
Model& Model::operator=(Model&&) noexcept = default;

Model Model::clone() const {
    Model m(d->cfg, d->src, d->tgt, d->tokenizer);
    *m.d->params = *d->params;
    m.d->training = d->training;
    m.d->bind();
    return m;
}

Model Model::initialize(ModelConfig config, Vocab src, Vocab tgt, Tokenizer tokenizer,
                        uint64_t seed) {
    Model m(std::move(config), std::move(src), std::move(tgt), tokenizer);
    Rng rng(seed);
    for (const auto& p : m.parameterInfo()) {
        Tensor t(p.shape);
        float* x = t.data();
        for (int64_t i = 0; i < t.numel(); ++i) {
            switch (p.init.kind) {
                case Init::Zeros:
                    x[i] = 0.0f;
                    break;
                case Init::Ones:
                    x[i] = 1.0f;
                    break;
                case Init::Uniform:
                    x[i] = static_cast<float>(rng.uniform(-p.init.scale, p.init.scale));
                    break;
                case Init::Normal:
                    x[i] = static_cast<float>(rng.normal() * p.init.scale);
                    break;
            }
        }
        // The embedding row of <pad> starts at zero, as with PyTorch's padding_idx.
        if (p.role == "embedding") t.m.row(Vocab::kPad).setZero();
        m.d->params->emplace(p.name, std::move(t));
    }
    m.d->bind();
    return m;
}

Model Model::fromSafeTensors(const SafeTensorsFile& f) {
    auto meta = [&](const std::string& key) -> const std::string& {
        auto it = f.metadata.find(key);
        if (it == f.metadata.end())
            throw Error("not an attnviz checkpoint: metadata '" + key + "' is missing");
        return it->second;
    };
    if (meta("format") != "attnviz")
        throw Error("not an attnviz checkpoint: format is '" + meta("format") + "'");
    if (meta("format_version") != "1") {
        throw Error("unsupported checkpoint format_version '" + meta("format_version") +
                    "' (this version reads 1)");
    }
    ModelConfig cfg;
    try {
        cfg = ModelConfig::fromJsonText(meta("config"));
    } catch (const Error& e) {
        throw Error(std::string("checkpoint config: ") + e.what());
    }
    auto vocab = [&](const std::string& key) {
        json j;
        try {
            j = json::parse(meta(key));
        } catch (const json::exception&) {
            throw Error("checkpoint " + key + " is not valid JSON");
        }
        if (!j.is_array()) throw Error("checkpoint " + key + " is not a JSON array");
        std::vector<std::string> t;
        for (const auto& x : j) {
            if (!x.is_string()) throw Error("checkpoint " + key + " holds a non-string token");
            t.push_back(x.get<std::string>());
        }
        try {
            return Vocab(std::move(t));
        } catch (const Error& e) {
            throw Error("checkpoint " + key + ": " + e.what());
        }
    };
    Vocab src = vocab("src_vocab"), tgt = vocab("tgt_vocab");
    json tok;
    try {
        tok = json::parse(meta("tokenizer"));
    } catch (const json::exception&) {
        throw Error("checkpoint tokenizer is not valid JSON");
    }
    Model m(std::move(cfg), std::move(src), std::move(tgt), Tokenizer::fromJson(tok));
    if (auto it = f.metadata.find("training"); it != f.metadata.end()) {
        try {
            m.d->training = json::parse(it->second);
        } catch (const json::exception&) {
            throw Error("checkpoint training metadata is not valid JSON");
        }
    }
    const auto expected = m.parameterInfo();
    std::map<std::string, const ParamInfo*> byName;
    for (const auto& p : expected) byName[p.name] = &p;
    for (const auto& [name, t] : f.tensors) {
        if (!byName.count(name))
            throw Error("unexpected tensor '" + name + "' for this configuration");
    }
    for (const auto& p : expected) {
        auto it = f.tensors.find(p.name);
        if (it == f.tensors.end()) throw Error("missing tensor '" + p.name + "'");
        if (it->second.shape != p.shape) {
            throw Error("tensor '" + p.name + "' has shape " + shapeToString(it->second.shape) +
                        " but the configuration needs " + shapeToString(p.shape));
        }
        const Tensor& t = it->second;
        for (int64_t i = 0; i < t.numel(); ++i) {
            if (!std::isfinite(t.data()[i]))
                throw Error("tensor '" + p.name + "' contains NaN or infinity");
        }
        m.d->params->emplace(p.name, t);
    }
    m.d->bind();
    return m;
}

Model Model::load(const std::string& path) {
    const SafeTensorsFile f = SafeTensorsFile::read(path);
    try {
        return fromSafeTensors(f);
    } catch (const Error& e) {
        throw Error(path + ": " + e.what());
    }
}

SafeTensorsFile Model::toSafeTensors() const {
    SafeTensorsFile f;
    f.tensors = *d->params;
    f.metadata["format"] = "attnviz";
    f.metadata["format_version"] = "1";
    f.metadata["config"] = d->cfg.toJson().dump();
    f.metadata["src_vocab"] = json(d->src.tokens()).dump();
    f.metadata["tgt_vocab"] = json(d->tgt.tokens()).dump();
    f.metadata["tokenizer"] = d->tokenizer.toJson().dump();
    if (!d->training.is_null()) f.metadata["training"] = d->training.dump();
    return f;
}

void Model::save(const std::string& path) const {
    toSafeTensors().write(path);
}

const ModelConfig& Model::config() const {
    return d->cfg;
}
const Vocab& Model::srcVocab() const {
    return d->src;
}
const Vocab& Model::tgtVocab() const {
    return d->tgt;
}
const Tokenizer& Model::tokenizer() const {
    return d->tokenizer;
}
const json& Model::training() const {
    return d->training;
}
void Model::setTraining(json training) {
    d->training = std::move(training);
}
ParamStore& Model::params() {
    return *d->params;
}
const ParamStore& Model::params() const {
    return *d->params;
}
std::vector<ParamInfo> Model::parameterInfo() const {
    return d->parameterInfo();
}

bool Model::usesMaxLen(BlockKind kind) const {
    for (const auto& l : d->enc)
        if (kind == BlockKind::EncoderSelf && l.self->usesMaxLen()) return true;
    for (const auto& l : d->dec) {
        if (kind == BlockKind::DecoderSelf && l.self->usesMaxLen()) return true;
        if (kind == BlockKind::Cross && l.cross && l.cross->usesMaxLen()) return true;
    }
    return false;
}

int Model::maxSourceTokens() const {
    const bool bound = usesMaxLen(BlockKind::EncoderSelf) || usesMaxLen(BlockKind::Cross);
    return (bound ? std::min(d->cfg.maxLen, kMaxTokens) : kMaxTokens) - 1;
}

int Model::maxTargetTokens() const {
    const bool bound = usesMaxLen(BlockKind::DecoderSelf) || usesMaxLen(BlockKind::Cross);
    return (bound ? std::min(d->cfg.maxLen, kMaxTokens) : kMaxTokens) - 1;
}

ForwardResult Model::forward(const Batch& batch, bool capture) {
    d->checkBatch(batch);
    ForwardResult r;
    if (d->cfg.hasEncoder()) d->encode(batch);
    d->decode(batch, r.logits);
    // Cross-entropy over non-pad targets: -log softmax(logits)[target].
    for (Eigen::Index row = 0; row < r.logits.rows(); ++row) {
        const int target = batch.tgtOut[size_t(row)];
        if (target == Vocab::kPad) continue;
        const float mx = r.logits.row(row).maxCoeff();
        const double lse =
            mx + std::log(static_cast<double>((r.logits.row(row).array() - mx).exp().sum()));
        r.lossSum += lse - r.logits(row, target);
        ++r.tokens;
    }
    if (capture) {
        for (auto& l : d->enc)
            r.blocks.push_back(l.self->capture(batch.B, batch.srcLen, batch.srcLen));
        for (auto& l : d->dec) {
            r.blocks.push_back(l.self->capture(batch.B, batch.tgtLen, batch.tgtLen));
            if (l.cross) r.blocks.push_back(l.cross->capture(batch.B, batch.tgtLen, batch.srcLen));
        }
    }
    return r;
}

std::vector<int> Model::greedyDecode(const std::vector<int>& sourceIds, int maxTokens) {
    if (!d->cfg.hasEncoder()) throw Error("greedy decoding needs a seq2seq model");
    if (maxTokens < 0)
        maxTokens = std::min(maxTargetTokens(), 2 * static_cast<int>(sourceIds.size()) + 10);
    maxTokens = std::min(maxTokens, maxTargetTokens());
    std::vector<int> out;
    Batch b = Batch::make({sourceIds}, {out});
    d->encode(b);
    Mat logits;
    while (static_cast<int>(out.size()) < maxTokens) {
        b = Batch::make({sourceIds}, {out});
        d->decode(b, logits);
        auto row = logits.row(logits.rows() - 1);
        int best = -1;
        for (int v = 0; v < row.size(); ++v) {
            if (v == Vocab::kPad || v == Vocab::kBos) continue;
            if (best < 0 || row(v) > row(best)) best = v;
        }
        if (best == Vocab::kEos) break;
        out.push_back(best);
    }
    return out;
}

Analysis Model::analyze(std::string_view source, std::optional<std::string_view> target) {
    Analysis a;
    const bool seq2seq = d->cfg.hasEncoder();
    auto tokens = d->tokenizer.tokenize(source);
    if (tokens.empty()) {
        throw Error(seq2seq ? "the source sentence is empty: type a sentence"
                            : "the text is empty: type a sentence");
    }
    const int limitA = seq2seq ? maxSourceTokens() : maxTargetTokens();
    if (static_cast<int>(tokens.size()) > limitA) {
        throw Error("the " + std::string(seq2seq ? "source" : "text") + " has " +
                    std::to_string(tokens.size()) + " tokens; this model accepts at most " +
                    std::to_string(limitA) +
                    (limitA + 1 == d->cfg.maxLen
                         ? " (max_len " + std::to_string(d->cfg.maxLen) + " less one for <" +
                               (seq2seq ? "eos" : "bos") + ">)"
                         : std::string()));
    }
    std::vector<int> srcIds, tgtIds;
    if (seq2seq) {
        a.sourceText = std::string(source);
        srcIds = d->src.ids(tokens);
        a.sourceTokens = tokens;
        a.sourceTokens.push_back("<eos>");
        a.sourceIds = srcIds;
        a.sourceIds.push_back(Vocab::kEos);
        const auto tt = target ? d->tokenizer.tokenize(*target) : std::vector<std::string>();
        if (!tt.empty()) {
            if (static_cast<int>(tt.size()) > maxTargetTokens()) {
                throw Error("the target has " + std::to_string(tt.size()) +
                            " tokens; this model accepts at most " +
                            std::to_string(maxTargetTokens()));
            }
            a.targetText = std::string(*target);
            tgtIds = d->tgt.ids(tt);
            a.targetTokens = tt;
        } else {
            tgtIds = greedyDecode(srcIds);
            for (int id : tgtIds) a.targetTokens.push_back(d->tgt.token(id));
            a.targetText = tokenJoin(a.targetTokens);
            a.decoded = true;
        }
    } else {
        if (target) throw Error("a decoder-only model takes one text, not a target");
        a.targetText = std::string(source);
        tgtIds = d->tgt.ids(tokens);
        a.targetTokens = tokens;
    }
    a.hasTarget = true;
    a.targetTokens.insert(a.targetTokens.begin(), "<bos>");
    a.targetIds = tgtIds;
    a.targetIds.insert(a.targetIds.begin(), Vocab::kBos);
    const Batch b = seq2seq ? Batch::make({srcIds}, {tgtIds}) : Batch::make({}, {tgtIds});
    ForwardResult r = forward(b, true);
    a.loss = r.loss();
    a.blocks = std::move(r.blocks);
    return a;
}

ParamCount countParameters(const std::vector<ParamInfo>& params) {
    ParamCount c;
    for (const auto& p : params) {
        const int64_t n = p.numel();
        c.total += n;
        if (p.trainable) c.trainable += n;
        c.byRole[p.role] += n;
        c.byModule[p.module] += n;
    }
    return c;
}

}  // namespace attnviz
