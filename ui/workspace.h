// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <memory>
#include <mutex>
#include <vector>

#include "core/model.h"

namespace attnviz::ui {

// A model shown as a column. The core Model keeps scratch buffers, so each one is used by
// one thread at a time: analyses take its lock.
struct ModelColumn {
    QString name;
    QString path;
    std::shared_ptr<Model> model;
    std::shared_ptr<std::mutex> lock = std::make_shared<std::mutex>();
};

// Loads every *.safetensors in `dir`, sorted by file name; files that fail to load are
// reported in `errors` (one message each) and skipped.
std::vector<ModelColumn> loadModelDirectory(const QString& dir, QStringList* errors);
ModelColumn loadModelColumn(const QString& path);  // throws attnviz::Error
// Headless machines often have no XDG_RUNTIME_DIR: gives Qt a private one (0700 in the temp
// directory) instead of a warning on every start. Call before creating the application.
void ensureRuntimeDirectory();

// The bundled models: $ATTNVIZ_MODELS, else resources/models next to the executable's tree.
QString bundledModelDirectory();

// One model's result for the current sentence: the analysis, or the reason it failed.
struct ColumnResult {
    QString name;
    QString error;           // empty when ok
    bool untrained = false;  // a randomly initialised checkpoint
    Analysis analysis;
};
using Results = std::vector<ColumnResult>;

// Runs analyses on a worker thread and reports results in the UI thread. A new request
// makes older ones stale: their results are dropped, never shown.
class AnalysisRunner : public QObject {
    Q_OBJECT
public:
    explicit AnalysisRunner(QObject* parent = nullptr);
    void request(const std::vector<ModelColumn>& columns, const QString& source,
                 const QString& target);
    bool busy() const;
    // Synchronous, for tests and the command line.
    static Results analyzeAll(const std::vector<ModelColumn>& columns, const QString& source,
                              const QString& target);

signals:
    void finished(std::shared_ptr<const Results> results);

private:
    QFutureWatcher<Results>* m_watcher;
    bool m_pending = false;
    std::vector<ModelColumn> m_nextColumns;
    QString m_nextSource, m_nextTarget;
    void start();
};

}  // namespace attnviz::ui
