// SPDX-License-Identifier: GPL-3.0-or-later
#include "view_state.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <algorithm>

namespace attnviz::ui {

QJsonObject ViewState::toJson() const {
    return {{"block", blockKindName(kind)},
            {"layer", layer},
            {"mean_heads", meanHeads},
            {"colormap", colormap},
            {"shared_scale", shared},
            {"scaling", QString::fromStdString(render::scalingName(scaling))},
            {"query", query},
            {"all_layers_of", allLayersOf},
            {"merge_words", mergeWords},
            {"lines", lines},
            {"quality", quality},
            {"show", QString::fromStdString(tableKindName(show))},
            {"zoom", zoom},
            {"label_points", labelPoints},
            {"block_queries", QJsonArray{blockQueries[0], blockQueries[1], blockQueries[2]}}};
}

ViewState ViewState::fromJson(const QJsonObject& o) {
    ViewState v;
    blockKindFromName(o.value("block").toString().toStdString(), &v.kind);
    v.layer = std::max(0, o.value("layer").toInt());
    v.meanHeads = o.value("mean_heads").toBool();
    v.colormap = o.value("colormap").toString("viridis");
    v.shared = o.value("shared_scale").toBool(true);
    v.scaling = render::scalingFromName(o.value("scaling").toString().toStdString());
    v.query = o.value("query").toInt(-1);
    v.allLayersOf = o.value("all_layers_of").toInt(-1);
    v.mergeWords = o.value("merge_words").toBool(false);
    v.lines = o.value("lines").toBool(false);
    v.quality = o.value("quality").toBool(true);
    if (!tableKindFromName(o.value("show").toString("weights").toStdString(), &v.show))
        v.show = TableKind::Weights;
    v.zoom = std::clamp(o.value("zoom").toDouble(1.0), kZoomMin, kZoomMax);
    v.labelPoints = std::clamp(o.value("label_points").toInt(8), kLabelMin, kLabelMax);
    const QJsonArray bq = o.value("block_queries").toArray();
    for (int i = 0; i < 3 && i < bq.size(); ++i)
        v.blockQueries[size_t(i)] = std::max(-1, bq[i].toInt(-1));
    return v;
}

SelectionRequest ViewState::request() const {
    SelectionRequest r;
    r.kind = kind;
    r.layer = layer;
    r.heads = meanHeads ? "mean" : "all";
    r.allLayersOf = allLayersOf;
    r.sharedScale = shared;
    r.mergeWords = mergeWords;
    r.show = show;
    r.differenceBase = 0;  // the first column: reorder columns to choose another base
    return r;
}

render::FigureStyle ViewState::figureStyle() const {
    render::FigureStyle s;
    s.colormap = colormap;
    s.scaling = scaling;
    s.shared = shared;
    s.lines = lines;
    s.query = query;  // outlined in figures as on screen
    return s;
}

QString kindLabel(BlockKind kind) {
    // Shown in panel titles, the Heads table and the variant panel: translated (core's
    // blockLabel() stays English, for the engine's messages and exports).
    switch (kind) {
        case BlockKind::EncoderSelf:
            //: Short label of a block kind: encoder self-attention
            return QCoreApplication::translate("attnviz::ui::ViewState", "enc self");
        case BlockKind::DecoderSelf:
            //: Short label of a block kind: decoder self-attention
            return QCoreApplication::translate("attnviz::ui::ViewState", "dec self");
        case BlockKind::Cross:
            //: Short label of a block kind: cross-attention (encoder–decoder)
            return QCoreApplication::translate("attnviz::ui::ViewState", "cross");
    }
    return QString::fromStdString(blockLabel(kind));
}

}  // namespace attnviz::ui
