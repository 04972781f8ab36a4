// SPDX-License-Identifier: GPL-3.0-or-later
#include "head_importance.h"

#include <cmath>

#include "error.h"
#include "evaluate.h"
#include "network.h"

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

}  // namespace attnviz
