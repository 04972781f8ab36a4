// SPDX-License-Identifier: GPL-3.0-or-later
// Which Panel subclass a view shows, and making one (ui/panel.h): the one place that knows every
// kind, apart from panel.cpp, so that a kind's header includes panel.h and nothing includes back.
#include "heatmap_panel.h"
#include "lines_panel.h"
#include "panel.h"

namespace attnviz::ui {

PanelKind panelKindFor(const ViewState& view, const Selection& selection) {
    return view.lines && !selection.diverging ? PanelKind::Lines : PanelKind::Heatmap;
}

Panel* makePanel(PanelKind kind, QWidget* parent) {
    switch (kind) {
        case PanelKind::Lines:
            return new LinesPanel(parent);
        case PanelKind::Heatmap:
            break;
    }
    return new HeatmapPanel(parent);
}

}  // namespace attnviz::ui
