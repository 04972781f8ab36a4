// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What every variant file includes. Adding a variant (docs/architecture.md): a new file in
// core/attention/ that defines its class and a function returning its VariantInfo, and
// one line naming that function in registry.cpp.
#include "attention.h"

namespace attnviz {

// parseBlockConfig for the encoder_self block of a vit model (docs/model-spec.md 4.4): the
// variants' resolve() sees the patch grid (grid × grid patches, after a class token when
// classToken) in its BlockGeometry and gives the 2D readings' defaults and rules. Declared
// here rather than in attention.h for the model configuration reader (core/config.cpp).
BlockConfig parseGridBlockConfig(const nlohmann::json& j, int dModel, int modelHeads, int maxLen,
                                 int grid, bool classToken);

// Helpers shared by the variants.
// Error unless Tq and Tk fit the variant's max_len tables.
void checkMaxLen(const BlockGeometry& geo, const std::string& variant, int Tq, int Tk);

// Where a block's positions sit, for the variants defined by offsets between positions
// (local, learned_gaussian). A text block's positions lie on a line, 0 … T−1. A vit block's
// (docs/model-spec.md 4.4) are the class token at position 0 when there is one, which has no
// place, then the patches row-major on a grid × grid grid.
struct PositionLayout {
    explicit PositionLayout(const BlockGeometry& g)
        : grid(g.grid), first(g.grid > 0 && g.classToken ? 1 : 0) {}
    int grid = 0;   // patches per side; 0: a sequence
    int first = 0;  // 1 when position 0 is a class token
    // Coordinates per position: 1 on a line, 2 (row, column) on a grid.
    int dims() const { return grid > 0 ? 2 : 1; }
    // The offset of key position t from query position i, per coordinate: (t − i) on a line,
    // (Δrow, Δcolumn) on a grid. Neither may be the class token.
    void offset(int i, int t, int out[2]) const {
        if (grid == 0) {
            out[0] = t - i;
            return;
        }
        const int p = i - first, q = t - first;
        out[0] = q / grid - p / grid;
        out[1] = q % grid - p % grid;
    }
};

// The class token's logits under a position-only variant (docs/model-spec.md 4.4), in s
// [N, N]: its query row 0 is 0 over the patches and −inf on itself (after the softmax: 1/Np
// on every patch), and its key column is −inf in every patch row (no patch attends to it).
// Nothing without a class token.
void classTokenLogits(const PositionLayout& p, Mat& s);

}  // namespace attnviz
