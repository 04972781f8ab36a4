// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis_runner.h"

#include <QCoreApplication>
#include <QtConcurrent/QtConcurrentRun>

#include "background.h"

namespace attnviz::ui {

Results analyzeCatching(const std::vector<ModelColumn>& columns, const std::string& source,
                        const std::string& target) {
    try {
        return analyzeAll(columns, source, target);
    } catch (const std::exception& e) {
        Results out(columns.size());
        for (size_t i = 0; i < columns.size(); ++i) {
            out[i].name = columns[i].name;
            out[i].error = QCoreApplication::translate("attnviz::ui::AnalysisRunner",
                                                       "the analysis failed: %1")
                               .arg(QString::fromUtf8(e.what()))
                               .toStdString();
        }
        return out;
    }
}

AnalysisRunner::AnalysisRunner(QObject* parent)
    : QObject(parent), m_watcher(new QFutureWatcher<Results>(this)) {
    connect(m_watcher, &QFutureWatcher<Results>::finished, this, [this] {
        auto results = std::make_shared<const Results>(m_watcher->result());
        const bool stale = m_pending;
        if (m_pending) start();  // the text changed meanwhile: run the newest request
        if (!stale) emit finished(results);
    });
}

bool AnalysisRunner::busy() const {
    return m_watcher->isRunning() || m_pending;
}

void AnalysisRunner::request(const std::vector<ModelColumn>& columns, const std::string& source,
                             const std::string& target) {
    m_nextColumns = columns;
    m_nextSource = source;
    m_nextTarget = target;
    if (m_watcher->isRunning()) {
        m_pending = true;  // coalesce: only the newest request runs next
        return;
    }
    start();
}

void AnalysisRunner::start() {
    m_pending = false;
    m_watcher->setFuture(QtConcurrent::run(
        backgroundPool(), [columns = m_nextColumns, source = m_nextSource, target = m_nextTarget] {
            return analyzeCatching(columns, source, target);
        }));
}

}  // namespace attnviz::ui
