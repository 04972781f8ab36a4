// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <Qt>
#include <cstdint>

namespace attnviz::ui {

// The Heads dock's table (ui/heads_dock.h, ui/heads_table.h): its columns and the role of a
// cell's exact value, which the dock and the table model both name (HeadsDock derives from
// this, so HeadsDock::Entropy still reads as before).
struct HeadsColumns {
    // The table's columns, in order.
    enum Column {
        Model,
        Block,
        Layer,
        Head,
        Variant,
        Entropy,
        Confidence,
        Distance,
        Mu,
        Sigma,
        R2,
        InputDependence,  // over the sentence list only
        Importance,       // over the sentence list only: normalised per block
        ColumnCount
    };
    // The exact value of a cell, which sorting uses: double for the statistics, int for layer
    // and head, the block kind as int, and the table order for Model (so that sorting by Model
    // gives back the workspace's column order). Qt::DisplayRole holds the formatted text.
    static constexpr int ValueRole = Qt::UserRole;

    // The pruning curves' random order (as `attnviz-cli analyze --prune` by default).
    static constexpr uint64_t kPruneSeed = 1;
};

}  // namespace attnviz::ui
