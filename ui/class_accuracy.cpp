// SPDX-License-Identifier: GPL-3.0-or-later
#include "class_accuracy.h"

#include <QFutureWatcher>
#include <QtConcurrent>
#include <exception>
#include <map>
#include <mutex>

#include "background.h"
#include "core/evaluate.h"
#include "core/image_set.h"
#include "core/model.h"

namespace attnviz::ui {

struct ClassAccuracies::Images {
    struct Held {
        std::vector<Example> examples;  // the held-out images with their labels
        QString error;
    };
    std::mutex lock;
    std::map<std::string, Held> read;  // by image task (core/image_set.h), read once each
};

namespace {

// The column's model on its image task's held-out images ("validation": for Fashion-MNIST the
// last 5,000 training images), read first when no worker has read them yet.
ClassAccuracies::Outcome compute(const ModelColumn& column, ClassAccuracies::Images& images) {
    ClassAccuracies::Outcome out;
    // A copy, so that the column's own analyses do not wait a second for its lock.
    Model model = [&] {
        const std::lock_guard<std::mutex> g(*column.lock);
        return column.model->clone();
    }();
    const ImageTask* task = imageTaskFor(model.config(), model.classNames(), model.training().task);
    if (!task) {
        out.foreign = true;
        return out;
    }
    const std::vector<Example>* examples = nullptr;
    {
        const std::lock_guard<std::mutex> g(images.lock);
        const auto [it, fresh] = images.read.try_emplace(task->name);
        if (fresh) {
            try {
                it->second.examples = imageExamples(task->load("validation"));
            } catch (const std::exception& e) {
                it->second.error = QString::fromStdString(e.what());
            }
        }
        if (!it->second.error.isEmpty()) {
            out.error = it->second.error;
            return out;
        }
        examples = &it->second.examples;  // a map's element stays where it is, never changed
    }
    out.task = task->name;
    out.images = examples->size();
    try {
        out.perClass = classifyImages(model, *examples).classAccuracy();
    } catch (const std::exception& e) {
        out.error = QString::fromStdString(e.what());
    }
    return out;
}

}  // namespace

ClassAccuracies::ClassAccuracies(QObject* parent)
    : QObject(parent), m_images(std::make_shared<Images>()) {}

ClassAccuracies::~ClassAccuracies() = default;

const ClassAccuracies::Entry* ClassAccuracies::entry(const ModelColumn& column) const {
    const auto it = m_entries.find(column.model.get());
    if (it == m_entries.end() || it->second.model.lock() != column.model) return nullptr;
    return &it->second;
}

const ClassAccuracies::Outcome* ClassAccuracies::find(const ModelColumn& column) const {
    const Entry* e = entry(column);
    return e && e->outcome ? &*e->outcome : nullptr;
}

bool ClassAccuracies::computing(const ModelColumn& column) const {
    const Entry* e = entry(column);
    return e && !e->outcome;
}

void ClassAccuracies::request(const ModelColumn& column) {
    if (!column.model || entry(column)) return;
    for (auto it = m_entries.begin(); it != m_entries.end();)  // models closed since
        it = it->second.model.expired() ? m_entries.erase(it) : std::next(it);
    const Model* key = column.model.get();
    m_entries[key] = Entry{column.model, std::nullopt};
    ++m_computations;
    // Owned by this object: destroyed with it, so a computation still going delivers to
    // nobody.
    auto* watcher = new QFutureWatcher<Outcome>(this);
    connect(watcher, &QFutureWatcherBase::finished, this,
            [this, watcher, key, model = std::weak_ptr<Model>(column.model)] {
                watcher->deleteLater();
                const auto it = m_entries.find(key);
                if (it == m_entries.end() || it->second.model.lock() != model.lock()) return;
                it->second.outcome = watcher->result();
                emit ready();
            });
    watcher->setFuture(QtConcurrent::run(
        backgroundPool(), [column, images = m_images] { return compute(column, *images); }));
}

}  // namespace attnviz::ui
