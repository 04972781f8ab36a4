// SPDX-License-Identifier: GPL-3.0-or-later
#include "panel.h"

#include <QEvent>
#include <QPainter>

#include "stale_mark.h"

namespace attnviz::ui {

namespace {

// A translucent grey cover over the whole panel, the table visible through it, with a small
// badge in the top right corner, beside the centred title: the table under it is not of the
// current sentence. The badge never covers the map, its token labels or the title (issue 47:
// in a narrow panel it hid the head number): when the title leaves no room for its text it
// shrinks to a symbol, and when there is no room for that either it is left out (the grey
// and the column's greyed header still say it). Clicks pass through to the panel.
class UpdatingMark : public StaleCover {
public:
    explicit UpdatingMark(Panel* panel) : StaleCover(panel), m_panel(panel) {}
    void setText(const QString& text) {
        m_text = text;
        update();
    }
    // The badge's place in the panel, in panel coordinates, and what it says: the text, else
    // the symbol, whichever first keeps clear of the title; empty when neither does.
    QRect badge(QString* shown = nullptr) const {
        const QFontMetrics fm(badgeFont());
        // 4 px between the title and the badge.
        const QRect title = m_panel->titleRect().adjusted(-4, 0, 4, 0);
        for (const QString& s : {m_text, QString::fromUtf8(kSymbol)}) {
            QRect box(0, 0, fm.horizontalAdvance(s) + 10, fm.height() + 2);
            box.moveTopRight(QPoint(width() - 3, 2));
            if (box.left() >= 0 && !box.intersects(title)) {
                if (shown) *shown = s;
                return box;
            }
        }
        return {};
    }
    static constexpr const char* kSymbol = "\u27F3";  // ⟳

protected:
    void paintEvent(QPaintEvent* e) override {
        StaleCover::paintEvent(e);
        QString shown;
        const QRect at = badge(&shown);
        if (at.isEmpty()) return;
        QPainter p(this);
        p.setFont(badgeFont());
        p.setRenderHint(QPainter::Antialiasing);
        p.setPen(Qt::NoPen);
        p.setBrush(QColor(255, 244, 214, 235));  // a pale amber: "wait", not "error"
        p.drawRoundedRect(at, 4, 4);
        p.setPen(QColor(90, 60, 0));
        p.drawText(at, Qt::AlignCenter, shown);
    }

private:
    QFont badgeFont() const {
        QFont f = font();
        f.setPointSizeF(f.pointSizeF() * 0.85);
        return f;
    }
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
