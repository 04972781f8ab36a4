// SPDX-License-Identifier: GPL-3.0-or-later
#include "image_model.h"

#include <QCoreApplication>
#include <QtConcurrent>
#include <mutex>

#include "background.h"
#include "core/error.h"
#include "language.h"
#include "render/words.h"

namespace attnviz::ui {

bool ImageRequest::operator==(const ImageRequest& o) const {
    return layer == o.layer && heads == o.heads && query == o.query && opacity == o.opacity &&
           colormap == o.colormap;
}

QString classLabel(const std::string& name) {
    static const char* const kClasses[] = {
        QT_TRANSLATE_NOOP("attnviz::ui::FashionMnist", "T-shirt/top"),
        QT_TRANSLATE_NOOP("attnviz::ui::FashionMnist", "Trouser"),
        QT_TRANSLATE_NOOP("attnviz::ui::FashionMnist", "Pullover"),
        QT_TRANSLATE_NOOP("attnviz::ui::FashionMnist", "Dress"),
        QT_TRANSLATE_NOOP("attnviz::ui::FashionMnist", "Coat"),
        QT_TRANSLATE_NOOP("attnviz::ui::FashionMnist", "Sandal"),
        QT_TRANSLATE_NOOP("attnviz::ui::FashionMnist", "Shirt"),
        QT_TRANSLATE_NOOP("attnviz::ui::FashionMnist", "Sneaker"),
        QT_TRANSLATE_NOOP("attnviz::ui::FashionMnist", "Bag"),
        QT_TRANSLATE_NOOP("attnviz::ui::FashionMnist", "Ankle boot")};
    for (const char* c : kClasses)
        if (name == c) return QCoreApplication::translate("attnviz::ui::FashionMnist", c);
    return QString::fromStdString(name);
}

ImageModel::ImageModel(QObject* parent) : QObject(parent) {}
ImageModel::~ImageModel() = default;

std::vector<ImageColumnResult> analyzeImageColumns(const std::vector<ModelColumn>& columns,
                                                   const std::vector<uint8_t>& pixels,
                                                   std::optional<int> label) {
    std::vector<ImageColumnResult> out;
    for (const ModelColumn& c : columns) {
        ImageColumnResult r{c.name, std::nullopt, {}};
        try {
            std::lock_guard<std::mutex> g(*c.lock);
            const Model& m = *c.model;
            if (!m.config().isVision()) throw Error(c.name + " reads text, not images");
            r.result = render::ImageModelResult{c.name, patchGrid(m.config()), m.classNames(),
                                                c.model->analyzeImage(pixels, label)};
        } catch (const std::exception& e) {
            r.error = e.what();
        }
        out.push_back(std::move(r));
    }
    return out;
}

void ImageModel::setColumns(std::vector<ModelColumn> columns) {
    m_columns = std::move(columns);
    analyze();
}

void ImageModel::setImage(std::vector<uint8_t> pixels, std::optional<int> label) {
    m_pixels = std::move(pixels);
    m_label = label;
    analyze();
}

void ImageModel::setRequest(const ImageRequest& r) {
    if (r == m_request) return;
    m_request = r;
    emit requestChanged();
}

void ImageModel::setQuery(const QString& query) {
    ImageRequest r = m_request;
    r.query = query;
    setRequest(r);
}

void ImageModel::analyze() {
    const uint64_t generation = ++m_generation;
    if (m_pixels.empty() || m_columns.empty()) {
        m_results.clear();
        m_running = false;
        emit resultsChanged();
        return;
    }
    m_running = true;
    QtConcurrent::run(backgroundPool(), [cols = m_columns, px = m_pixels, label = m_label] {
        return analyzeImageColumns(cols, px, label);
    }).then(this, [this, generation](std::vector<ImageColumnResult> r) {
        if (generation != m_generation) return;  // a newer image or column set is on its way
        m_results = std::move(r);
        m_running = false;
        emit resultsChanged();
    });
}

void ImageModel::analyzeNow() {
    ++m_generation;  // any run still going is stale now
    m_results = analyzeImageColumns(m_columns, m_pixels, m_label);
    m_running = false;
    emit resultsChanged();
}

render::ImageColumn ImageModel::selectedColumn(int c) const {
    if (c < 0 || size_t(c) >= m_results.size()) throw Error("no such column");
    const ImageColumnResult& r = m_results[size_t(c)];
    if (!r.result) throw Error(r.error);
    render::ImageSelectionRequest q;
    q.layer = m_request.layer;
    q.heads = m_request.heads.toStdString();
    q.query = m_request.query.toStdString();
    q.wording = render::wording(currentLanguage());
    return render::selectImageColumn(*r.result, q);
}

}  // namespace attnviz::ui
