// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QLayout>
#include <vector>

namespace attnviz::ui {

// Lays its items out left to right at their preferred sizes and starts a new line when the
// next one would not fit (the view bar on a narrow screen: boxes wrap instead of being cut).
// Its height follows its width (heightForWidth), so a box layout above gives it the lines it
// needs. After Qt's "Flow Layout" example.
class FlowLayout : public QLayout {
public:
    explicit FlowLayout(QWidget* parent = nullptr, int spacing = 6);
    ~FlowLayout() override;

    void addItem(QLayoutItem* item) override;
    int count() const override { return int(m_items.size()); }
    QLayoutItem* itemAt(int index) const override;
    QLayoutItem* takeAt(int index) override;
    Qt::Orientations expandingDirections() const override { return {}; }
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize minimumSize() const override;  // the widest item: one per line at the narrowest
    QSize sizeHint() const override;     // every item on one line
    void setGeometry(const QRect& rect) override;

private:
    // Places the items in `rect` (only measures when `apply` is false); returns the height.
    int arrange(const QRect& rect, bool apply) const;
    std::vector<QLayoutItem*> m_items;
    int m_spacing;
};

}  // namespace attnviz::ui
