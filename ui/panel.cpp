// SPDX-License-Identifier: GPL-3.0-or-later
#include "panel.h"

#include <QEvent>
#include <QPainter>

#include "heatmap_panel.h"
#include "lines_panel.h"

namespace attnviz::ui {

namespace {

// A translucent grey cover over the whole panel with a short text in its middle: the table
// under it is not of the current sentence. Clicks pass through to the panel.
class UpdatingMark : public QWidget {
public:
    explicit UpdatingMark(QWidget* panel) : QWidget(panel) {
        setAttribute(Qt::WA_TransparentForMouseEvents);
        panel->installEventFilter(this);
        setGeometry(panel->rect());
    }
    void setText(const QString& text) {
        m_text = text;
        update();
    }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (watched == parent() && event->type() == QEvent::Resize)
            setGeometry(parentWidget()->rect());
        return false;
    }
    void paintEvent(QPaintEvent*) override {
        QPainter p(this);
        p.fillRect(rect(), QColor(128, 128, 128, 150));
        const QRect box = fontMetrics().boundingRect(m_text).adjusted(-8, -4, 8, 4);
        QRect at = box;
        at.moveCenter(rect().center());
        p.setRenderHint(QPainter::Antialiasing);
        p.setPen(Qt::NoPen);
        p.setBrush(QColor(255, 255, 255, 220));
        p.drawRoundedRect(at, 4, 4);
        p.setPen(QColor(60, 60, 60));
        p.drawText(at, Qt::AlignCenter, m_text);
    }

private:
    QString m_text;
};

}  // namespace

void Panel::setUpdating(const QString& text) {
    if (text == m_updating) return;
    m_updating = text;
    if (!m_mark && text.isEmpty()) return;
    if (!m_mark) m_mark = new UpdatingMark(this);
    static_cast<UpdatingMark*>(m_mark)->setText(text);
    m_mark->setVisible(!text.isEmpty());
    m_mark->raise();
}

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
