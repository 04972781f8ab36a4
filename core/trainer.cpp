// SPDX-License-Identifier: GPL-3.0-or-later
#include "trainer.h"

#include <algorithm>
#include <cmath>

#include "error.h"
#include "input_limits.h"
#include "network.h"
#include "thread_pool.h"

namespace attnviz {

const std::vector<std::string>& optimizerNames() {
    static const std::vector<std::string> n{"sgd", "adam"};
    return n;
}

const std::vector<std::string>& scheduleNames() {
    static const std::vector<std::string> n{"constant", "inverse-sqrt", "linear"};
    return n;
}

void TrainOptions::validate() const {
    auto known = [](const std::vector<std::string>& names, const std::string& name) {
        return std::find(names.begin(), names.end(), name) != names.end();
    };
    auto bad = [](const std::string& m) { throw Error(m); };
    if (steps < 0) bad("--steps must be at least 0");
    if (batchSize < 1 || batchSize > kMaxBatchSize)
        bad("--batch-size must be between 1 and " + std::to_string(kMaxBatchSize));
    if (!known(optimizerNames(), optimizer))
        bad("--optimizer must be " + alternatives(optimizerNames()));
    if (!(lr > 0) || !std::isfinite(lr) || lr > 10)
        bad("--lr must be a positive finite number of at most 10");
    if (!known(scheduleNames(), schedule))
        bad("--schedule must be " + alternatives(scheduleNames()));
    if (warmup < 0) bad("--warmup must be at least 0");
    if (!(dropout >= 0 && dropout < 1)) bad("--dropout must be in [0, 1)");
    if (!(labelSmoothing >= 0 && labelSmoothing < 1)) bad("--label-smoothing must be in [0, 1)");
    if (!(clip >= 0)) bad("--clip must be at least 0 (0 = off)");
    if (threads < 1 || threads > 256) bad("--threads must be between 1 and 256");
    if (!(weightDecay >= 0 && weightDecay <= 1))
        bad("--weight-decay must be a number between 0 and 1");
    if (!std::isfinite(clip)) bad("--clip must be finite (0 = off)");
    ImageAugment::parse(augment);
}

nlohmann::json TrainOptions::toJson() const {
    nlohmann::json j = {{"steps", steps},
                        {"batch_size", batchSize},
                        {"optimizer", optimizer},
                        {"lr", lr},
                        {"schedule", schedule},
                        {"warmup", warmup},
                        {"weight_decay", weightDecay},
                        {"betas", {beta1, beta2}},
                        {"adam_eps", eps},
                        {"dropout", dropout},
                        {"label_smoothing", labelSmoothing},
                        {"clip", clip},
                        {"shuffle", shuffle},
                        {"threads", threads},
                        {"seed", seed}};
    // Only when used, so checkpoints trained without it keep their metadata byte for byte.
    if (augment != "none") j["augment"] = augment;
    return j;
}

double learningRate(const TrainOptions& o, int step) {
    const double s = std::max(1, step);
    const double w = o.warmup;
    if (w > 0 && s < w) return o.lr * s / w;
    if (o.schedule == "inverse-sqrt") return o.lr * std::sqrt(std::max(w, 1.0) / s);
    if (o.schedule == "linear") {
        // From lr at the end of warm-up down to lr/span at the last step.
        const double span = std::max(1.0, o.steps - w + 1);
        return o.lr * std::max(0.0, (o.steps - s + 1) / span);
    }
    return o.lr;
}

std::vector<std::string> exampleKey(const Example& e) {
    std::vector<std::string> k = e.src;
    k.emplace_back("\t");
    k.insert(k.end(), e.tgt.begin(), e.tgt.end());
    return k;
}

bool isHeldOutExample(const Example& e) {
    uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a, 64 bits: stable across machines
    auto add = [&h](unsigned char c) {
        h ^= c;
        h *= 0x100000001b3ULL;
    };
    for (const auto& token : exampleKey(e)) {
        for (unsigned char c : token) add(c);
        add(0x1f);  // a separator no token contains
    }
    // FNV-1a's low bits are weak (the parity is the XOR of the bytes' low bits, fixed for
    // a copy task's src == tgt): murmur3's finaliser mixes every bit in first.
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h % kHeldOutShare == 0;
}

namespace {

class TaskSource : public ExampleSource {
public:
    TaskSource(std::shared_ptr<const Task> t, uint64_t seed, std::set<std::vector<std::string>> ex)
        : m_task(std::move(t)), m_rng(seed), m_exclude(std::move(ex)) {}
    Example next() override {
        for (;;) {
            Example e = m_task->sample(m_rng);
            if (isHeldOutExample(e)) continue;
            if (m_exclude.empty() || !m_exclude.count(exampleKey(e))) return e;
        }
    }

private:
    std::shared_ptr<const Task> m_task;
    Rng m_rng;
    std::set<std::vector<std::string>> m_exclude;
};

class DatasetSource : public ExampleSource {
public:
    DatasetSource(std::vector<Example> d, uint64_t seed, bool shuffle)
        : m_data(std::move(d)), m_rng(seed), m_shuffle(shuffle) {
        if (m_data.empty()) throw Error("no training examples");
        m_order.resize(m_data.size());
        for (size_t i = 0; i < m_order.size(); ++i) m_order[i] = i;
        m_pos = m_order.size();
    }
    Example next() override {
        if (m_pos == m_order.size()) {
            if (m_shuffle) {  // Fisher-Yates with our own generator (portable)
                for (size_t i = m_order.size() - 1; i > 0; --i)
                    std::swap(m_order[i], m_order[m_rng.below(i + 1)]);
            }
            m_pos = 0;
        }
        return m_data[m_order[m_pos++]];
    }

private:
    std::vector<Example> m_data;
    std::vector<size_t> m_order;
    size_t m_pos = 0;
    Rng m_rng;
    bool m_shuffle;
};

}  // namespace

std::unique_ptr<ExampleSource> taskSource(std::shared_ptr<const Task> task, uint64_t seed,
                                          std::set<std::vector<std::string>> exclude) {
    return std::make_unique<TaskSource>(std::move(task), seed, std::move(exclude));
}

std::unique_ptr<ExampleSource> datasetSource(std::vector<Example> data, uint64_t seed,
                                             bool shuffle) {
    return std::make_unique<DatasetSource>(std::move(data), seed, shuffle);
}

Batcher::Batcher(ExampleSource& source, int batchSize, bool bucketing, uint64_t seed)
    : m_source(source), m_batchSize(batchSize), m_bucketing(bucketing), m_rng(seed) {}

std::vector<Example> Batcher::next() {
    const size_t bs = static_cast<size_t>(m_batchSize);
    if (!m_bucketing) {
        std::vector<Example> b;
        for (size_t i = 0; i < bs; ++i) b.push_back(m_source.next());
        return b;
    }
    if (m_queue.empty()) {
        constexpr size_t kPool = 16;
        std::vector<Example> pool;
        for (size_t i = 0; i < kPool * bs; ++i) pool.push_back(m_source.next());
        std::stable_sort(pool.begin(), pool.end(), [](const Example& a, const Example& b) {
            return std::max(a.src.size(), a.tgt.size()) < std::max(b.src.size(), b.tgt.size());
        });
        for (size_t i = 0; i < kPool; ++i) {
            m_queue.emplace_back(std::make_move_iterator(pool.begin() + long(i * bs)),
                                 std::make_move_iterator(pool.begin() + long((i + 1) * bs)));
        }
        for (size_t i = m_queue.size() - 1; i > 0; --i)
            std::swap(m_queue[i], m_queue[m_rng.below(i + 1)]);
    }
    std::vector<Example> b = std::move(m_queue.back());
    m_queue.pop_back();
    return b;
}

Batch imageBatch(const Model& model, const std::vector<Example>& examples, size_t begin, size_t end,
                 const ImageAugment& augment, uint64_t runSeed, int step) {
    const ModelConfig& cfg = model.config();
    const size_t px = cfg.imageBytes();
    std::vector<uint8_t> pixels;
    std::vector<int> labels;
    pixels.reserve((end - begin) * px);
    for (size_t i = begin; i < end; ++i) {
        const Example& e = examples[i];
        if (e.pixels.size() != px || e.label < 0 || e.label >= cfg.classes)
            throw Error("image example " + std::to_string(i) + " is not a labelled " +
                        std::to_string(cfg.imageSize) + "×" + std::to_string(cfg.imageSize) +
                        (cfg.channels == 1 ? "" : "×" + std::to_string(cfg.channels)) +
                        " image of one of " + std::to_string(cfg.classes) + " classes");
        pixels.insert(pixels.end(), e.pixels.begin(), e.pixels.end());
        augment.apply(pixels.data() + (i - begin) * px, cfg.imageSize, cfg.channels,
                      augmentSeed(runSeed, step, i));
        labels.push_back(e.label);
    }
    return Batch::images(std::move(pixels), labels, cfg.positions());
}

// One thread's share of a step: its own network and gradient accumulators.
struct Replica {
    explicit Replica(const ModelConfig& cfg) : net(cfg) {}
    Network net;
    ParamStore grads;
    Mat logits, dlogits;
    CrossEntropy ce;
};

struct Trainer::Impl {
    Model& model;
    TrainOptions opt;
    std::vector<ParamInfo> info;
    std::vector<Tensor*> params;  // trainable, in name order
    std::vector<std::unique_ptr<Replica>> replicas;
    std::vector<std::vector<Tensor*>> grads;  // [replica][param]
    ParamStore m1, m2;                        // Adam moments
    std::vector<Tensor*> mom1, mom2;
    ThreadPool pool;
    ImageAugment augment;
    int steps = 0;

    Impl(Model& m, const TrainOptions& o) : model(m), opt(o), pool(o.threads) {
        opt.validate();
        augment = ImageAugment::parse(opt.augment);
        if (augment.any() && !model.config().isVision())
            throw Error("--augment applies to image models (arch \"vit\") only");
        info = model.parameterInfo();
        for (int r = 0; r < opt.threads; ++r) {
            auto rep = std::make_unique<Replica>(model.config());
            rep->grads = gradientStore(info);
            rep->net.bind(Bindings(model.params(), &rep->grads));
            rep->net.setKeepWeights(false);  // captures nothing: banded where it pays
            replicas.push_back(std::move(rep));
        }
        m1 = gradientStore(info);
        m2 = gradientStore(info);
        grads.resize(replicas.size());
        for (auto& [name, g] : replicas[0]->grads) {
            params.push_back(&model.params().at(name));
            mom1.push_back(&m1.at(name));
            mom2.push_back(&m2.at(name));
            for (size_t r = 0; r < replicas.size(); ++r)
                grads[r].push_back(&replicas[r]->grads.at(name));
        }
    }

    StepStats step(const std::vector<Example>& examples) {
        if (examples.empty()) throw Error("empty batch");
        const bool s2s = model.config().hasEncoder(), images = model.config().isVision();
        std::vector<std::vector<int>> src, tgt;
        StepStats st;
        for (const auto& e : examples) {
            if (images) {
                st.sourceTokens += model.config().positions();
                st.targetTokens += 1;
                continue;
            }
            if (s2s) src.push_back(model.srcVocab().ids(e.src));
            tgt.push_back(model.tgtVocab().ids(e.tgt));
            st.sourceTokens += static_cast<int>(e.src.size()) + (s2s ? 1 : 0);
            st.targetTokens += static_cast<int>(e.tgt.size()) + 1;
        }
        // Shard k gets sequences [k*B/K, (k+1)*B/K).
        const int B = static_cast<int>(examples.size());
        const int K = std::min<int>(static_cast<int>(replicas.size()), B);
        const float scale = 1.0f / static_cast<float>(st.targetTokens);
        const uint64_t dropSeed =
            opt.seed * 0x9E3779B97F4A7C15ULL + static_cast<uint64_t>(steps + 1);
        pool.run(K, [&](int k) {
            const int lo = k * B / K, hi = (k + 1) * B / K;
            auto part = [&](const std::vector<std::vector<int>>& v) {
                return v.empty() ? v
                                 : std::vector<std::vector<int>>(v.begin() + lo, v.begin() + hi);
            };
            const Batch b = images ? imageBatch(model, examples, size_t(lo), size_t(hi), augment,
                                                opt.seed, steps + 1)
                                   : Batch::make(part(src), part(tgt));
            if (b.Ts > Model::kMaxTokens || b.Tt > Model::kMaxTokens)
                throw Error("a training sequence exceeds the engine limit of " +
                            std::to_string(Model::kMaxTokens) + " positions");
            Replica& r = *replicas[size_t(k)];
            for (auto& [n, g] : r.grads) g.m.setZero();
            r.net.forward(b, Dropout{opt.dropout, dropSeed, lo}, r.logits);
            r.ce = crossEntropy(r.logits, b.tgtOut, opt.labelSmoothing, scale, &r.dlogits,
                                model.ignoredTarget());
            r.net.backward(b, r.dlogits);
        });
        double smoothed = 0, nll = 0;
        long correct = 0;
        for (int k = 0; k < K; ++k) {
            smoothed += replicas[size_t(k)]->ce.smoothed;
            nll += replicas[size_t(k)]->ce.nll;
            correct += replicas[size_t(k)]->ce.correct;
        }
        // Sum the shards' gradients into replica 0, tensor by tensor, in shard order.
        const int P = static_cast<int>(params.size());
        std::vector<double> sq(size_t(P), 0.0);
        pool.run(P, [&](int p) {
            Mat& g = grads[0][size_t(p)]->m;
            for (int k = 1; k < K; ++k) g += grads[size_t(k)][size_t(p)]->m;
            sq[size_t(p)] = static_cast<double>(g.squaredNorm());
        });
        double norm = 0;
        for (double x : sq) norm += x;
        norm = std::sqrt(norm);
        const double clipScale = (opt.clip > 0 && norm > opt.clip) ? opt.clip / norm : 1.0;
        ++steps;
        const double lr = learningRate(opt, steps);
        update(lr, clipScale);
        st.step = steps;
        st.loss = smoothed / st.targetTokens;
        st.nll = nll / st.targetTokens;
        st.accuracy = static_cast<double>(correct) / st.targetTokens;
        st.lr = lr;
        st.gradNorm = norm;
        return st;
    }

    void update(double lr, double clipScale) {
        const auto g0 = grads[0];
        const Scalar c = static_cast<Scalar>(clipScale);
        if (opt.optimizer == "sgd") {
            pool.run(static_cast<int>(params.size()), [&](int p) {
                params[size_t(p)]->m -= static_cast<Scalar>(lr) * c * g0[size_t(p)]->m;
            });
            return;
        }
        // Adam (Kingma & Ba) with bias correction, PyTorch's formulation; AdamW's decoupled
        // weight decay when weight_decay > 0.
        const double bc1 = 1.0 - std::pow(opt.beta1, steps), bc2 = 1.0 - std::pow(opt.beta2, steps);
        const Scalar b1 = static_cast<Scalar>(opt.beta1), b2 = static_cast<Scalar>(opt.beta2);
        const Scalar stepSize = static_cast<Scalar>(lr / bc1);
        const Scalar sqrtBc2 = static_cast<Scalar>(std::sqrt(bc2));
        const Scalar eps = static_cast<Scalar>(opt.eps);
        const Scalar decay = static_cast<Scalar>(1.0 - lr * opt.weightDecay);
        // Each tensor in tiles that stay in the L1 cache, instead of three passes over the
        // whole tensor (m, v, then w): the same element-wise operations in the same order,
        // so the same result to the bit.
        constexpr Eigen::Index kTile = 1024;
        using Arr = Eigen::Array<Scalar, Eigen::Dynamic, 1>;
        pool.run(static_cast<int>(params.size()), [&](int p) {
            Mat& W = params[size_t(p)]->m;
            const Mat& G = g0[size_t(p)]->m;
            Mat& M = mom1[size_t(p)]->m;
            Mat& V = mom2[size_t(p)]->m;
            const Eigen::Index n = W.size();
            for (Eigen::Index i0 = 0; i0 < n; i0 += kTile) {
                const Eigen::Index len = std::min(kTile, n - i0);
                Eigen::Map<Arr> w(W.data() + i0, len), m(M.data() + i0, len), v(V.data() + i0, len);
                const auto g = Eigen::Map<const Arr>(G.data() + i0, len) * c;
                if (opt.weightDecay > 0) w *= decay;
                m = b1 * m + (Scalar(1) - b1) * g;
                v = b2 * v + (Scalar(1) - b2) * g.square();
                w -= stepSize * m / (v.sqrt() / sqrtBc2 + eps);
            }
        });
    }
};

Trainer::Trainer(Model& model, const TrainOptions& opt) : d(std::make_unique<Impl>(model, opt)) {}
Trainer::~Trainer() = default;

StepStats Trainer::step(const std::vector<Example>& batch) {
    return d->step(batch);
}

int Trainer::stepsDone() const {
    return d->steps;
}

const ParamStore& Trainer::firstMoments() const {
    return d->m1;
}

const ParamStore& Trainer::secondMoments() const {
    return d->m2;
}

void Trainer::restore(int steps, const ParamStore& first, const ParamStore& second) {
    if (steps < 0) throw Error("a training state's step count is negative");
    for (const auto* given : {&first, &second}) {
        const ParamStore& own = given == &first ? d->m1 : d->m2;
        const char* what = given == &first ? "first" : "second";
        if (given->size() != own.size())
            throw Error(std::string("the optimiser's ") + what + " moments have " +
                        std::to_string(given->size()) + " tensors, the model " +
                        std::to_string(own.size()));
        for (const auto& [name, t] : own) {
            const auto it = given->find(name);
            if (it == given->end())
                throw Error(std::string("the optimiser's ") + what + " moments lack '" + name +
                            "'");
            if (it->second.shape != t.shape)
                throw Error(std::string("the optimiser's ") + what + " moment of '" + name +
                            "' has another shape than the parameter");
        }
    }
    for (auto& [name, t] : d->m1) t.m = first.at(name).m;
    for (auto& [name, t] : d->m2) t.m = second.at(name).m;
    d->steps = steps;
}

}  // namespace attnviz
