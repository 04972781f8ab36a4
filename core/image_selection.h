// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What an image model's panels show, selected from its analysis of one image (issue 47: beside
// core/selection.h's selectTables for text, so the CLI, the app and the figures share one
// selection): a column per model, a panel per head (or the mean of heads, or the rollout),
// each one query's weights over the patches of the image the model saw. render/image_figure.h
// draws them; imageDataBytes writes their matrices.
//
//   ImageModelResult m{name, patchGrid(model.config()), model.classNames(),
//                      model.analyzeImage(pixels)};
//   ImageSelectionRequest q;                     // the last layer, every head, pooled
//   q.query = ImageQuery::patch(3, 3);
//   ImageColumn c = selectImageColumn(m, q);     // c.panels[h].overlay.weights: [G²]
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "model.h"
#include "rollout.h"
#include "selection.h"

namespace attnviz {

// What one overlay shows: the image and one query's weights over its patches.
struct ImageOverlay {
    int imageSize = 0;            // S
    int channels = 1;             // 1 grayscale, 3 RGB (the model's config "channels")
    std::vector<uint8_t> pixels;  // [S, S, channels] 0 … 255, row-major, a pixel's values
                                  // together: the image the model saw
    PatchGrid grid;               // G × G patches of P pixels (G · P = S)
    ImageQuery query;             // the query patch is outlined
    QueryWeights weights;         // [G²] on the patches, the class token's apart
};

// One panel: a head, the mean of heads or the rollout, of one model.
struct ImagePanel {
    std::string where;  // from 1: "L2 · head 1", "L2 · mean of 4 heads", "rollout through L1–L2"
    std::string head;   // "0", "mean" or "rollout" (data files)
    int layer = 0;
    std::shared_ptr<const Mat> matrix;  // [N, N] the panel's weights, a row of which is shown
    ImageOverlay overlay;
};
// One model: a column of panels under its name and prediction.
struct ImageColumn {
    std::string title;       // the model's name
    std::string prediction;  // "Ankle boot 87.3 %"
    std::vector<ImagePanel> panels;
};

// The panels' weights as a data file (`attnviz-cli render --image --out F.csv`, the app's
// Export data in image mode): each panel's whole table [N, N] (N = G² + 1 with a class
// token, else G²), a row per query and a column per key, both in position order: "cls" first
// (pool "cls"), then the patches row-major, "r0c0", "r0c1", … "r{G-1}c{G-1}" (core/rollout.h
// positionLabels). The overlay shown is one row of it: the class token's, patch (R, C)'s at
// index R·G + C (+1 after a class token), or with pool "mean" the mean of the patch rows.
// `ext` "csv": core/export.h's long form, a line per cell (model = the column's title, block
// encoder_self, head "0", "mean" or "rollout", query_token and key_token the labels); "npy":
// float32 [panels, N, N] in column and panel order. Error for another `ext`, or an .npy of
// panels of different grids.
std::string imageDataBytes(const std::vector<ImageColumn>& columns, const std::string& ext);

// An image model's analysis of one image, as drawn.
struct ImageModelResult {
    std::string name;
    PatchGrid grid;
    std::vector<std::string> classes;
    ImageAnalysis analysis;
};
struct ImageSelectionRequest {
    int layer = -1;             // the layer shown (rollout: through it); -1: the last
    std::string heads = "all";  // "all", "mean", "rollout" or a list such as "0,2"
    ImageQuery query;           // checked against each model's grid (checkImageQuery)
    Wording wording;
};
// The panels of one model. Error naming the option (layer, head or query) that cannot be.
ImageColumn selectImageColumn(const ImageModelResult& m, const ImageSelectionRequest& q);

// One model's analysis of an image (pixels [S, S, channels] 0 … 255, as Model::analyzeImage
// takes them, with its label when known) under the column's lock, as text's analyzeColumn
// (core/workspace.h) does for a sentence: `image` set, or `error` saying why not (a text
// model, an image of another size).
ColumnResult analyzeImageColumn(const ModelColumn& c, const std::vector<uint8_t>& pixels,
                                std::optional<int> label);

}  // namespace attnviz
