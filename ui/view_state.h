// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include "core/config.h"
#include "heatmap_panel.h"
#include "workspace.h"

namespace attnviz::ui {

// What the grid shows: block kind and layer, heads or their mean, colours, scaling, and the
// selected query row. Saved in sessions.
struct ViewState {
    BlockKind kind = BlockKind::EncoderSelf;
    int layer = 0;
    bool meanHeads = false;
    QString colormap = "viridis";
    bool shared = true;
    Scaling scaling = Scaling::Linear;
    int query = -1;        // selected query row, -1: none
    int allLayersOf = -1;  // >= 0: show every layer of this column's model instead of one layer

    QJsonObject toJson() const;
    static ViewState fromJson(const QJsonObject& o);
    bool operator==(const ViewState& o) const { return toJson() == o.toJson(); }
};

QString kindLabel(BlockKind kind);                // "enc self", "dec self", "cross"
QString kindLabel(const std::string& blockName);  // the same from "encoder_self", …
// What each grid column shows, (model, layer): every model at the view's layer, or with
// allLayersOf every layer of that model that has the view's block kind.
std::vector<std::pair<int, int>> columnPlan(const Results& results, const ViewState& view);
QStringList toQt(const std::vector<std::string>& tokens);
// The captured block of kind/layer in an analysis, or null.
const CapturedBlock* findBlock(const Analysis& a, BlockKind kind, int layer);
// Query and key tokens of a block kind in an analysis.
QStringList queryTokens(const Analysis& a, BlockKind kind);
QStringList keyTokens(const Analysis& a, BlockKind kind);
// The mean of a block's heads [Nq, Nk].
Mat headMean(const CapturedBlock& b);

}  // namespace attnviz::ui
