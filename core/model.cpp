// SPDX-License-Identifier: GPL-3.0-or-later
#include "model.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string_view>
#include <unordered_set>

#include "error.h"
#include "input_limits.h"
#include "layers.h"
#include "rng.h"
#include "safetensors.h"
#include "utf8.h"

namespace attnviz {
namespace {

using nlohmann::json;

}  // namespace

struct Model::Impl {
    ModelConfig cfg;
    Vocab src, tgt;
    Tokenizer tokenizer;
    TrainingInfo training;
    std::vector<std::string> classes;  // vit only
    std::unique_ptr<ParamStore> params = std::make_unique<ParamStore>();
    std::unique_ptr<Network> net;
    bool banded = true;  // setBanded

    std::vector<ParamInfo> parameterInfo() const {
        return net->parameterInfo(src.size(), tgt.size());
    }
    void bind() { net->bind(Bindings(*params)); }

    void checkBatch(const Batch& b) const {
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
    d->net = std::make_unique<Network>(d->cfg);
}

Model::~Model() = default;
Model::Model(Model&&) noexcept = default;
Model& Model::operator=(Model&&) noexcept = default;

Model Model::clone() const {
    Model m(d->cfg, d->src, d->tgt, d->tokenizer);
    *m.d->params = *d->params;
    m.d->training = d->training;
    m.d->classes = d->classes;
    m.d->bind();
    return m;
}

Model Model::initialize(ModelConfig config, Vocab src, Vocab tgt, Tokenizer tokenizer,
                        uint64_t seed) {
    Model m(std::move(config), std::move(src), std::move(tgt), tokenizer);
    const auto info = m.parameterInfo();
    const int64_t total = countParameters(info).total;  // shapes only: nothing allocated yet
    if (uint64_t(total) > kMaxModelParameters) {
        throw Error("this model has " + std::to_string(total / 1000000) +
                    " million parameters with its vocabularies (" +
                    std::to_string(m.srcVocab().size()) + " and " +
                    std::to_string(m.tgtVocab().size()) + " tokens; needs " +
                    gigabytes(4.0 * double(total)) + "); the limit is " +
                    std::to_string(kMaxModelParameters / 1000000) + " million");
    }
    *m.d->params = initializeParameters(info, seed);
    m.d->bind();
    return m;
}

namespace {

// A vit checkpoint's class names: `count` distinct, non-empty, valid UTF-8 strings.
std::vector<std::string> checkClassNames(const json& j, int count) {
    if (!j.is_array() || j.size() != size_t(count))
        throw Error("checkpoint classes must be a JSON array of " + std::to_string(count) +
                    " names (the configuration's 'classes')");
    std::vector<std::string> names;
    std::unordered_set<std::string_view> seen;  // linear: 65,536 names are checked at once
    names.reserve(j.size());
    seen.reserve(j.size());
    for (const auto& x : j) {
        bool ok =
            x.is_string() && !x.get<std::string>().empty() && x.get<std::string>().size() <= 256;
        if (ok) {
            try {
                decodeUtf8(x.get<std::string>());
            } catch (const Error&) {
                ok = false;
            }
        }
        if (!ok)
            throw Error(
                "checkpoint classes: every name must be a non-empty string of valid UTF-8 "
                "of at most 256 bytes");
        const std::string& name = x.get_ref<const std::string&>();
        if (!seen.insert(name).second)
            throw Error("checkpoint classes: the name '" + excerpt(name) + "' repeats");
        names.push_back(name);
    }
    return names;
}

}  // namespace

Model Model::initializeImages(ModelConfig config, std::vector<std::string> classes, uint64_t seed) {
    if (!config.isVision()) throw Error("initializeImages needs an image model (arch \"vit\")");
    checkClassNames(json(classes), config.classes);
    Model m(std::move(config), Vocab(), Vocab(), Tokenizer(true));
    m.d->classes = std::move(classes);
    *m.d->params = initializeParameters(m.parameterInfo(), seed);
    m.d->bind();
    return m;
}

Model Model::fromHeader(const std::map<std::string, std::string>& metadata,
                        const std::map<std::string, std::vector<int64_t>>& shapes) {
    auto meta = [&](const std::string& key) -> const std::string& {
        auto it = metadata.find(key);
        if (it == metadata.end())
            throw Error("not an attnviz checkpoint: metadata '" + key + "' is missing");
        return it->second;
    };
    if (meta("format") != "attnviz")
        throw Error("not an attnviz checkpoint: format is '" + excerpt(meta("format")) + "'");
    if (meta("format_version") != "1") {
        throw Error("unsupported checkpoint format_version '" + excerpt(meta("format_version")) +
                    "' (this version reads 1)");
    }
    ModelConfig cfg;
    try {
        cfg = ModelConfig::fromJson(parseJson(meta("config"), "the text"));
    } catch (const Error& e) {
        throw Error(std::string("checkpoint config: ") + e.what());
    }
    if (cfg.isVision()) return fromVisionHeader(std::move(cfg), metadata, shapes);
    auto vocab = [&](const std::string& key) {
        const json j = parseJson(meta(key), "checkpoint " + key, SafeTensorsFile::kMaxHeaderBytes);
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
    Tokenizer tokenizer;
    try {
        // The header bounds it: a SentencePiece model of kMaxSentencePieces pieces is larger
        // than a configuration.
        tokenizer = Tokenizer::fromJson(
            parseJson(meta("tokenizer"), "tokenizer", SafeTensorsFile::kMaxHeaderBytes));
    } catch (const Error& e) {
        throw Error(std::string("checkpoint tokenizer: ") + e.what());
    }
    if (tokenizer.kind() == Tokenizer::Kind::SentencePiece) {
        // Ids are the SentencePiece model's: a vocabulary that differs would map every piece
        // it lacks to <unk>, silently.
        const auto pieces = tokenizer.pieces();
        for (const auto& [key, v] : {std::pair{"src_vocab", &src}, std::pair{"tgt_vocab", &tgt}}) {
            const auto& tokens = v->tokens();
            if (tokens == pieces) continue;
            size_t i = 0;
            while (i < tokens.size() && i < pieces.size() && tokens[i] == pieces[i]) ++i;
            throw Error(std::string("checkpoint ") + key + " differs from the SentencePiece " +
                        "model's pieces at id " + std::to_string(i) + " (" +
                        std::to_string(tokens.size()) + " tokens, " +
                        std::to_string(pieces.size()) + " pieces)");
        }
    }
    Model m(std::move(cfg), std::move(src), std::move(tgt), tokenizer);
    m.checkHeaderRest(metadata, shapes);
    return m;
}

Model Model::fromVisionHeader(ModelConfig cfg, const std::map<std::string, std::string>& metadata,
                              const std::map<std::string, std::vector<int64_t>>& shapes) {
    for (const char* key : {"src_vocab", "tgt_vocab", "tokenizer"})
        if (metadata.count(key))
            throw Error(std::string("an image model (arch \"vit\") has no '") + key + "' metadata");
    auto it = metadata.find("classes");
    if (it == metadata.end())
        throw Error("not an attnviz checkpoint: metadata 'classes' is missing (arch \"vit\")");
    std::vector<std::string> classes = checkClassNames(
        parseJson(it->second, "checkpoint classes", SafeTensorsFile::kMaxHeaderBytes), cfg.classes);
    Model m(std::move(cfg), Vocab(), Vocab(), Tokenizer(true));
    m.d->classes = std::move(classes);
    m.checkHeaderRest(metadata, shapes);
    return m;
}

void Model::checkHeaderRest(const std::map<std::string, std::string>& metadata,
                            const std::map<std::string, std::vector<int64_t>>& shapes) {
    Model& m = *this;
    if (auto it = metadata.find("training"); it != metadata.end()) {
        m.d->training = TrainingInfo::fromJson(
            parseJson(it->second, "checkpoint training metadata", SafeTensorsFile::kMaxHeaderBytes),
            "checkpoint training metadata");
    }
    const auto expected = m.parameterInfo();
    std::map<std::string, const ParamInfo*> byName;
    for (const auto& p : expected) byName[p.name] = &p;
    for (const auto& [name, shape] : shapes) {
        if (!byName.count(name))
            throw Error("unexpected tensor '" + excerpt(name) + "' for this configuration");
    }
    for (const auto& p : expected) {
        auto it = shapes.find(p.name);
        if (it == shapes.end()) throw Error("missing tensor '" + p.name + "'");
        if (it->second != p.shape) {
            throw Error("tensor '" + p.name + "' has shape " + shapeToString(it->second) +
                        " but the configuration needs " + shapeToString(p.shape));
        }
    }
}

void Model::setParameters(const std::map<std::string, Tensor>& tensors) {
    for (const auto& p : parameterInfo()) {
        const Tensor& t = tensors.at(p.name);
        for (int64_t i = 0; i < t.numel(); ++i) {
            if (!std::isfinite(t.data()[i]))
                throw Error("tensor '" + p.name + "' contains NaN or infinity");
        }
        d->params->emplace(p.name, t);
    }
    d->bind();
}

Model Model::fromSafeTensors(const SafeTensorsFile& f) {
    std::map<std::string, std::vector<int64_t>> shapes;
    for (const auto& [name, t] : f.tensors) shapes[name] = t.shape;
    Model m = fromHeader(f.metadata, shapes);
    m.setParameters(f.tensors);
    return m;
}

Model Model::load(const std::string& path) {
    // The header is checked in full (configuration, vocabularies, tokenizer, tensor names and
    // shapes) before the data is read: a bad checkpoint of gigabytes is refused at once.
    std::optional<Model> m;
    const SafeTensorsFile f =
        SafeTensorsFile::read(path, [&](const std::map<std::string, std::string>& metadata,
                                        const std::map<std::string, std::vector<int64_t>>& shapes) {
            m.emplace(fromHeader(metadata, shapes));
        });
    try {
        m->setParameters(f.tensors);
    } catch (const Error& e) {
        throw Error(path + ": " + e.what());
    }
    return std::move(*m);
}

ModelConfig Model::readConfig(const std::string& path) {
    struct HeaderRead {};  // stops the read after the header: the data is not needed
    std::optional<ModelConfig> cfg;
    try {
        SafeTensorsFile::read(path, [&](const std::map<std::string, std::string>& metadata,
                                        const std::map<std::string, std::vector<int64_t>>& shapes) {
            cfg.emplace(fromHeader(metadata, shapes).config());
            throw HeaderRead{};
        });
    } catch (const HeaderRead&) {
    }
    if (!cfg) throw Error(path + ": no configuration in the header");
    return *cfg;
}

SafeTensorsFile Model::toSafeTensors() const {
    SafeTensorsFile f;
    f.tensors = *d->params;
    f.metadata["format"] = "attnviz";
    f.metadata["format_version"] = "1";
    f.metadata["config"] = d->cfg.toJson().dump();
    if (d->cfg.isVision()) {
        f.metadata["classes"] = json(d->classes).dump();
    } else {
        f.metadata["src_vocab"] = json(d->src.tokens()).dump();
        f.metadata["tgt_vocab"] = json(d->tgt.tokens()).dump();
        f.metadata["tokenizer"] = d->tokenizer.toJson().dump();
    }
    if (d->training.present()) f.metadata["training"] = d->training.raw().dump();
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
const std::vector<std::string>& Model::classNames() const {
    return d->classes;
}
int Model::ignoredTarget() const {
    return d->cfg.isVision() ? -1 : Vocab::kPad;
}
const TrainingInfo& Model::training() const {
    return d->training;
}
void Model::setTraining(json training) {
    d->training = TrainingInfo::fromJson(std::move(training), "training metadata");
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

void Model::reconfigure(const ModelConfig& requested) {
    // The same parsing and validation as a configuration file (e.g. sigma > 0).
    const ModelConfig config = ModelConfig::fromJson(requested.toJson());
    auto net = std::make_unique<Network>(config);
    const auto now = parameterInfo();
    const auto next = net->parameterInfo(d->src.size(), d->tgt.size());
    bool same = now.size() == next.size();
    for (size_t i = 0; same && i < now.size(); ++i)
        same = now[i].name == next[i].name && now[i].shape == next[i].shape;
    if (!same) throw Error("the new configuration needs different tensors than this checkpoint");
    net->bind(Bindings(*d->params));
    d->cfg = config;
    d->net = std::move(net);
}

bool Model::usesMaxLen(BlockKind kind) const {
    return d->net->usesMaxLen(kind);
}

int Model::maxSourceTokens() const {
    const bool bound = usesMaxLen(BlockKind::EncoderSelf) || usesMaxLen(BlockKind::Cross);
    return (bound ? std::min(d->cfg.maxLen, kMaxTokens) : kMaxTokens) - 1;
}

int Model::maxTargetTokens() const {
    const bool bound = usesMaxLen(BlockKind::DecoderSelf) || usesMaxLen(BlockKind::Cross);
    return (bound ? std::min(d->cfg.maxLen, kMaxTokens) : kMaxTokens) - 1;
}

void Model::setHeadGates(const std::vector<std::vector<Scalar>>& gates) {
    const auto blocks = d->net->blocks();
    if (!gates.empty() && gates.size() != blocks.size())
        throw Error("head gates for " + std::to_string(gates.size()) +
                    " blocks, but the model has " + std::to_string(blocks.size()));
    for (size_t k = 0; k < blocks.size(); ++k)
        blocks[k]->setHeadGates(gates.empty() ? std::vector<Scalar>{} : gates[k]);
}

void Model::setBanded(bool banded) {
    d->banded = banded;
}

size_t Model::attentionBytes() const {
    return d->net->attentionBytes();
}

ForwardResult Model::forward(const Batch& batch, bool capture) {
    d->checkBatch(batch);
    ForwardResult r;
    d->net->setKeepWeights(capture || !d->banded);
    d->net->forward(batch, Dropout{}, r.logits);
    const CrossEntropy ce =
        crossEntropy(r.logits, batch.tgtOut, 0.0f, 1.0f, nullptr, ignoredTarget());
    r.lossSum = ce.nll;
    r.tokens = ce.tokens;
    r.correct = ce.correct;
    if (capture) r.blocks = d->net->capture(batch);
    return r;
}

std::vector<int> Model::greedyDecode(const std::vector<int>& sourceIds, int maxTokens) {
    return greedyDecode(std::vector<std::vector<int>>{sourceIds}, maxTokens).front();
}

std::vector<std::vector<int>> Model::greedyDecode(const std::vector<std::vector<int>>& sources,
                                                  int maxTokens) {
    DecodeOptions o;
    o.maxTokens = maxTokens;
    return greedyDecode(sources, o);
}

std::vector<std::vector<int>> Model::greedyDecode(const std::vector<std::vector<int>>& sources,
                                                  const DecodeOptions& opt) {
    if (!d->cfg.hasEncoder()) throw Error("greedy decoding needs a seq2seq model");
    d->net->setKeepWeights(!d->banded);  // nothing is captured: banded where it pays
    const size_t n = sources.size();
    std::vector<int> limit(n);
    int longest = 0;
    for (size_t i = 0; i < n; ++i) {
        int m = opt.maxTokens >= 0 ? opt.maxTokens : 2 * static_cast<int>(sources[i].size()) + 10;
        limit[i] = std::min(m, maxTargetTokens());
        longest = std::max(longest, limit[i]);
    }
    std::vector<std::vector<int>> out(n);
    std::vector<bool> done(n, false);
    Batch b = Batch::make(sources, out);
    d->checkBatch(b);
    d->net->encode(b, Dropout{});
    if (opt.incremental) d->net->beginDecoding(longest + 1);
    std::vector<int> tokens(n, Vocab::kBos);  // incremental: each sequence's token at step t
    Mat logits;
    // Step t: every unfinished sequence has t tokens and row t predicts the next. Finished
    // sequences stay in the batch (their rows are ignored) so the memory of encode() still
    // matches. Incremental: only position t goes through the decoder (keys and values of
    // earlier positions are cached); else the whole prefix does, and row t is read.
    for (int t = 0; t < longest; ++t) {
        if (opt.cancel && opt.cancel->load(std::memory_order_relaxed)) throw Cancelled();
        std::vector<std::vector<int>> prefixes(n);
        bool any = false;
        for (size_t i = 0; i < n; ++i) {
            if (!done[i] && static_cast<int>(out[i].size()) >= limit[i]) done[i] = true;
            any = any || !done[i];
        }
        if (!any) break;
        Eigen::Index rowOf0 = t, stride = 0;
        if (opt.incremental) {
            d->net->decodeStep(tokens, t, logits);
            rowOf0 = 0, stride = 1;
        } else {
            for (size_t i = 0; i < n; ++i) {
                prefixes[i] = out[i];
                prefixes[i].resize(size_t(t), Vocab::kPad);
            }
            const Batch step = Batch::make(sources, prefixes);
            d->net->decode(step, Dropout{}, logits);
            stride = step.Tt;
        }
        for (size_t i = 0; i < n; ++i) {
            if (done[i]) {
                tokens[i] = Vocab::kPad;
                continue;
            }
            auto row = logits.row(static_cast<Eigen::Index>(i) * stride + rowOf0);
            int best = -1;
            for (int v = 0; v < row.size(); ++v) {
                if (v == Vocab::kPad || v == Vocab::kBos) continue;
                if (v == Vocab::kEos && !opt.stopAtEos) continue;
                if (best < 0 || row(v) > row(best)) best = v;
            }
            if (best == Vocab::kEos) {
                done[i] = true;
                tokens[i] = Vocab::kPad;
            } else {
                out[i].push_back(best);
                tokens[i] = best;
            }
        }
    }
    return out;
}

namespace {

// Weights that overflow (a checkpoint scaled by 1e30 loads, every value finite) give NaN
// attention: say so rather than draw empty panels or write null.
void checkFinite(const std::vector<CapturedBlock>& blocks) {
    for (const auto& blk : blocks) {
        for (size_t h = 0; h < blk.weights.size(); ++h) {
            if (!blk.weights[h].allFinite()) {
                throw Error(
                    "this model's weights give non-finite attention (NaN or infinity) "
                    "in " +
                    blk.name + ", head " + std::to_string(h) +
                    ": the checkpoint's values are too large to compute with");
            }
        }
    }
}

}  // namespace

std::vector<std::string> Model::inputTokens(std::string_view source) const {
    if (d->cfg.isVision()) throw Error("an image model (arch \"vit\") takes an image, not a text");
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
    return tokens;
}

std::vector<std::string> Model::targetTokens(std::optional<std::string_view> target) const {
    const auto tt = target ? d->tokenizer.tokenize(*target) : std::vector<std::string>();
    if (static_cast<int>(tt.size()) > maxTargetTokens()) {
        throw Error("the target has " + std::to_string(tt.size()) +
                    " tokens; this model accepts at most " + std::to_string(maxTargetTokens()));
    }
    return tt;
}

void Model::checkInput(std::string_view source, std::optional<std::string_view> target) const {
    (void)inputTokens(source);
    if (target && !d->cfg.hasEncoder())
        throw Error("a decoder-only model takes one text, not a target");
    (void)targetTokens(target);
}

std::vector<int> Model::setSource(Analysis& a, std::string_view source,
                                  const std::vector<std::string>& tokens) const {
    a.sourceText = std::string(source);
    std::vector<int> ids = d->src.ids(tokens);
    a.sourceTokens = tokens;
    a.sourceTokens.push_back("<eos>");
    a.sourceIds = ids;
    a.sourceIds.push_back(Vocab::kEos);
    return ids;
}

Analysis Model::analyzeSource(std::string_view source) {
    if (!d->cfg.hasEncoder()) return analyze(source);  // no decoding: whole at once
    Analysis a;
    const std::vector<int> srcIds = setSource(a, source, inputTokens(source));
    // The batch analyze() runs, less its target: the encoder never reads the target, so its
    // weights are those of the whole pass, bit for bit.
    const Batch b = Batch::make({srcIds}, {std::vector<int>()});
    d->checkBatch(b);
    d->net->setKeepWeights(true);
    d->net->encode(b, Dropout{});
    a.blocks = d->net->captureEncoder(b);
    checkFinite(a.blocks);
    a.unknownSource = label(a.sourceTokens, a.sourceIds, a.sourceLabels, a.sourceWordStart);
    return a;
}

Analysis Model::analyze(std::string_view source, std::optional<std::string_view> target,
                        const std::atomic<bool>* cancel) {
    Analysis a;
    const bool seq2seq = d->cfg.hasEncoder();
    const auto tokens = inputTokens(source);
    std::vector<int> srcIds, tgtIds;
    if (seq2seq) {
        srcIds = setSource(a, source, tokens);
        const auto tt = targetTokens(target);
        if (!tt.empty()) {
            a.targetText = std::string(*target);
            tgtIds = d->tgt.ids(tt);
            a.targetTokens = tt;
        } else {
            DecodeOptions o;
            o.cancel = cancel;
            tgtIds = greedyDecode({srcIds}, o).front();
            for (int id : tgtIds) a.targetTokens.push_back(d->tgt.token(id));
            a.targetText = d->tokenizer.detokenize(a.targetTokens);
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
    checkFinite(a.blocks);
    // Labels for people: decoded targets are the model's own tokens, never unknown.
    a.unknownSource = label(a.sourceTokens, a.sourceIds, a.sourceLabels, a.sourceWordStart);
    const int unknownTarget = label(a.targetTokens, a.targetIds, a.targetLabels, a.targetWordStart);
    a.unknownTarget = a.decoded ? 0 : unknownTarget;
    return a;
}

ImageAnalysis Model::analyzeImage(const std::vector<uint8_t>& pixels, std::optional<int> label) {
    const ModelConfig& cfg = d->cfg;
    if (!cfg.isVision()) throw Error("a text model takes a text, not an image");
    if (pixels.size() != cfg.imageBytes())
        throw Error("the image has " + std::to_string(pixels.size()) +
                    " values; this model takes " + std::to_string(cfg.imageSize) + "×" +
                    std::to_string(cfg.imageSize) +
                    (cfg.channels == 1 ? std::string(" grayscale pixels")
                                       : " pixels of " + std::to_string(cfg.channels) +
                                             " values (" + std::to_string(cfg.imageBytes()) + ")"));
    if (label && (*label < 0 || *label >= cfg.classes))
        throw Error("label " + std::to_string(*label) + " is not a class of this model (0 … " +
                    std::to_string(cfg.classes - 1) + ")");
    ImageAnalysis a;
    a.pixels = pixels;
    a.label = label;
    ForwardResult r = forward(Batch::images(pixels, {label.value_or(0)}, cfg.positions()), true);
    const auto row = r.logits.row(0);
    const double mx = double(row.maxCoeff());
    double sum = 0;
    for (int k = 0; k < cfg.classes; ++k) {
        a.logits.push_back(double(row(k)));
        a.probabilities.push_back(std::exp(double(row(k)) - mx));
        sum += a.probabilities.back();
        if (row(k) > row(a.predicted)) a.predicted = k;
    }
    for (double& p : a.probabilities) p /= sum;
    if (label) a.loss = r.loss();
    a.blocks = std::move(r.blocks);
    for (const auto& blk : a.blocks)
        for (size_t h = 0; h < blk.weights.size(); ++h)
            if (!blk.weights[h].allFinite())
                throw Error("this model's weights give non-finite attention (NaN or infinity) in " +
                            blk.name + ", head " + std::to_string(h));
    return a;
}

int Model::label(const std::vector<std::string>& tokens, const std::vector<int>& ids,
                 std::vector<std::string>& labels, std::vector<bool>& starts) const {
    labels = d->tokenizer.display(tokens);
    starts.assign(tokens.size(), true);
    int unknown = 0;
    for (size_t i = 0; i < tokens.size(); ++i) {
        starts[i] = d->tokenizer.startsWord(tokens[i]);
        if (i < ids.size() && ids[i] == Vocab::kUnk && tokens[i] != "<unk>") {
            labels[i] += "\u2047";  // ⁇
            ++unknown;
        }
    }
    return unknown;
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
