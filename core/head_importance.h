// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Head importance (Michel, Levy & Neubig 2019, "Are Sixteen Heads Really Better than One?"):
// a gate ξ_h on each head's output, I_h = E_x |∂L(x)/∂ξ_h| at ξ = 1 over a data set, with
// L(x) the summed token cross-entropy of example x under teacher forcing; normalised per
// block by the ℓ2 norm of that block's scores, as in the paper. docs/analysis.md.
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

}  // namespace attnviz
