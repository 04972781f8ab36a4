// SPDX-License-Identifier: GPL-3.0-or-later
#include "head_importance.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "error.h"
#include "evaluate.h"
#include "network.h"
#include "rng.h"

namespace attnviz {

std::vector<HeadImportance> headImportance(const Model& model, const std::vector<Example>& examples,
                                           int batchSize) {
    if (examples.empty()) throw Error("head importance needs at least one example");
    // A network of its own, bound to the model's values with gradient accumulators (the
    // parameter gradients are not used; the gates' are recorded per sequence).
    Network net(model.config());
    ParamStore grads =
        gradientStore(net.parameterInfo(model.srcVocab().size(), model.tgtVocab().size()));
    net.bind(Bindings(model.params(), &grads));
    const auto blocks = net.blocks();
    std::vector<std::vector<double>> sums(blocks.size());
    for (size_t k = 0; k < blocks.size(); ++k) {
        blocks[k]->setWantGateGradients(true);
        sums[k].assign(size_t(blocks[k]->heads()), 0.0);
    }
    const size_t bs = size_t(std::max(1, batchSize));
    Mat logits, dlogits;
    for (size_t start = 0; start < examples.size(); start += bs) {
        const size_t end = std::min(examples.size(), start + bs);
        const Batch b = exampleBatch(model, examples, start, end);
        net.forward(b, Dropout{}, logits);
        // Summed (not averaged) token losses: row b's gradient is that of L(x_b) alone.
        crossEntropy(logits, b.tgtOut, 0.0f, 1.0f, &dlogits);
        net.backward(b, dlogits);
        for (size_t k = 0; k < blocks.size(); ++k) {
            const auto& g = blocks[k]->gateGradients();
            const int h = blocks[k]->heads();
            for (int s = 0; s < b.B; ++s)
                for (int hd = 0; hd < h; ++hd)
                    sums[k][size_t(hd)] += std::abs(g[size_t(s * h + hd)]);
        }
    }
    std::vector<HeadImportance> out;
    for (size_t k = 0; k < blocks.size(); ++k) {
        double norm = 0;
        for (double x : sums[k])
            norm += (x / double(examples.size())) * (x / double(examples.size()));
        norm = std::sqrt(norm);
        for (int hd = 0; hd < blocks[k]->heads(); ++hd) {
            HeadImportance r;
            r.kind = blocks[k]->kind();
            r.layer = blocks[k]->layer();
            r.head = hd;
            r.block = int(k);
            r.importance = sums[k][size_t(hd)] / double(examples.size());
            r.normalised = norm > 0 ? r.importance / norm : 0.0;
            out.push_back(r);
        }
    }
    return out;
}

PruneCurves pruneHeads(Model& model, const std::vector<Example>& examples,
                       const std::vector<HeadImportance>& importance, uint64_t seed,
                       const std::function<void(int, int)>& progress,
                       const std::atomic<bool>* cancel, int randomOrders) {
    if (examples.empty()) throw Error("pruning needs at least one example");
    if (randomOrders < 1) throw Error("pruning needs at least one random order");
    if (importance.empty()) throw Error("pruning needs the heads' importance");
    // The gates' shape: a vector per block up to the last one named, a gate per head.
    std::vector<std::vector<Scalar>> ones;
    for (const HeadImportance& h : importance) {
        if (h.block < 0 || h.head < 0) throw Error("pruning: a head with a negative index");
        if (size_t(h.block) >= ones.size()) ones.resize(size_t(h.block) + 1);
        auto& g = ones[size_t(h.block)];
        if (size_t(h.head) >= g.size()) g.resize(size_t(h.head) + 1, 1.0f);
    }
    // Leaves the model ungated however this returns.
    struct Ungate {
        Model& m;
        ~Ungate() {
            try {
                m.setHeadGates({});
            } catch (...) {  // an empty list is always accepted
            }
        }
    } ungate{model};

    std::vector<size_t> byImportance(importance.size());
    std::iota(byImportance.begin(), byImportance.end(), size_t(0));
    const std::vector<size_t> capture = byImportance;
    std::stable_sort(byImportance.begin(), byImportance.end(), [&](size_t a, size_t b) {
        return importance[a].normalised < importance[b].normalised;
    });
    // Each order a shuffle of the capture order, one after the other from one generator.
    Rng rng(seed);
    std::vector<std::vector<size_t>> randoms;
    for (int k = 0; k < randomOrders; ++k) {
        std::vector<size_t> order = capture;
        for (size_t i = order.size() - 1; i > 0; --i) std::swap(order[i], order[rng.below(i + 1)]);
        randoms.push_back(std::move(order));
    }

    const bool seq2seq = model.config().hasEncoder();
    const int total = (1 + randomOrders) * (int(importance.size()) + 1);
    int done = 0;
    const auto cancelled = [&] { return cancel && cancel->load(std::memory_order_relaxed); };
    PruneCurves out;
    out.sentences = int(examples.size());
    // The two points every curve shares, once evaluated: none removed and every head removed.
    std::optional<PrunePoint> none, every;
    // Heads removed in the order of `seq`, an evaluation before the first and after each.
    const auto curve = [&](const std::vector<size_t>& seq, std::vector<PrunePoint>& points) {
        std::vector<std::vector<Scalar>> gates = ones;
        for (size_t removed = 0; removed <= seq.size(); ++removed) {
            if (cancelled()) return false;
            PrunePoint p;
            p.removed = int(removed);
            if (removed > 0) {
                const HeadImportance& h = importance[seq[removed - 1]];
                gates[size_t(h.block)][size_t(h.head)] = 0.0f;
                p.head = h;
            }
            std::optional<PrunePoint>* shared = removed == 0            ? &none
                                                : removed == seq.size() ? &every
                                                                        : nullptr;
            if (shared && *shared) {
                p.loss = (*shared)->loss;
                p.bleu = (*shared)->bleu;
            } else {
                model.setHeadGates(gates);
                const Evaluation ev = evaluate(model, examples, EvalOptions{64, seq2seq});
                p.loss = ev.loss;
                if (ev.bleu) p.bleu = 100 * ev.bleu->score;
                if (shared) *shared = p;
            }
            points.push_back(std::move(p));
            ++done;
            if (progress) progress(done, total);
        }
        return true;
    };
    if (!curve(byImportance, out.byImportance) || !curve(randoms[0], out.random)) return out;
    for (size_t k = 1; k < randoms.size(); ++k) {
        out.moreRandom.emplace_back();
        if (!curve(randoms[k], out.moreRandom.back())) break;
    }
    return out;
}

}  // namespace attnviz
