// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>
#include <functional>

class QListWidget;
class QPushButton;

namespace attnviz::ui {

// The files the app could not open, each with its reason, kept until the user clears them
// (unlike the status line, which the next analysis overwrites). A problem may come with an
// offer (a button), such as reopening a workspace that was skipped at start.
class ProblemsPanel : public QWidget {
    Q_OBJECT
public:
    explicit ProblemsPanel(QWidget* parent = nullptr);

    // A heading ("2 of 4 checkpoints of work.attnviz.json could not be opened") and one line
    // per file ("path: reason").
    void add(const QString& heading, const QStringList& details);
    // Problems true until the next analysis (the models that could not run on the sentence):
    // a heading and a line each at the top of the list, replacing the ones given before;
    // no details: none shown. Clear problems removes them too.
    void setCurrent(const QString& heading, const QStringList& details);
    // Every line shown, headings and details, in order.
    QStringList lines() const;
    int lineCount() const;  // lines().size(), without copying them
    bool isEmpty() const;
    // A button below the list that runs `action` once (then hides); empty label: none.
    void setOffer(const QString& label, std::function<void()> action);
    QPushButton* offerButton() const { return m_offer; }
    QPushButton* clearButton() const { return m_clear; }
    QListWidget* list() const { return m_list; }

public slots:
    void clear();

signals:
    void added();

protected:
    void changeEvent(QEvent* event) override;  // retranslates on QEvent::LanguageChange

private:
    void retranslateUi();
    QListWidget* m_list;
    QPushButton* m_offer;
    QPushButton* m_clear;
    std::function<void()> m_action;
    int m_scrollRow = -1;  // the heading to scroll to when the event loop is back
    bool m_scrollPending = false;
};

}  // namespace attnviz::ui
