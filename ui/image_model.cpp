// SPDX-License-Identifier: GPL-3.0-or-later
#include "image_model.h"

#include <QCoreApplication>
#include <QFutureWatcher>
#include <QtConcurrent>
#include <mutex>

#include "background.h"
#include "core/error.h"
#include "core/image_set.h"
#include "language.h"
#include "render/words.h"

namespace attnviz::ui {

bool ImageRequest::operator==(const ImageRequest& o) const {
    return layer == o.layer && heads == o.heads && query == o.query && opacity == o.opacity &&
           colormap == o.colormap && shared == o.shared;
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
    // The clothing photos' ten (core/image_set.h clothingPhotoClasses; issue 49).
    static const char* const kPhotoClasses[] = {
        QT_TRANSLATE_NOOP("attnviz::ui::ClothingPhotos", "T-Shirt"),
        QT_TRANSLATE_NOOP("attnviz::ui::ClothingPhotos", "Longsleeve"),
        QT_TRANSLATE_NOOP("attnviz::ui::ClothingPhotos", "Pants"),
        QT_TRANSLATE_NOOP("attnviz::ui::ClothingPhotos", "Shoes"),
        QT_TRANSLATE_NOOP("attnviz::ui::ClothingPhotos", "Shirt"),
        QT_TRANSLATE_NOOP("attnviz::ui::ClothingPhotos", "Dress"),
        QT_TRANSLATE_NOOP("attnviz::ui::ClothingPhotos", "Outwear"),
        QT_TRANSLATE_NOOP("attnviz::ui::ClothingPhotos", "Shorts"),
        QT_TRANSLATE_NOOP("attnviz::ui::ClothingPhotos", "Skirt"),
        QT_TRANSLATE_NOOP("attnviz::ui::ClothingPhotos", "Hat")};
    for (const char* c : kClasses)
        if (name == c) return QCoreApplication::translate("attnviz::ui::FashionMnist", c);
    for (const char* c : kPhotoClasses)
        if (name == c) return QCoreApplication::translate("attnviz::ui::ClothingPhotos", c);
    return QString::fromStdString(name);
}

QString taskLabel(const std::string& task) {
    //: An image set's name, as in "the Fashion-MNIST test images"
    if (task == kFashionMnistTask)
        return QCoreApplication::translate("attnviz::ui::ImageTasks", "Fashion-MNIST");
    //: An image set's name, as in "the clothing-photo test images" (issue 49)
    if (task == kClothingPhotosTask)
        return QCoreApplication::translate("attnviz::ui::ImageTasks", "clothing-photo");
    return QString::fromStdString(task);
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

void ImageModel::setImage(std::vector<uint8_t> pixels, std::optional<int> label,
                          const std::string& source) {
    m_pixels = std::move(pixels);
    m_label = label;
    m_source = source;
    analyze();
}

void ImageModel::setRequest(const ImageRequest& r) {
    if (r == m_request) return;
    const bool reselect =
        r.layer != m_request.layer || r.heads != m_request.heads || r.query != m_request.query;
    m_request = r;
    if (reselect) m_selected.assign(m_results.size(), std::nullopt);
    emit requestChanged();
}

void ImageModel::setQuery(const ImageQuery& query) {
    ImageRequest r = m_request;
    r.query = query;
    setRequest(r);
}

void ImageModel::analyze() {
    const uint64_t generation = ++m_generation;
    if (m_pixels.empty() || m_columns.empty()) {
        m_results.clear();
        m_selected.clear();
        m_running = false;
        emit resultsChanged();
        return;
    }
    m_running = true;
    // A watcher owned by this model: destroyed with it, so a run still going when the window
    // closes delivers to nobody (QFuture::then(this, …) asserted on the vanished context).
    auto* watcher = new QFutureWatcher<std::vector<ImageColumnResult>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        if (generation != m_generation) return;  // a newer image or column set is on its way
        m_results = watcher->result();
        m_selected.assign(m_results.size(), std::nullopt);
        m_running = false;
        emit resultsChanged();
    });
    watcher->setFuture(
        QtConcurrent::run(backgroundPool(), [cols = m_columns, px = m_pixels, label = m_label] {
            return analyzeImageColumns(cols, px, label);
        }));
}

void ImageModel::analyzeNow() {
    ++m_generation;  // any run still going is stale now
    m_results = analyzeImageColumns(m_columns, m_pixels, m_label);
    m_selected.assign(m_results.size(), std::nullopt);
    m_running = false;
    emit resultsChanged();
}

render::ImageColumn ImageModel::selectedColumn(int c) const {
    if (c < 0 || size_t(c) >= m_results.size()) throw Error("no such column");
    m_selected.resize(m_results.size());
    std::optional<Selected>& s = m_selected[size_t(c)];
    if (!s) {
        s = Selected();
        const ImageColumnResult& r = m_results[size_t(c)];
        try {
            if (!r.result) throw Error(r.error);
            render::ImageSelectionRequest q;
            q.layer = m_request.layer;
            q.heads = m_request.heads.toStdString();
            q.query = m_request.query;
            q.wording = render::wording(currentLanguage());
            s->column = render::selectImageColumn(*r.result, q);
        } catch (const std::exception& e) {
            s->error = e.what();
        }
    }
    if (!s->column) throw Error(s->error);
    return *s->column;
}

double ImageModel::sharedTop() const {
    double top = 0;
    for (const render::ImageColumn& c : selectedColumns())
        for (const render::ImagePanel& pl : c.panels)
            for (double w : pl.overlay.weights.patches) top = std::max(top, w);
    return top > 0 ? top : 1;
}

std::vector<render::ImageColumn> ImageModel::selectedColumns() const {
    std::vector<render::ImageColumn> out;
    for (int c = 0; c < int(m_results.size()); ++c) {
        try {
            out.push_back(selectedColumn(c));
        } catch (const std::exception&) {  // a model that cannot: its panel says why
        }
    }
    return out;
}

}  // namespace attnviz::ui
