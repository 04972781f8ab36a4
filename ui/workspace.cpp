// SPDX-License-Identifier: GPL-3.0-or-later
#include "workspace.h"

#include <sys/stat.h>
#include <unistd.h>

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>
#include <QtConcurrent/QtConcurrentMap>
#include <QtConcurrent/QtConcurrentRun>
#include <cerrno>

#include "core/error.h"

namespace attnviz::ui {

ModelColumn loadModelColumn(const QString& path) {
    ModelColumn c;
    c.path = path;
    c.model = std::make_shared<Model>(Model::load(path.toStdString()));
    const auto& t = c.model->training();
    if (t.is_object() && t.contains("name") && t["name"].is_string()) {
        c.name = QString::fromStdString(t["name"].get<std::string>());
    } else {
        c.name = QFileInfo(path).completeBaseName().remove(QRegularExpression("^[0-9]+-"));
    }
    return c;
}

std::vector<ModelColumn> loadModelDirectory(const QString& dir, QStringList* errors) {
    std::vector<ModelColumn> out;
    const QDir d(dir);
    for (const QString& f : d.entryList({"*.safetensors"}, QDir::Files, QDir::Name)) {
        try {
            out.push_back(loadModelColumn(d.filePath(f)));
        } catch (const std::exception& e) {
            if (errors) errors->append(QString::fromUtf8(e.what()));
        }
    }
    return out;
}

void ensureRuntimeDirectory() {
    if (!qEnvironmentVariableIsEmpty("XDG_RUNTIME_DIR")) return;
    const QByteArray dir =
        QDir::tempPath().toLocal8Bit() + "/attnviz-runtime-" + QByteArray::number(getuid());
    if (::mkdir(dir.constData(), 0700) == 0 || errno == EEXIST) qputenv("XDG_RUNTIME_DIR", dir);
}

QString bundledModelDirectory() {
    const QByteArray env = qgetenv("ATTNVIZ_MODELS");
    if (!env.isEmpty()) return QString::fromLocal8Bit(env);
    const QString app = QCoreApplication::applicationDirPath();
    for (const char* rel :
         {"/../resources/models", "/resources/models", "/../share/attnviz/models"}) {
        const QString p = QDir::cleanPath(app + QLatin1String(rel));
        if (QDir(p).exists()) return p;
    }
    return QDir::cleanPath(app + "/../resources/models");
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

void AnalysisRunner::request(const std::vector<ModelColumn>& columns, const QString& source,
                             const QString& target) {
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
    m_watcher->setFuture(
        QtConcurrent::run(&AnalysisRunner::analyzeAll, m_nextColumns, m_nextSource, m_nextTarget));
}

Results AnalysisRunner::analyzeAll(const std::vector<ModelColumn>& columns, const QString& source,
                                   const QString& target) {
    const std::string src = source.toStdString(), tgt = target.toStdString();
    // Models are independent (each has its own lock): analyse them on every core.
    return QtConcurrent::blockingMapped<Results>(columns, [&](const ModelColumn& c) {
        ColumnResult r;
        r.name = c.name;
        const auto& t = c.model->training();
        r.untrained = t.is_object() && t.value("kind", std::string()) == "random-init";
        try {
            std::lock_guard<std::mutex> g(*c.lock);
            r.analysis =
                tgt.empty() ? c.model->analyze(src) : c.model->analyze(src, std::string_view(tgt));
        } catch (const std::exception& e) {
            r.error = QString::fromUtf8(e.what());
        }
        return r;
    });
}

}  // namespace attnviz::ui
