// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <memory>
#include <string>
#include <vector>

#include "core/workspace.h"

namespace attnviz::ui {

// analyzeAll, but an exception from it (a model's metadata the engine trips over) becomes
// each column's error instead of ending the app from a worker thread.
Results analyzeCatching(const std::vector<ModelColumn>& columns, const std::string& source,
                        const std::string& target);

// Runs analyses (core/workspace.h's analyzeAll) on a worker thread and reports results in
// the UI thread. A new request makes older ones stale: their results are dropped, never shown.
class AnalysisRunner : public QObject {
    Q_OBJECT
public:
    explicit AnalysisRunner(QObject* parent = nullptr);
    void request(const std::vector<ModelColumn>& columns, const std::string& source,
                 const std::string& target);
    bool busy() const;

signals:
    void finished(std::shared_ptr<const attnviz::Results> results);

private:
    QFutureWatcher<Results>* m_watcher;
    bool m_pending = false;
    std::vector<ModelColumn> m_nextColumns;
    std::string m_nextSource, m_nextTarget;
    void start();
};

}  // namespace attnviz::ui
