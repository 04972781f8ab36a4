// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QJsonObject>
#include <QString>
#include <array>

#include "core/selection.h"
#include "render/figure.h"

namespace attnviz::ui {

using render::Scaling;

// What the grid shows: block kind and layer, heads or their mean, colours, scaling, and the
// selected query row. Saved in sessions.
struct ViewState {
    BlockKind kind = BlockKind::EncoderSelf;
    int layer = 0;
    bool meanHeads = false;
    QString colormap = "viridis";
    bool shared = true;
    Scaling scaling = Scaling::Linear;
    int query = -1;  // selected query row, -1: none
    // The query selected in each block kind (encoder self, decoder self, cross), restored
    // when the user switches back to that block.
    std::array<int, 3> blockQueries{-1, -1, -1};
    int allLayersOf = -1;     // >= 0: show every layer of this column's model instead of one layer
    bool mergeWords = false;  // subword pieces merged into words (core/word_merge.h)
    bool lines = false;       // panels as lines between tokens (render/lines.h), not heatmaps
    // Column headers show each model's held-out quality from its checkpoint (BLEU or token
    // accuracy, best head's AER), where the checkpoint records it.
    bool quality = true;
    // What the panels hold: weights, rollout, the difference from the first column, or each
    // head's residual from its Gaussian fit (core/selection.h).
    TableKind show = TableKind::Weights;
    double zoom = 1.0;    // panel size factor (Ctrl+wheel, Ctrl+±), kZoomMin..kZoomMax
    int labelPoints = 8;  // token label size on screen, kLabelMin..kLabelMax
    static constexpr double kZoomMin = 0.5, kZoomMax = 4.0;
    static constexpr int kLabelMin = 6, kLabelMax = 16;

    QJsonObject toJson() const;
    static ViewState fromJson(const QJsonObject& o);
    bool operator==(const ViewState& o) const { return toJson() == o.toJson(); }

    // What to select from the results: the heads in view (their mean with meanHeads).
    SelectionRequest request() const;
    // The figure style of the view: its colours, scaling, shared scale and selected query.
    render::FigureStyle figureStyle() const;
};

QString kindLabel(BlockKind kind);  // "enc self", "dec self", "cross"

}  // namespace attnviz::ui
