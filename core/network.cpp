// SPDX-License-Identifier: GPL-3.0-or-later
#include "network.h"

#include <algorithm>
#include <cmath>
#include <mutex>

#include "conv_stem.h"
#include "error.h"
#include "gemm.h"
#include "rng.h"
#include "tokenizer.h"

namespace attnviz {
namespace {

// x [N, d] -> y [N, d] = linear2(ReLU(linear1(x))); keeps the hidden layer [N, d_ff].
struct Ffn {
    Param w1, b1, w2, b2;
    Mat hidden, dhidden;

    void bind(const Bindings& b, const std::string& p) {
        w1 = b.find(p + ".linear1.weight");
        b1 = b.find(p + ".linear1.bias");
        w2 = b.find(p + ".linear2.weight");
        b2 = b.find(p + ".linear2.bias");
    }
    void forward(const Mat& x, Mat& y) {
        linear(x, w1, b1, hidden);
        hidden = hidden.cwiseMax(Scalar(0));
        linear(hidden, w2, b2, y);
    }
    // dy [N, d] -> dx [N, d] (assigned)
    void backward(const Mat& x, const Mat& dy, Mat& dx) {
        linearBackward(hidden, dy, w2, b2, &dhidden);
        dhidden = (hidden.array() > Scalar(0)).select(dhidden, Scalar(0));
        linearBackward(x, dhidden, w1, b1, &dx);
    }
};

// One residual sub-layer around F (attention or FFN): pre-norm x += drop(F(LN(x))),
// post-norm x = LN(x + drop(F(x))). Keeps F's input and the dropout mask.
struct Sublayer {
    LayerNorm ln;
    int id = 0;     // which dropout stream
    Mat in, out;    // F's input and output [N, d]
    Mat mask;       // dropout multipliers [N, d] (empty: no dropout)
    Mat dIn, dOut;  // gradients of F's input and output
};

struct EncoderLayer {
    std::unique_ptr<AttentionBlock> self;
    Sublayer attn, ff;
    Ffn ffn;
};

struct DecoderLayer {
    std::unique_ptr<AttentionBlock> self, cross;  // cross may be null
    Sublayer selfSub, crossSub, ff;
    Ffn ffn;
};

uint64_t mix(uint64_t a, uint64_t b) {
    Rng r(a ^ (b + 0x9E3779B97F4A7C15ULL + (a << 6) + (a >> 2)));
    return r.next();
}

// Dropout multipliers for rows of B sequences of T positions: 0 with probability `rate`,
// else 1 / (1 - rate). mask [B*T, d].
void dropoutMask(const Dropout& drop, int stream, int B, int T, Eigen::Index d, Mat& mask) {
    mask.resize(static_cast<Eigen::Index>(B) * T, d);
    const Scalar keep = Scalar(1) / (Scalar(1) - drop.rate);
    const uint64_t threshold = static_cast<uint64_t>(static_cast<double>(drop.rate) * 0x1.0p32);
    for (int b = 0; b < B; ++b) {
        Rng rng(mix(mix(drop.seed, static_cast<uint64_t>(stream)),
                    static_cast<uint64_t>(drop.firstSequence + b)));
        Scalar* m = mask.row(static_cast<Eigen::Index>(b) * T).data();
        const Eigen::Index n = static_cast<Eigen::Index>(T) * d;
        for (Eigen::Index i = 0; i < n; i += 2) {
            const uint64_t r = rng.next();
            m[i] = (r & 0xFFFFFFFFULL) < threshold ? Scalar(0) : keep;
            if (i + 1 < n) m[i + 1] = (r >> 32) < threshold ? Scalar(0) : keep;
        }
    }
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

Batch Batch::images(std::vector<uint8_t> pixels, const std::vector<int>& labels, int positions) {
    Batch b;
    b.B = static_cast<int>(labels.size());
    b.Ts = positions;
    b.Tt = 1;
    b.srcLen.assign(labels.size(), positions);
    b.tgtOut = labels;
    b.tgtLen.assign(labels.size(), 1);
    b.pixels = std::move(pixels);
    return b;
}

ParamStore initializeParameters(const std::vector<ParamInfo>& params, uint64_t seed) {
    Rng rng(seed);
    ParamStore store;
    for (const auto& p : params) {
        Tensor t(p.shape);
        Scalar* x = t.data();
        for (int64_t i = 0; i < t.numel(); ++i) {
            switch (p.init.kind) {
                case Init::Zeros:
                    x[i] = 0;
                    break;
                case Init::Ones:
                    x[i] = 1;
                    break;
                case Init::Uniform:
                    x[i] = static_cast<float>(rng.uniform(-p.init.scale, p.init.scale));
                    break;
                case Init::Normal:
                    x[i] = static_cast<float>(rng.normal() * p.init.scale);
                    break;
            }
        }
        if (p.role == "embedding") t.m.row(Vocab::kPad).setZero();
        store.emplace(p.name, std::move(t));
    }
    return store;
}

ParamStore gradientStore(const std::vector<ParamInfo>& params) {
    ParamStore g;
    for (const auto& p : params)
        if (p.trainable) g.emplace(p.name, Tensor(p.shape));
    return g;
}

int Batch::targetTokens() const {
    int n = 0;
    for (int t : tgtLen) n += t;
    return n;
}

struct Network::Impl {
    ModelConfig cfg;
    std::vector<EncoderLayer> enc;
    std::vector<DecoderLayer> dec;
    LayerNorm encNorm, decNorm;
    Param srcEmbed, tgtEmbed, genW, genB;
    bool pre = true;
    Mat pe;                 // positional encodings [>= T, d]
    Mat x, mem, y, yn;      // encoder stream, memory, decoder stream, final-normed
    Mat srcMask, tgtMask;   // embedding dropout
    Mat dx, dmem, dy, dyn;  // their gradients
    Dropout drop;
    int B = 0, Ts = 0, Tt = 0;   // of the last forward
    std::vector<int> srcLen;     // of the last encode
    Mat yStep, inStep, outStep;  // incremental decoding: one position [B, d]
    // vit: patch embedding, class token, learned positions, classifier
    Param patchW, patchB, clsToken, posEmbed, headW, headB;
    Mat patches, patchOut;  // flattened patches [B*Np, P²·K], their embeddings [B*Np, d]
    ConvStem stem;          // vit with a stem (core/conv_stem.h)
    Mat pooled, dpooled;    // [B, d]

    const Mat& positions(int T) {
        if (pe.rows() < T) pe = positionalEncoding(std::max(T, 64), cfg.dModel);
        return pe;
    }

    void maybeDrop(Sublayer& s, int T, Mat& v) {
        if (drop.rate <= 0) {
            s.mask.resize(0, 0);
            return;
        }
        dropoutMask(drop, s.id, B, T, v.cols(), s.mask);
        v.array() *= s.mask.array();
    }

    // x += drop(F(LN(x))) or x = LN(x + drop(F(x))); f(in, out) computes F.
    template <class F>
    void residualForward(Sublayer& s, Mat& x, int T, F&& f) {
        if (pre) {
            s.ln.forward(x, s.in);
            f(s.in, s.out);
            maybeDrop(s, T, s.out);
            x += s.out;
        } else {
            s.in = x;
            f(s.in, s.out);
            maybeDrop(s, T, s.out);
            s.out += s.in;
            s.ln.forward(s.out, x);
        }
    }

    // dx: gradient of the sub-layer's output, becomes that of its input. g(dOut, dIn)
    // computes dIn = dF/din applied to dOut (assigned) and any other input's gradient.
    template <class G>
    void residualBackward(Sublayer& s, Mat& dx, G&& g) {
        if (pre) {
            // Without dropout F's output gradient is dx itself, which g only reads: no copy.
            // With dropout the product is written into dOut's buffer (no temporary).
            if (s.mask.size()) s.dOut = dx.cwiseProduct(s.mask);
            g(s.mask.size() ? s.dOut : dx, s.dIn);
            s.ln.backward(s.dIn, dx, true);
        } else {
            s.ln.backward(dx, s.dOut, false);  // dOut = dLoss/d(x + drop(F(x)))
            dx = s.dOut;
            if (s.mask.size()) s.dOut.array() *= s.mask.array();
            g(s.dOut, s.dIn);
            dx += s.dIn;
        }
    }

    void build() {
        pre = cfg.norm == Norm::Pre;
        int stream = 2;  // 0 and 1: source and target embeddings
        if (cfg.hasEncoder() || cfg.isVision()) {
            for (int i = 0; i < cfg.encLayers; ++i) {
                EncoderLayer l;
                l.self = std::make_unique<AttentionBlock>(
                    "encoder.layers." + std::to_string(i) + ".self_attn.", BlockKind::EncoderSelf,
                    i, cfg.encoderSelf, cfg.dModel, cfg.maxLen, cfg.bias,
                    cfg.isVision() ? cfg.gridSize() : 0, cfg.isVision() && cfg.pool == Pool::Cls);
                l.attn.id = stream++;
                l.ff.id = stream++;
                enc.push_back(std::move(l));
            }
        }
        for (int i = 0; i < cfg.decLayers; ++i) {
            DecoderLayer l;
            const std::string p = "decoder.layers." + std::to_string(i);
            l.self =
                std::make_unique<AttentionBlock>(p + ".self_attn.", BlockKind::DecoderSelf, i,
                                                 cfg.decoderSelf, cfg.dModel, cfg.maxLen, cfg.bias);
            if (cfg.hasCross(i)) {
                l.cross =
                    std::make_unique<AttentionBlock>(p + ".cross_attn.", BlockKind::Cross, i,
                                                     cfg.cross, cfg.dModel, cfg.maxLen, cfg.bias);
            }
            l.selfSub.id = stream++;
            l.crossSub.id = stream++;
            l.ff.id = stream++;
            dec.push_back(std::move(l));
        }
    }

    void embedDropped(const Param& table, const std::vector<int>& ids, int T, int stream, Mat& out,
                      Mat& mask) {
        embed(*table.value, ids, T, positions(T), out);
        if (drop.rate > 0) {
            dropoutMask(drop, stream, B, T, out.cols(), mask);
            out.array() *= mask.array();
        } else {
            mask.resize(0, 0);
        }
    }

    void encode(const Batch& batch) {
        embedDropped(srcEmbed, batch.src, batch.Ts, 0, x, srcMask);
        encodeLayers(batch);
    }

    // The encoder's layers and final norm on the embedded input x [B*Ts, d] -> mem.
    void encodeLayers(const Batch& batch) {
        const AttentionMask mask{batch.srcLen, false};
        for (auto& l : enc) {
            residualForward(l.attn, x, batch.Ts, [&](const Mat& in, Mat& out) {
                l.self->forward(in, in, batch.B, batch.Ts, batch.Ts, mask, out);
            });
            residualForward(l.ff, x, batch.Ts,
                            [&](const Mat& in, Mat& out) { l.ffn.forward(in, out); });
        }
        if (pre) {
            encNorm.forward(x, mem);
        } else {
            mem = x;
        }
    }

    // vit: pixels [B, S, S, K] -> patches [B*Np, P²·K] (patch n = r·G + c, value k of its
    // pixel (y, x) at (y·P + x)·K + k), scaled to p / 127.5 − 1 (or, with a stem, its last
    // map: core/conv_stem.h); x [B*N, d] = (class token,) patch embeddings plus the learned
    // positions, dropped out as an embedding. docs/model-spec.md 3.10.
    void embedImages(const Batch& batch) {
        const int P = cfg.patch, G = cfg.gridSize(), S = cfg.imageSize, Np = cfg.patchCount();
        const int K = cfg.channels, N = cfg.positions(), first = N - Np;
        if (batch.pixels.size() != size_t(B) * cfg.imageBytes() || batch.Ts != N)
            throw Error("the batch does not hold " + std::to_string(B) + " images of " +
                        std::to_string(S) + "×" + std::to_string(S) + " pixels" +
                        (K == 1 ? std::string() : " × " + std::to_string(K) + " channels"));
        if (!stem.empty()) stem.forward(batch.pixels.data(), B, cfg, patches);
        if (stem.empty()) patches.resize(Eigen::Index(B) * Np, cfg.patchValues());
        const size_t rowBytes = size_t(P) * size_t(K);  // one patch row: P pixels of K values
        for (int b = 0; b < B && stem.empty(); ++b) {
            const uint8_t* img = batch.pixels.data() + size_t(b) * cfg.imageBytes();
            for (int n = 0; n < Np; ++n) {
                Scalar* row = patches.row(Eigen::Index(b) * Np + n).data();
                const int r0 = (n / G) * P, c0 = (n % G) * P;
                for (int y = 0; y < P; ++y) {
                    const uint8_t* src =
                        img + (size_t(r0 + y) * size_t(S) + size_t(c0)) * size_t(K);
                    Scalar* dst = row + size_t(y) * rowBytes;
                    for (size_t i = 0; i < rowBytes; ++i)
                        dst[i] = Scalar(src[i]) / Scalar(127.5) - Scalar(1);
                }
            }
        }
        linear(patches, patchW, patchB, patchOut);
        x.resize(Eigen::Index(B) * N, cfg.dModel);
        const Mat& pos = posEmbed.m();
        for (int b = 0; b < B; ++b) {
            const Eigen::Index base = Eigen::Index(b) * N;
            if (first) x.row(base) = clsToken.m().row(0) + pos.row(0);
            x.block(base + first, 0, Np, cfg.dModel) =
                patchOut.block(Eigen::Index(b) * Np, 0, Np, cfg.dModel) +
                pos.block(first, 0, Np, cfg.dModel);
        }
        if (drop.rate > 0) {
            dropoutMask(drop, 0, B, N, x.cols(), srcMask);
            x.array() *= srcMask.array();
        } else {
            srcMask.resize(0, 0);
        }
    }

    // vit: the encoder's output mem [B*N, d] pooled (the class token's row, or the mean of
    // every row) -> pooled [B, d] -> logits [B, classes].
    void classify(Mat& logits) {
        const int N = cfg.positions();
        pooled.resize(B, cfg.dModel);
        for (int b = 0; b < B; ++b) {
            const Eigen::Index base = Eigen::Index(b) * N;
            if (cfg.pool == Pool::Cls) {
                pooled.row(b) = mem.row(base);
            } else {
                pooled.row(b) = mem.block(base, 0, N, cfg.dModel).colwise().sum() / Scalar(N);
            }
        }
        linear(pooled, headW, headB, logits);
    }

    void forwardImages(const Batch& batch, Mat& logits) {
        embedImages(batch);
        encodeLayers(batch);
        classify(logits);
    }

    // Backward of forwardImages: dlogits [B, classes] -> parameter gradients.
    void backwardImages(const Mat& dlogits) {
        const int N = cfg.positions(), Np = cfg.patchCount(), first = N - Np;
        linearBackward(pooled, dlogits, headW, headB, &dpooled);
        dmem.setZero(mem.rows(), mem.cols());
        for (int b = 0; b < B; ++b) {
            const Eigen::Index base = Eigen::Index(b) * N;
            if (cfg.pool == Pool::Cls) {
                dmem.row(base) = dpooled.row(b);
            } else {
                dmem.block(base, 0, N, cfg.dModel).rowwise() = dpooled.row(b) / Scalar(N);
            }
        }
        encoderBackward();
        // dx: the gradient of the embedded input [B*N, d], dropout applied.
        Mat dpatch(Eigen::Index(B) * Np, cfg.dModel);
        for (int b = 0; b < B; ++b) {
            const Eigen::Index base = Eigen::Index(b) * N;
            if (posEmbed.grad) posEmbed.grad->m += dx.block(base, 0, N, cfg.dModel);
            if (first && clsToken.grad) clsToken.grad->m.row(0) += dx.row(base);
            dpatch.block(Eigen::Index(b) * Np, 0, Np, cfg.dModel) =
                dx.block(base + first, 0, Np, cfg.dModel);
        }
        if (stem.empty()) {
            linearBackward(patches, dpatch, patchW, patchB, nullptr);
            return;
        }
        Mat dpatches;
        linearBackward(patches, dpatch, patchW, patchB, &dpatches);
        stem.backward(dpatches, cfg);
    }

    void decode(const Batch& batch, Mat& logits) {
        embedDropped(tgtEmbed, batch.tgtIn, batch.Tt, 1, y, tgtMask);
        const AttentionMask selfMask{batch.tgtLen, true};
        const AttentionMask crossMask{batch.srcLen, false};
        for (auto& l : dec) {
            residualForward(l.selfSub, y, batch.Tt, [&](const Mat& in, Mat& out) {
                l.self->forward(in, in, batch.B, batch.Tt, batch.Tt, selfMask, out);
            });
            if (l.cross) {
                residualForward(l.crossSub, y, batch.Tt, [&](const Mat& in, Mat& out) {
                    l.cross->forward(in, mem, batch.B, batch.Tt, batch.Ts, crossMask, out);
                });
            }
            residualForward(l.ff, y, batch.Tt,
                            [&](const Mat& in, Mat& out) { l.ffn.forward(in, out); });
        }
        if (pre) {
            decNorm.forward(y, yn);
        } else {
            yn = y;
        }
        linear(yn, genW, genB, logits);
    }

    // One residual sub-layer at one position (no dropout): x [B, d] in place.
    template <class F>
    void residualStep(Sublayer& s, Mat& x, F&& f) {
        if (pre) {
            s.ln.forward(x, inStep);
            f(inStep, outStep);
            x += outStep;
        } else {
            f(x, outStep);
            outStep += x;
            s.ln.forward(outStep, x);
        }
    }

    void beginDecoding(int capacity) {
        for (auto& l : dec) {
            l.self->beginSteps(B, capacity, nullptr, 0);
            if (l.cross) l.cross->beginSteps(B, capacity, &mem, Ts);
        }
    }

    void decodeStep(const std::vector<int>& tokens, int t, Mat& logits) {
        const Mat peRow = positions(t + 1).row(t);
        embed(*tgtEmbed.value, tokens, 1, peRow, yStep);  // [B, d]
        const AttentionMask crossMask{srcLen, false};
        for (auto& l : dec) {
            residualStep(l.selfSub, yStep,
                         [&](const Mat& in, Mat& out) { l.self->step(in, t, crossMask, out); });
            if (l.cross)
                residualStep(l.crossSub, yStep, [&](const Mat& in, Mat& out) {
                    l.cross->step(in, t, crossMask, out);
                });
            residualStep(l.ff, yStep, [&](const Mat& in, Mat& out) { l.ffn.forward(in, out); });
        }
        if (pre) {
            decNorm.forward(yStep, inStep);
            linear(inStep, genW, genB, logits);
        } else {
            linear(yStep, genW, genB, logits);
        }
    }

    void backward(const Batch& batch, const Mat& dlogits) {
        linearBackward(yn, dlogits, genW, genB, &dyn);
        if (pre) {
            decNorm.backward(dyn, dy, false);
        } else {
            dy = dyn;
        }
        if (cfg.hasEncoder()) dmem.setZero(mem.rows(), mem.cols());
        for (auto it = dec.rbegin(); it != dec.rend(); ++it) {
            DecoderLayer& l = *it;
            residualBackward(
                l.ff, dy, [&](const Mat& dOut, Mat& dIn) { l.ffn.backward(l.ff.in, dOut, dIn); });
            if (l.cross) {
                residualBackward(l.crossSub, dy, [&](const Mat& dOut, Mat& dIn) {
                    dIn.setZero(dOut.rows(), dOut.cols());
                    l.cross->backward(dOut, dIn, dmem);
                });
            }
            residualBackward(l.selfSub, dy, [&](const Mat& dOut, Mat& dIn) {
                dIn.setZero(dOut.rows(), dOut.cols());
                l.self->backward(dOut, dIn, dIn);
            });
        }
        if (tgtMask.size()) dy.array() *= tgtMask.array();
        if (tgtEmbed.grad) embedBackward(batch.tgtIn, dy, *tgtEmbed.grad);
        if (!cfg.hasEncoder()) return;
        encoderBackward();
        if (srcEmbed.grad) embedBackward(batch.src, dx, *srcEmbed.grad);
    }

    // dmem [B*Ts, d] -> dx [B*Ts, d], the gradient of the embedded encoder input (embedding
    // dropout applied), and every encoder parameter's gradient.
    void encoderBackward() {
        if (pre) {
            encNorm.backward(dmem, dx, false);
        } else {
            dx = dmem;
        }
        for (auto it = enc.rbegin(); it != enc.rend(); ++it) {
            EncoderLayer& l = *it;
            residualBackward(
                l.ff, dx, [&](const Mat& dOut, Mat& dIn) { l.ffn.backward(l.ff.in, dOut, dIn); });
            residualBackward(l.attn, dx, [&](const Mat& dOut, Mat& dIn) {
                dIn.setZero(dOut.rows(), dOut.cols());
                l.self->backward(dOut, dIn, dIn);
            });
        }
        if (srcMask.size()) dx.array() *= srcMask.array();
    }
};

Network::Network(const ModelConfig& cfg) : d(std::make_unique<Impl>()) {
    singleThreadedGemm();
    d->cfg = cfg;
    d->build();
}

Network::~Network() = default;

namespace {

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

void bindNorm(LayerNorm& n, const Bindings& b, const std::string& p) {
    n.weight = b.find(p + ".weight");
    n.bias = b.find(p + ".bias");
}

}  // namespace

std::vector<ParamInfo> Network::parameterInfo(int64_t Vs, int64_t Vt) const {
    const ModelConfig& cfg = d->cfg;
    const int64_t dm = cfg.dModel, f = cfg.dFf;
    std::vector<ParamInfo> p;
    const Init emb = Init::normal(1.0 / std::sqrt(static_cast<double>(dm)));
    if (cfg.isVision()) {
        const int64_t pp = cfg.patchValues(), C = cfg.classes;
        p = ConvStem::parameters(cfg);  // empty without a stem
        p.push_back(
            {"patch_embed.weight", {dm, pp}, Init::xavier(pp, dm), true, "patches", "embeddings"});
        p.push_back({"patch_embed.bias", {dm}, Init::zeros(), true, "patches", "embeddings"});
        if (cfg.pool == Pool::Cls)
            p.push_back(
                {"cls_token", {1, dm}, Init::normal(0.02), true, "positions", "embeddings"});
        p.push_back({"pos_embed",
                     {int64_t(cfg.positions()), dm},
                     Init::normal(0.02),
                     true,
                     "positions",
                     "embeddings"});
        p.push_back({"head.weight", {C, dm}, Init::xavier(dm, C), true, "output", "head"});
        p.push_back({"head.bias", {C}, Init::zeros(), true, "output", "head"});
    } else if (cfg.hasEncoder())
        p.push_back({"src_embed.weight", {Vs, dm}, emb, true, "embedding", "embeddings"});
    if (!cfg.isVision() && !(cfg.hasEncoder() && cfg.shareEmbeddings))
        p.push_back({"tgt_embed.weight", {Vt, dm}, emb, true, "embedding", "embeddings"});
    if (!cfg.tieOutput && !cfg.isVision())
        p.push_back(
            {"generator.weight", {Vt, dm}, Init::xavier(dm, Vt), true, "output", "generator"});
    if (!cfg.isVision())
        p.push_back({"generator.bias", {Vt}, Init::zeros(), true, "output", "generator"});
    for (size_t i = 0; i < d->enc.size(); ++i) {
        const std::string l = "encoder.layers." + std::to_string(i);
        addNorm(p, l + ".norm1", dm, l + ".self_attn");
        for (auto& s : d->enc[i].self->parameters()) p.push_back(s);
        addNorm(p, l + ".norm2", dm, l + ".ffn");
        addFfn(p, l + ".ffn", dm, f);
    }
    for (size_t i = 0; i < d->dec.size(); ++i) {
        const std::string l = "decoder.layers." + std::to_string(i);
        addNorm(p, l + ".norm1", dm, l + ".self_attn");
        for (auto& s : d->dec[i].self->parameters()) p.push_back(s);
        if (d->dec[i].cross) {
            addNorm(p, l + ".norm2", dm, l + ".cross_attn");
            for (auto& s : d->dec[i].cross->parameters()) p.push_back(s);
        }
        addNorm(p, l + ".norm3", dm, l + ".ffn");
        addFfn(p, l + ".ffn", dm, f);
    }
    if (cfg.norm == Norm::Pre) {
        if (cfg.hasEncoder() || cfg.isVision()) addNorm(p, "encoder.norm", dm, "encoder.norm");
        if (!cfg.isVision()) addNorm(p, "decoder.norm", dm, "decoder.norm");
    }
    return p;
}

void Network::bind(const Bindings& b) {
    const ModelConfig& cfg = d->cfg;
    if (cfg.isVision()) {
        d->stem.bind(cfg, b);
        d->patchW = b.find("patch_embed.weight");
        d->patchB = b.find("patch_embed.bias");
        d->clsToken = cfg.pool == Pool::Cls ? b.find("cls_token") : Param{};
        d->posEmbed = b.find("pos_embed");
        d->headW = b.find("head.weight");
        d->headB = b.find("head.bias");
        if (cfg.norm == Norm::Pre) bindNorm(d->encNorm, b, "encoder.norm");
    } else {
        bindText(b);
    }
    for (size_t i = 0; i < d->enc.size(); ++i) {
        const std::string l = "encoder.layers." + std::to_string(i);
        EncoderLayer& e = d->enc[i];
        e.self->bind(b);
        bindNorm(e.attn.ln, b, l + ".norm1");
        bindNorm(e.ff.ln, b, l + ".norm2");
        e.ffn.bind(b, l + ".ffn");
    }
}

void Network::bindText(const Bindings& b) {
    const ModelConfig& cfg = d->cfg;
    d->srcEmbed = cfg.hasEncoder() ? b.find("src_embed.weight") : Param{};
    d->tgtEmbed =
        (cfg.hasEncoder() && cfg.shareEmbeddings) ? d->srcEmbed : b.find("tgt_embed.weight");
    d->genW = cfg.tieOutput ? d->tgtEmbed : b.find("generator.weight");
    d->genB = b.find("generator.bias");
    for (size_t i = 0; i < d->dec.size(); ++i) {
        const std::string l = "decoder.layers." + std::to_string(i);
        DecoderLayer& x = d->dec[i];
        x.self->bind(b);
        bindNorm(x.selfSub.ln, b, l + ".norm1");
        if (x.cross) {
            x.cross->bind(b);
            bindNorm(x.crossSub.ln, b, l + ".norm2");
        }
        bindNorm(x.ff.ln, b, l + ".norm3");
        x.ffn.bind(b, l + ".ffn");
    }
    if (cfg.norm == Norm::Pre) {
        if (cfg.hasEncoder()) bindNorm(d->encNorm, b, "encoder.norm");
        bindNorm(d->decNorm, b, "decoder.norm");
    }
}

bool Network::usesMaxLen(BlockKind kind) const {
    for (const auto& l : d->enc)
        if (kind == BlockKind::EncoderSelf && l.self->usesMaxLen()) return true;
    for (const auto& l : d->dec) {
        if (kind == BlockKind::DecoderSelf && l.self->usesMaxLen()) return true;
        if (kind == BlockKind::Cross && l.cross && l.cross->usesMaxLen()) return true;
    }
    return false;
}

void Network::forward(const Batch& batch, const Dropout& drop, Mat& logits) {
    if (d->cfg.isVision()) {
        d->drop = drop;
        d->B = batch.B;
        d->Ts = batch.Ts;
        d->Tt = 1;
        d->forwardImages(batch, logits);
        return;
    }
    if (d->cfg.hasEncoder()) encode(batch, drop);
    decode(batch, drop, logits);
}

void Network::encode(const Batch& batch, const Dropout& drop) {
    if (d->cfg.isVision()) throw Error("an image model runs whole: use forward()");
    if (!d->cfg.hasEncoder()) throw Error("a decoder-only model has no encoder");
    if (batch.src.size() != size_t(batch.B) * size_t(batch.Ts) ||
        batch.srcLen.size() != size_t(batch.B))
        throw Error("batch has no source for a seq2seq model");
    d->drop = drop;
    d->B = batch.B;
    d->Ts = batch.Ts;
    d->srcLen = batch.srcLen;
    d->encode(batch);
}

void Network::decode(const Batch& batch, const Dropout& drop, Mat& logits) {
    if (d->cfg.isVision()) throw Error("an image model has no decoder");
    if (d->cfg.hasEncoder() && (batch.B != d->B || batch.Ts != d->Ts))
        throw Error("decode() needs the memory of the same batch's encode()");
    d->drop = drop;
    d->B = batch.B;
    d->Tt = batch.Tt;
    d->decode(batch, logits);
}

void Network::setKeepWeights(bool keep) {
    for (auto& l : d->enc) l.self->setKeepWeights(keep);
    for (auto& l : d->dec) {
        l.self->setKeepWeights(keep);
        if (l.cross) l.cross->setKeepWeights(keep);
    }
}

std::vector<AttentionBlock*> Network::blocks() {
    std::vector<AttentionBlock*> out;
    for (auto& l : d->enc) out.push_back(l.self.get());
    for (auto& l : d->dec) {
        out.push_back(l.self.get());
        if (l.cross) out.push_back(l.cross.get());
    }
    return out;
}

size_t Network::attentionBytes() const {
    size_t n = 0;
    for (const auto& l : d->enc) n += l.self->weightBytes();
    for (const auto& l : d->dec)
        n += l.self->weightBytes() + (l.cross ? l.cross->weightBytes() : 0);
    return n;
}

void Network::beginDecoding(int capacity) {
    if (!d->cfg.hasEncoder()) throw Error("incremental decoding needs a seq2seq model");
    d->beginDecoding(capacity);
}

void Network::decodeStep(const std::vector<int>& tokens, int t, Mat& logits) {
    if (tokens.size() != size_t(d->B))
        throw Error("decodeStep needs one token per sequence of the encoded batch");
    d->decodeStep(tokens, t, logits);
}

void Network::backward(const Batch& batch, const Mat& dlogits) {
    if (d->cfg.isVision()) {
        d->backwardImages(dlogits);
        return;
    }
    d->backward(batch, dlogits);
}

std::vector<CapturedBlock> Network::capture(const Batch& batch) const {
    std::vector<CapturedBlock> out;
    for (auto& l : d->enc) out.push_back(l.self->capture(batch.B, batch.srcLen, batch.srcLen));
    for (auto& l : d->dec) {
        out.push_back(l.self->capture(batch.B, batch.tgtLen, batch.tgtLen));
        if (l.cross) out.push_back(l.cross->capture(batch.B, batch.tgtLen, batch.srcLen));
    }
    return out;
}

std::vector<CapturedBlock> Network::captureEncoder(const Batch& batch) const {
    std::vector<CapturedBlock> out;
    for (auto& l : d->enc) out.push_back(l.self->capture(batch.B, batch.srcLen, batch.srcLen));
    return out;
}

}  // namespace attnviz
