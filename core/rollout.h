// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// An image model's attention as its overlays show it (issue 28): one query's weights over
// the positions (docs/model-spec.md 3.10: the class token first with pool "cls", then the
// patches row-major) of one head, of the mean of a layer's heads, or of the attention
// rollout to that layer (Abnar & Zuidema 2020). No Qt; the figures are in render/.
//
//   const ImageAnalysis a = model.analyzeImage(pixels);
//   const PatchGrid grid = patchGrid(model.config());
//   const Mat r = rolloutToLayer(a.blocks, 1);                   // [N, N]
//   const QueryWeights w = queryWeights(r, grid, parseImageQuery("pooled", grid));
//   w.patches[3 * grid.grid + 2]                                  // patch (3, 2)
#include <optional>
#include <string>
#include <vector>

#include "head_stats.h"
#include "tensor.h"

namespace attnviz {

struct CapturedBlock;

// The arithmetic mean of a block's heads: weights [heads] of [N, N] -> [N, N]. Error when
// the block holds no head or heads of different shapes.
Mat meanOfHeads(const CapturedBlock& block);

// Attention rollout through the layers 0 … `layer` of an encoder: `blocks` are its
// self-attention blocks in layer order (ImageAnalysis::blocks), each [heads] of [N, N]. Per
// layer l the mean of heads W̄_l, plus the identity for the residual, rows renormalised:
// A_l = ½ W̄_l + ½ I (rows sum to 1); the rollout is A_layer · … · A_0 [N, N], row i how much
// position i's output after `layer` draws on each input position (attentionRollout in
// head_stats.h does the product). Error when `layer` is not a block or shapes differ.
Mat rolloutToLayer(const std::vector<CapturedBlock>& blocks, int layer);

// Whose weights an overlay shows.
struct ImageQuery {
    enum class Kind {
        // What the classifier reads (the default): with pool "cls" the class token's row;
        // with pool "mean" the mean of the N patch rows (our interpretation, docs/model-spec.md
        // 3.10: the pooled output mean_i Σ_t A[i, t] v_t attends to the keys with exactly
        // that mean row).
        Pooled,
        ClassToken,  // the class token's row (pool "cls" only)
        Patch,       // the row of patch (row, col) of the grid
    } kind = Kind::Pooled;
    int row = 0, col = 0;  // Patch: grid row and column, 0 … G − 1
    static ImageQuery patch(int row, int col) { return {Kind::Patch, row, col}; }
    bool operator==(const ImageQuery& o) const {
        return kind == o.kind && (kind != Kind::Patch || (row == o.row && col == o.col));
    }
    bool operator!=(const ImageQuery& o) const { return !(*this == o); }
};

// "pooled", "cls" or "R,C" (grid row and column from 0) read as a query, for any model: the
// text's form only. Error naming the forms. Read where a person types it (an option, a
// workspace file); a query is an ImageQuery everywhere after.
ImageQuery parseImageQuery(const std::string& text);
// Error naming the rule when `q` is not on `grid`: "cls" on a model without class token, a
// patch outside the grid.
void checkImageQuery(const ImageQuery& q, const PatchGrid& grid);
// Both: the text read and checked against `grid`.
ImageQuery parseImageQuery(const std::string& text, const PatchGrid& grid);
// "pooled", "cls" or "R,C": what parseImageQuery reads back.
std::string imageQueryName(const ImageQuery& q);

// One query's weights split into the class token's and the patches'.
struct QueryWeights {
    std::optional<double> classToken;  // the weight on the class token key (pool "cls")
    std::vector<double> patches;       // [G²] on the patch keys, row-major over the grid
    int query = -1;                    // the matrix row shown; -1 for the pooled mean row
};
// The row of `weights` [N, N] (N = grid.positions()) that `q` names. Error when the shape is
// not the grid's or the query is not on it.
QueryWeights queryWeights(const Mat& weights, const PatchGrid& grid, const ImageQuery& q);

// Names of an image model's positions, for data files: "cls" (the class token), then
// "r0c0", "r0c1", … (patch row and column) [N].
std::vector<std::string> positionLabels(const PatchGrid& grid);

}  // namespace attnviz
