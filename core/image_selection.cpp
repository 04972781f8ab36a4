// SPDX-License-Identifier: GPL-3.0-or-later
#include "image_selection.h"

#include <algorithm>
#include <cstdio>
#include <mutex>

#include "error.h"
#include "export.h"
#include "input_limits.h"

namespace attnviz {
namespace {

// The heads of "all", "mean", "rollout" or a list such as "0,2", for a block of `count`.
std::vector<std::string> headsOf(const std::string& heads, int count) {
    std::vector<std::string> out;
    if (heads == "mean" || heads == "rollout") return {heads};
    if (heads == "all") {
        for (int h = 0; h < count; ++h) out.push_back(std::to_string(h));
        return out;
    }
    size_t at = 0;
    while (at <= heads.size()) {
        const size_t comma = std::min(heads.find(',', at), heads.size());
        const std::string item = heads.substr(at, comma - at);
        const bool digits = !item.empty() && item.size() < 9 &&
                            item.find_first_not_of("0123456789") == std::string::npos;
        if (!digits || std::stoi(item) >= count)
            throw Error("--heads '" + excerpt(heads) +
                        "': give all, mean, rollout or heads from 0 to " +
                        std::to_string(count - 1) + " such as 0,2");
        out.push_back(item);
        at = comma + 1;
    }
    return out;
}

std::string predictionOf(const ImageModelResult& m) {
    const ImageAnalysis& a = m.analysis;
    if (a.probabilities.empty()) return {};
    const std::string name = size_t(a.predicted) < m.classes.size()
                                 ? m.classes[size_t(a.predicted)]
                                 : "class " + std::to_string(a.predicted);
    char pct[32];
    std::snprintf(pct, sizeof pct, "%.1f", 100 * a.probabilities[size_t(a.predicted)]);
    return name + " " + pct + " %";
}

}  // namespace

ImageColumn selectImageColumn(const ImageModelResult& m, const ImageSelectionRequest& q) {
    const auto& blocks = m.analysis.blocks;
    if (blocks.empty()) throw Error(m.name + " has no attention block");
    const int layer = q.layer < 0 ? int(blocks.size()) - 1 : q.layer;
    if (layer >= int(blocks.size()))
        throw Error(m.name + ": --layer " + std::to_string(layer) +
                    " is not in the model (layers 0 … " + std::to_string(blocks.size() - 1) + ")");
    const CapturedBlock& b = blocks[size_t(layer)];
    // S from the grid (G · P = S); the channels from the bytes the model saw (S² · channels).
    const int size = m.grid.grid * m.grid.patch;
    const size_t area = size_t(size) * size_t(size);
    ImageOverlay base{
        size,   area > 0 ? int(m.analysis.pixels.size() / area) : 1, m.analysis.pixels,
        m.grid, (checkImageQuery(q.query, m.grid), q.query),         {}};
    ImageColumn col{m.name, predictionOf(m), {}};
    const std::string L = "L" + counted(layer) + " · ";  // for people, from 1
    for (const std::string& h : headsOf(q.heads, int(b.weights.size()))) {
        ImagePanel pl{{}, h, layer, {}, base};
        if (h == "rollout") {
            pl.matrix = std::make_shared<const Mat>(rolloutToLayer(blocks, layer));
            pl.where = fill(q.wording.rollout, counted(layer));
        } else if (h == "mean") {
            pl.matrix = std::make_shared<const Mat>(meanOfHeads(b));
            pl.where = L + fill(q.wording.meanOfHeads, std::to_string(b.weights.size()));
        } else {
            pl.matrix = std::make_shared<const Mat>(b.weights[size_t(std::stoi(h))]);
            pl.where = L + fill(q.wording.head, counted(std::stoi(h)));
        }
        pl.overlay.weights = queryWeights(*pl.matrix, m.grid, pl.overlay.query);
        col.panels.push_back(std::move(pl));
    }
    return col;
}

std::string imageDataBytes(const std::vector<ImageColumn>& columns, const std::string& ext) {
    if (ext != "csv" && ext != "npy")
        throw Error("image panels are exported as .csv or .npy (not '." + ext + "')");
    std::vector<WeightTable> tables;
    for (const ImageColumn& c : columns)
        for (const ImagePanel& pl : c.panels) {
            const auto labels = positionLabels(pl.overlay.grid);
            tables.push_back(
                {c.title, "encoder_self", pl.layer, pl.head, labels, labels, *pl.matrix});
        }
    if (tables.empty()) throw Error("no panel to export");
    for (const WeightTable& t : tables)
        if (ext == "npy" && t.weights.rows() != tables[0].weights.rows())
            throw Error("an .npy holds one array, but the models' grids differ (" +
                        std::to_string(tables[0].weights.rows()) + " and " +
                        std::to_string(t.weights.rows()) +
                        " positions: a class token or another patch size); export .csv");
    return ext == "csv" ? weightsCsv(tables) : weightsNpy(tables);
}

ColumnResult analyzeImageColumn(const ModelColumn& c, const std::vector<uint8_t>& pixels,
                                std::optional<int> label) {
    ColumnResult r;
    r.name = c.name;
    try {
        std::lock_guard<std::mutex> g(*c.lock);
        r = namedResult(c);  // "(modified)" as a text column says it
        const Model& m = *c.model;
        if (!m.config().isVision()) throw Error(c.name + " reads text, not images");
        r.image = std::make_shared<const ImageModelResult>(ImageModelResult{
            r.name, patchGrid(m.config()), m.classNames(), c.model->analyzeImage(pixels, label)});
    } catch (const std::exception& e) {
        r.error = e.what();
    }
    return r;
}

}  // namespace attnviz
