// SPDX-License-Identifier: GPL-3.0-or-later
#include "view_state.h"

namespace attnviz::ui {

QJsonObject ViewState::toJson() const {
    return {{"block", blockKindName(kind)},
            {"layer", layer},
            {"mean_heads", meanHeads},
            {"colormap", colormap},
            {"shared_scale", shared},
            {"scaling", scalingName(scaling)},
            {"query", query},
            {"all_layers_of", allLayersOf}};
}

ViewState ViewState::fromJson(const QJsonObject& o) {
    ViewState v;
    blockKindFromName(o.value("block").toString().toStdString(), &v.kind);
    v.layer = std::max(0, o.value("layer").toInt());
    v.meanHeads = o.value("mean_heads").toBool();
    v.colormap = o.value("colormap").toString("viridis");
    v.shared = o.value("shared_scale").toBool(true);
    v.scaling = scalingFromName(o.value("scaling").toString());
    v.query = o.value("query").toInt(-1);
    v.allLayersOf = o.value("all_layers_of").toInt(-1);
    return v;
}

QString kindLabel(BlockKind k) {
    switch (k) {
        case BlockKind::EncoderSelf:
            return "enc self";
        case BlockKind::DecoderSelf:
            return "dec self";
        case BlockKind::Cross:
            return "cross";
    }
    return {};
}

QString kindLabel(const std::string& blockName) {
    BlockKind k = BlockKind::EncoderSelf;
    return blockKindFromName(blockName, &k) ? kindLabel(k) : QString::fromStdString(blockName);
}

std::vector<std::pair<int, int>> columnPlan(const Results& res, const ViewState& v) {
    std::vector<std::pair<int, int>> plan;
    if (v.allLayersOf >= 0 && v.allLayersOf < int(res.size())) {
        for (const auto& b : res[size_t(v.allLayersOf)].analysis.blocks)
            if (b.kind == v.kind) plan.emplace_back(v.allLayersOf, b.layer);
    }
    if (plan.empty())
        for (int c = 0; c < int(res.size()); ++c) plan.emplace_back(c, v.layer);
    return plan;
}

QStringList toQt(const std::vector<std::string>& tokens) {
    QStringList out;
    for (const auto& t : tokens) out << QString::fromStdString(t);
    return out;
}

const CapturedBlock* findBlock(const Analysis& a, BlockKind kind, int layer) {
    for (const auto& b : a.blocks)
        if (b.kind == kind && b.layer == layer) return &b;
    return nullptr;
}

QStringList queryTokens(const Analysis& a, BlockKind kind) {
    return toQt(kind == BlockKind::EncoderSelf ? a.sourceTokens : a.targetTokens);
}

QStringList keyTokens(const Analysis& a, BlockKind kind) {
    return toQt(kind == BlockKind::DecoderSelf ? a.targetTokens : a.sourceTokens);
}

Mat headMean(const CapturedBlock& b) {
    Mat m = b.weights.front();
    for (size_t h = 1; h < b.weights.size(); ++h) m += b.weights[h];
    return m / static_cast<Scalar>(b.weights.size());
}

}  // namespace attnviz::ui
