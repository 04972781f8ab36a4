// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Each image model's accuracy per class on its image task's held-out images (core/image_set.h
// imageTaskFor, split "validation": Fashion-MNIST's last 5,000 training images, the clothing
// photos' 406 validation photos), never trained on, which the checkpoints' held-out accuracy
// counts. A checkpoint records the accuracy, not its classes, so they are computed here
// (core/evaluate.h classifyImages): once per model, on a worker thread (ui/background.h), when
// first asked for (a column header's tooltip is about to be seen), and kept while the model
// lives. Each task's images are read once, by its first computation.
//
//   ClassAccuracies accuracies;
//   connect(&accuracies, &ClassAccuracies::ready, …);      // one more model's are known
//   if (!accuracies.find(column)) accuracies.request(column);
#include <QObject>
#include <QString>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/workspace.h"

namespace attnviz::ui {

class ClassAccuracies : public QObject {
    Q_OBJECT
public:
    // A model's accuracies, [classes] in its classes' order, 0 … 1; or why there are none.
    struct Outcome {
        std::vector<double> perClass;
        bool foreign = false;  // the model reads no image task's images and classes
        QString error;         // the images could not be read: the core's message
        std::string task;      // the image task whose held-out images were read (core/image_set.h)
        size_t images = 0;     // how many
    };
    struct Images;  // the held-out images, read once (class_accuracy.cpp)

    explicit ClassAccuracies(QObject* parent = nullptr);
    ~ClassAccuracies() override;

    // The column's model's outcome; null while unknown (not asked for, or being computed).
    const Outcome* find(const ModelColumn& column) const;
    // Starts computing the column's model's unless known or under way; ready() when done.
    void request(const ModelColumn& column);
    bool computing(const ModelColumn& column) const;
    int computations() const { return m_computations; }  // started so far (tests)

signals:
    void ready();

private:
    struct Entry {
        std::weak_ptr<Model> model;  // a model gone (and its address reused) is not this one
        std::optional<Outcome> outcome;
    };
    const Entry* entry(const ModelColumn& column) const;
    std::map<const Model*, Entry> m_entries;
    std::shared_ptr<Images> m_images;  // shared with the workers
    int m_computations = 0;
};

}  // namespace attnviz::ui
