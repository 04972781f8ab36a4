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
    const QString b = o.value("block").toString();
    for (BlockKind k : {BlockKind::EncoderSelf, BlockKind::DecoderSelf, BlockKind::Cross})
        if (b == blockKindName(k)) v.kind = k;
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
