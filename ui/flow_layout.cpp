// SPDX-License-Identifier: GPL-3.0-or-later
#include "flow_layout.h"

#include <QWidget>
#include <algorithm>

namespace attnviz::ui {

FlowLayout::FlowLayout(QWidget* parent, int spacing) : QLayout(parent), m_spacing(spacing) {
    setContentsMargins(0, 0, 0, 0);
}

FlowLayout::~FlowLayout() {
    for (QLayoutItem* item : m_items) delete item;
}

void FlowLayout::addItem(QLayoutItem* item) {
    m_items.push_back(item);
}

QLayoutItem* FlowLayout::itemAt(int index) const {
    return index >= 0 && index < count() ? m_items[size_t(index)] : nullptr;
}

QLayoutItem* FlowLayout::takeAt(int index) {
    if (index < 0 || index >= count()) return nullptr;
    QLayoutItem* item = m_items[size_t(index)];
    m_items.erase(m_items.begin() + index);
    return item;
}

int FlowLayout::heightForWidth(int width) const {
    return arrange(QRect(0, 0, width, 0), false);
}

QSize FlowLayout::minimumSize() const {
    QSize size;
    for (const QLayoutItem* item : m_items) size = size.expandedTo(item->minimumSize());
    const QMargins m = contentsMargins();
    return size + QSize(m.left() + m.right(), m.top() + m.bottom());
}

QSize FlowLayout::sizeHint() const {
    int width = 0, height = 0;
    for (const QLayoutItem* item : m_items) {
        if (item->isEmpty()) continue;
        width += (width > 0 ? m_spacing : 0) + item->sizeHint().width();
        height = std::max(height, item->sizeHint().height());
    }
    const QMargins m = contentsMargins();
    return {width + m.left() + m.right(), height + m.top() + m.bottom()};
}

void FlowLayout::setGeometry(const QRect& rect) {
    QLayout::setGeometry(rect);
    arrange(rect, true);
}

int FlowLayout::arrange(const QRect& rect, bool apply) const {
    const QRect area = rect.marginsRemoved(contentsMargins());
    std::vector<std::pair<QLayoutItem*, QSize>> line;  // the items of the current line
    int y = area.y(), lineWidth = 0, lineHeight = 0;
    auto place = [&] {  // the line from the left, each item centred on it
        int x = area.x();
        for (auto& [item, size] : line) {
            if (apply)
                item->setGeometry(QRect(QPoint(x, y + (lineHeight - size.height()) / 2), size));
            x += size.width() + m_spacing;
        }
    };
    for (QLayoutItem* item : m_items) {
        if (item->isEmpty()) continue;
        const QSize size = item->sizeHint().boundedTo(QSize(area.width(), QWIDGETSIZE_MAX));
        if (!line.empty() && lineWidth + m_spacing + size.width() > area.width()) {
            place();
            y += lineHeight + m_spacing;
            line.clear();
            lineWidth = lineHeight = 0;
        }
        lineWidth += (line.empty() ? 0 : m_spacing) + size.width();
        lineHeight = std::max(lineHeight, size.height());
        line.emplace_back(item, size);
    }
    place();
    return y + lineHeight - rect.y() + contentsMargins().bottom();
}

}  // namespace attnviz::ui
