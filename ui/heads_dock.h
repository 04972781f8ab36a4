// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QStringList>
#include <QWidget>
#include <atomic>
#include <memory>
#include <vector>

#include "core/workspace.h"

class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;
class QTimer;

namespace attnviz::ui {

class HeadsTableModel;
struct HeadsContent;
struct SetJob;

// The Heads dock (issue 15): every head of every model column with its statistics for the
// current sentence (core/head_stats.h; definitions in docs/analysis.md), in a sortable,
// filterable table. "Over the sentence list" computes them over every sentence of the
// Sentences dock instead, with each head's input dependence and importance (Michel et al.
// 2019), with progress and cancel. Everything is computed on worker threads; clicking a row
// (or Enter) asks the window to show that head.
//
// What the table shows: the set's statistics from the moment they arrive until the next
// setResults (a new current sentence), which shows the current sentence's again (the set
// columns then read "—"); the status line says so.
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
        R2,
        InputDependence,  // over the sentence list only
        Importance,       // over the sentence list only: normalised per block
        ColumnCount
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

    // The workspace's model columns and the sentence list's lines ("source" or
    // "source\ttarget"), for "Over the sentence list". Cheap: only stored (the window calls it
    // when either changes); a running set computation over other models or lines is cancelled.
    void setSentenceSet(std::vector<attnviz::ModelColumn> columns, QStringList lines);
    // Starts the set computation (what the button does): per model, on a clone taken under
    // its lock, every sentence analysed, each head's statistics over them, and its importance
    // when there are targets (or for language models). False with *why when there is nothing
    // to do (no models, fewer than 2 usable sentences). Cancels a running one first.
    bool computeOverSet(QString* why = nullptr);
    void cancel();  // stops a running set computation (its result is dropped)
    bool setBusy() const { return m_setJob != nullptr; }

    QTableView* table() const { return m_view; }  // for tests
    QLabel* status() const { return m_status; }
    QLineEdit* filter() const { return m_filter; }  // rows whose model name contains the text
    QProgressBar* progress() const { return m_progress; }  // for tests
    QPushButton* overSetButton() const { return m_overSet; }
    QPushButton* cancelButton() const { return m_cancel; }
    bool busy() const;      // a computation is running whose result will be shown
    int headCount() const;  // rows of the table
    bool showsSet() const { return m_showSet; }  // the table shows the set's statistics

signals:
    // The user clicked (or pressed Enter on) the row of this head.
    void headActivated(int column, attnviz::BlockKind kind, int layer, int head);
    // A computation finished and the table was updated (also after a null setResults, and
    // when a set computation finished).
    void computed();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void activate(const QModelIndex& proxyIndex);
    void showContent(const HeadsContent& content, bool overSet);
    void setFinished(const SetJob& job, HeadsContent result);
    void endSetRun();
    void updateStatus();

    HeadsTableModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_view;
    QLabel* m_status;
    QLineEdit* m_filter;
    QPushButton* m_overSet;
    QProgressBar* m_progress;
    QPushButton* m_cancel;
    QTimer* m_poll;  // reads the running set computation's progress
    // The newest request; a worker whose request is older stops early, and its result is
    // dropped. Shared with the workers, which may outlive the dock.
    std::shared_ptr<std::atomic<int>> m_latest = std::make_shared<std::atomic<int>>(0);
    int m_shown = 0;                          // the newest finished request
    std::unique_ptr<HeadsContent> m_current;  // its rows and status
    std::unique_ptr<HeadsContent> m_set;      // the last finished set computation's
    bool m_showSet = false;                   // the table shows m_set, else m_current
    // For "Over the sentence list".
    std::vector<attnviz::ModelColumn> m_columns;
    QStringList m_lines;
    std::shared_ptr<SetJob> m_setJob;  // the running set computation, null when none
    QString m_setNote;  // why the button did nothing, or that a run was cancelled or failed
};

}  // namespace attnviz::ui
