// SPDX-License-Identifier: GPL-3.0-or-later
#include "panel.h"

#include <QEvent>
#include <QPainter>
#include <algorithm>

#include "stale_mark.h"

namespace attnviz::ui {

namespace {

// A translucent grey cover over the whole panel, the table visible through it, with a small
// badge in the top right corner, beside the centred title: the table under it is not of the
// current sentence. The badge never covers the map or its token labels; when the title leaves
// no room for its text it shrinks to a symbol (the panel's tooltip title still says it all).
// Clicks pass through to the panel.
class UpdatingMark : public StaleCover {
public:
    explicit UpdatingMark(Panel* panel) : StaleCover(panel), m_panel(panel) {}
    void setText(const QString& text) {
        m_text = text;
        update();
    }
    // The badge's place in the panel, in panel coordinates (tests).
    QRect badge() const {
        QFont f = font();
        f.setPointSizeF(f.pointSizeF() * 0.85);
        const QFontMetrics fm(f);
        // The title's font is the panel's kind's (bold, about the widget's size): measured
        // generously, so that the badge keeps clear of it.
        QFont bold = font();
        bold.setBold(true);
        bold.setPointSizeF(bold.pointSizeF() * 1.1);
        int titleWidth = 0;
        for (const QString& line : m_panel->title().split('\n'))
            titleWidth = std::max(titleWidth, QFontMetrics(bold).horizontalAdvance(line));
        const int room = (width() - titleWidth) / 2 - 4;  // right of the centred title
        const QString shown =
            fm.horizontalAdvance(m_text) + 12 <= room ? m_text : QString::fromUtf8(kSymbol);
        QRect box(0, 0, fm.horizontalAdvance(shown) + 10, fm.height() + 2);
        box.moveTopRight(QPoint(width() - 3, 2));
        return box;
    }
    static constexpr const char* kSymbol = "\u27F3";  // ⟳

protected:
    void paintEvent(QPaintEvent* e) override {
        StaleCover::paintEvent(e);
        QPainter p(this);
        QFont f = font();
        f.setPointSizeF(f.pointSizeF() * 0.85);
        p.setFont(f);
        const QRect at = badge();
        const bool whole = QFontMetrics(f).horizontalAdvance(m_text) + 10 <= at.width();
        p.setRenderHint(QPainter::Antialiasing);
        p.setPen(Qt::NoPen);
        p.setBrush(QColor(255, 244, 214, 235));  // a pale amber: "wait", not "error"
        p.drawRoundedRect(at, 4, 4);
        p.setPen(QColor(90, 60, 0));
        p.drawText(at, Qt::AlignCenter, whole ? m_text : QString::fromUtf8(kSymbol));
    }

private:
    Panel* m_panel;
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

QRect Panel::updatingBadge() const {
    return m_mark && !m_updating.isEmpty() ? static_cast<UpdatingMark*>(m_mark)->badge() : QRect();
}

}  // namespace attnviz::ui
