// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>
#include <atomic>
#include <memory>

#include "core/workspace.h"

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace attnviz::ui {

class HeadsTableModel;

// The Heads dock (issue 15): every head of every model column with its statistics for the
// current sentence (core/head_stats.h; definitions in docs/analysis.md), in a sortable,
// filterable table. The statistics are computed on a worker thread; clicking a row (or Enter)
// asks the window to show that head.
class HeadsDock : public QWidget {
    Q_OBJECT
public:
    // The table's columns, in order.
    enum Column {
        Model,
        Block,
        Layer,
        Head,
        Variant,
        Entropy,
        Confidence,
        Distance,
        Mu,
        Sigma,
        R2
    };
    // The exact value of a cell, which sorting uses: double for the statistics, int for layer
    // and head, the block kind as int, and the table order for Model (so that sorting by Model
    // gives back the workspace's column order). Qt::DisplayRole holds the formatted text.
    static constexpr int ValueRole = Qt::UserRole;

    explicit HeadsDock(QWidget* parent = nullptr);
    ~HeadsDock() override;

    // New results for the workspace's columns (index = column): recomputes the table in a
    // worker thread; a newer call supersedes a running one (its result is dropped). A null
    // pointer clears the table at once.
    void setResults(std::shared_ptr<const attnviz::Results> results);

    QTableView* table() const { return m_view; }  // for tests
    QLabel* status() const { return m_status; }
    QLineEdit* filter() const { return m_filter; }  // rows whose model name contains the text
    bool busy() const;      // a computation is running whose result will be shown
    int headCount() const;  // rows of the last finished computation

signals:
    // The user clicked (or pressed Enter on) the row of this head.
    void headActivated(int column, attnviz::BlockKind kind, int layer, int head);
    // A computation finished and the table was updated (also after a null setResults).
    void computed();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void activate(const QModelIndex& proxyIndex);
    void updateStatus();

    HeadsTableModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_view;
    QLabel* m_status;
    QLineEdit* m_filter;
    // The newest request; a worker whose request is older stops early, and its result is
    // dropped. Shared with the workers, which may outlive the dock.
    std::shared_ptr<std::atomic<int>> m_latest = std::make_shared<std::atomic<int>>(0);
    int m_shown = 0;    // the request the table shows
    QString m_summary;  // the shown request: "48 heads of 2 models · current sentence"
    QString m_failed;   // its columns without an analysis: "1 column failed: name: reason"
};

}  // namespace attnviz::ui
