// SPDX-License-Identifier: GPL-3.0-or-later
#include "stale_mark.h"

#include <QEvent>
#include <QPainter>
#include <QWidget>

namespace attnviz::ui {

StaleCover::StaleCover(QWidget* widget) : QWidget(widget) {
    setAttribute(Qt::WA_TransparentForMouseEvents);
    widget->installEventFilter(this);
    setGeometry(widget->rect());
}

bool StaleCover::eventFilter(QObject* watched, QEvent* event) {
    if (watched == parent() && event->type() == QEvent::Resize) setGeometry(parentWidget()->rect());
    return false;
}

void StaleCover::paintEvent(QPaintEvent*) {
    QPainter(this).fillRect(rect(), QColor(128, 128, 128, 110));
}

namespace {

constexpr const char* kCoverName = "staleCover";

QWidget* coverOf(const QWidget* widget) {
    return widget->findChild<QWidget*>(kCoverName, Qt::FindDirectChildrenOnly);
}

}  // namespace

void setDimmed(QWidget* widget, bool dimmed) {
    if (!widget) return;
    QWidget* cover = coverOf(widget);
    if (!cover && !dimmed) return;
    if (!cover) {
        cover = new StaleCover(widget);
        cover->setObjectName(kCoverName);
    }
    cover->setVisible(dimmed);
    if (dimmed) cover->raise();
}

bool isDimmed(const QWidget* widget) {
    const QWidget* cover = widget ? coverOf(widget) : nullptr;
    return cover && !cover->isHidden();
}

}  // namespace attnviz::ui
