// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Head importance (Michel, Levy & Neubig 2019, "Are Sixteen Heads Really Better than One?"):
// a gate ξ_h on each head's output, I_h = E_x |∂L(x)/∂ξ_h| at ξ = 1 over a data set, with
// L(x) the summed token cross-entropy of example x under teacher forcing; normalised per
// block by the ℓ2 norm of that block's scores, as in the paper. docs/analysis.md.
// And the paper's pruning curves: the model's quality as heads are removed one by one.
#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "model.h"
#include "tasks.h"

namespace attnviz {

struct HeadImportance {
    BlockKind kind = BlockKind::EncoderSelf;
    int layer = 0, head = 0;
    int block = 0;          // index in capture order (Model::setHeadGates)
    double importance = 0;  // E_x |∂L(x)/∂ξ_h|
    double normalised = 0;  // importance / ‖importances of its block‖₂
};

// Every head of every block, in capture order. Examples in batches of `batchSize`.
std::vector<HeadImportance> headImportance(const Model& model, const std::vector<Example>& examples,
                                           int batchSize = 32);

// One point of a pruning curve: the model evaluated with `removed` heads gated to 0.
struct PrunePoint {
    int removed = 0;
    double loss = 0;                     // mean token cross-entropy, nats (Evaluation::loss)
    std::optional<double> bleu;          // corpus BLEU × 100, greedy decoding; seq2seq only
    std::optional<HeadImportance> head;  // the head removed last; none at removed = 0
};
struct PruneCurves {
    // heads + 1 points each when complete (0 … every head removed).
    std::vector<PrunePoint> byImportance, random;
    // With randomOrders > 1: the further random orders, drawn after `random` from the same seed.
    std::vector<std::vector<PrunePoint>> moreRandom;
    int sentences = 0;  // examples evaluated at each point
};

// Pruning curves (Michel et al. 2019, figure 3): the heads of `importance` (headImportance's
// list for this model, every head in capture order) removed one by one through
// Model::setHeadGates, globally least important first by normalised importance (ties in
// capture order), then again from none in `randomOrders` random orders drawn one after the
// other from `seed` (the first is `random`, the same for any randomOrders); after each removal
// `examples` are evaluated (evaluate(): loss; BLEU too for a seq2seq model). The points every
// curve shares (none and every head removed) are evaluated once. `progress(done, total)` is
// called after each point (total = (1 + randomOrders) · (heads + 1)). When
// *cancel becomes true it returns early with the curves so far. Leaves the model ungated
// (also on early return or error). Error when examples or importance are empty or
// importance does not describe the model's blocks.
PruneCurves pruneHeads(Model& model, const std::vector<Example>& examples,
                       const std::vector<HeadImportance>& importance, uint64_t seed,
                       const std::function<void(int, int)>& progress = {},
                       const std::atomic<bool>* cancel = nullptr, int randomOrders = 1);

}  // namespace attnviz
