// SPDX-License-Identifier: GPL-3.0-or-later
#include "problems_panel.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QListWidget>
#include <QPushButton>
#include <QTimer>
#include <QVBoxLayout>

namespace attnviz::ui {

ProblemsPanel::ProblemsPanel(QWidget* parent)
    : QWidget(parent), m_list(new QListWidget), m_offer(new QPushButton), m_clear(new QPushButton) {
    m_list->setWordWrap(true);  // a long path and its reason, read in full
    m_list->setTextElideMode(Qt::ElideNone);
    m_list->setSelectionMode(QAbstractItemView::ExtendedSelection);
    retranslateUi();
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_clear);  // on the left: seen even when the window is wider than the screen
    buttons->addWidget(m_offer);
    buttons->addStretch(1);
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(2, 2, 2, 2);
    v->addWidget(m_list, 1);
    v->addLayout(buttons);
    m_offer->hide();
    connect(m_clear, &QPushButton::clicked, this, &ProblemsPanel::clear);
    connect(m_offer, &QPushButton::clicked, this, [this] {
        auto action = std::move(m_action);
        setOffer({}, {});
        if (action) action();
    });
}

void ProblemsPanel::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) retranslateUi();
    QWidget::changeEvent(event);
}

void ProblemsPanel::retranslateUi() {
    m_clear->setText(tr("&Clear problems"));
    m_list->setAccessibleName(tr("Problems"));
}

void ProblemsPanel::add(const QString& heading, const QStringList& details) {
    auto* h = new QListWidgetItem(heading, m_list);
    QFont bold = h->font();
    bold.setBold(true);
    h->setFont(bold);
    h->setForeground(QColor(0xb0, 0x00, 0x20));
    for (const QString& d : details) new QListWidgetItem("    " + d, m_list);
    // Scrolled to once the event loop is back, to the last heading added: scrolling lays out
    // every wrapped line, so doing it at each of 2,000 problems reported at once (a watched
    // folder of unreadable files) was quadratic.
    m_scrollRow = m_list->row(h);
    if (!m_scrollPending) {
        m_scrollPending = true;
        QTimer::singleShot(0, this, [this] {
            m_scrollPending = false;
            if (QListWidgetItem* item = m_list->item(m_scrollRow))
                m_list->scrollToItem(item, QAbstractItemView::PositionAtTop);
        });
    }
    emit added();
}

void ProblemsPanel::setCurrent(const QString& heading, const QStringList& details) {
    QStringList before;
    for (int i = m_list->count() - 1; i >= 0; --i)
        if (m_list->item(i)->data(Qt::UserRole).toBool()) {
            before.prepend(m_list->item(i)->text());
            delete m_list->takeItem(i);
        }
    if (details.isEmpty()) return;
    QStringList now{heading};
    for (const QString& d : details) now << "    " + d;
    for (int i = 0; i < now.size(); ++i) {
        auto* item = new QListWidgetItem(now[i]);
        item->setData(Qt::UserRole, true);
        if (i == 0) {
            QFont bold = item->font();
            bold.setBold(true);
            item->setFont(bold);
            item->setForeground(QColor(0xb0, 0x00, 0x20));
        }
        m_list->insertItem(i, item);
    }
    if (now != before) emit added();
}

int ProblemsPanel::lineCount() const {
    return m_list->count();
}

QStringList ProblemsPanel::lines() const {
    QStringList out;
    for (int i = 0; i < m_list->count(); ++i) out << m_list->item(i)->text().trimmed();
    return out;
}

bool ProblemsPanel::isEmpty() const {
    return m_list->count() == 0;
}

void ProblemsPanel::setOffer(const QString& label, std::function<void()> action) {
    m_action = std::move(action);
    m_offer->setText(label);
    m_offer->setVisible(!label.isEmpty() && m_action);
}

void ProblemsPanel::clear() {
    m_list->clear();
    setOffer({}, {});
}

}  // namespace attnviz::ui
