// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// One image panel of the app (issue 28): a head's (the mean of heads', the rollout's) weights
// of the selected query drawn over the image through render's paintImageOverlay, the same
// drawing as `attnviz-cli render --image`; the class token's weight as its swatch below.
// Clicking a patch asks for it as the query.
#include <QWidget>

#include "render/image_figure.h"

namespace attnviz::ui {

class ImagePanelView : public QWidget {
    Q_OBJECT
public:
    explicit ImagePanelView(QWidget* parent = nullptr);
    // What to draw; the scale's top is style.scaleMax with `shared` (one scale for every
    // panel), else the panel's largest patch weight.
    void setPanel(render::ImagePanel panel, const render::OverlayStyle& style, bool shared = false);
    double scaleTop() const { return m_style.scaleMax; }
    const render::ImagePanel& panel() const { return m_panel; }
    // The patch (grid row, column) under `pos`, or false when none is.
    bool patchAt(const QPointF& pos, int* row, int* col) const;
    QSize sizeHint() const override { return {220, 250}; }

signals:
    void patchClicked(int row, int col);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;

private:
    QRectF imageBox() const;  // where the image goes: under the title, above the swatch
    render::ImagePanel m_panel;
    render::OverlayStyle m_style;
};

}  // namespace attnviz::ui
