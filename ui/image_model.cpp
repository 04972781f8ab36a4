// SPDX-License-Identifier: GPL-3.0-or-later
#include "image_model.h"

#include <QCoreApplication>

#include "core/error.h"
#include "core/image_selection.h"
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
    //: An image set's name, as in "the cut-out clothing-photo test images" (issue 49)
    if (task == kClothingCutoutTask)
        return QCoreApplication::translate("attnviz::ui::ImageTasks", "cut-out clothing-photo");
    return QString::fromStdString(task);
}

namespace {
std::vector<std::string> columnNames(const std::vector<ModelColumn>& columns) {
    std::vector<std::string> out;
    for (const ModelColumn& c : columns) out.push_back(c.name);
    return out;
}
}  // namespace

ImageModel::ImageModel(QObject* parent) : QObject(parent), m_runner(new AnalysisRunner(this)) {
    connect(m_runner, &AnalysisRunner::columnReady, this, &ImageModel::columnReady);
    connect(m_runner, &AnalysisRunner::finished, this, &ImageModel::finished);
    m_markTimer.setSingleShot(true);
    m_markTimer.setInterval(kStaleMarkMs);
    connect(&m_markTimer, &QTimer::timeout, this, [this] {
        if (!m_runner->busy() || !m_inPlace) return;
        m_marked = true;
        emit staleMarksChanged();
    });
}
ImageModel::~ImageModel() = default;

void ImageModel::setColumns(std::vector<ModelColumn> columns) {
    // The same models in the same places, analysed or being analysed for this image: nothing
    // to do (the window passes its columns again when the set and the columns change at once,
    // as a workspace's opening does). A model edited in place is analysed by analyzeAgain.
    bool same = columns.size() == m_columns.size() && !m_requested.empty();
    for (size_t c = 0; same && c < columns.size(); ++c)
        same = columns[c].model == m_columns[c].model;  // the names: m_requested below
    m_columns = std::move(columns);
    if (same && m_requested == columnNames(m_columns) && (busy() || m_resultsFor == m_requested))
        return;
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
    const bool wasMarked = m_marked;
    m_marked = false;
    m_markTimer.stop();
    if (m_pixels.empty() || m_columns.empty()) {
        m_runner->cancel();
        m_results.clear();
        m_selected.clear();
        m_fresh.clear();
        m_resultsFor.clear();
        m_inPlace = m_lastInPlace = false;
        emit resultsChanged();
        return;
    }
    // The same columns as the results shown: each is replaced as it comes; else the grid is
    // made again once every column is in.
    m_requested = columnNames(m_columns);
    m_inPlace = m_results.size() == m_columns.size() && m_resultsFor == m_requested;
    m_fresh.assign(m_results.size(), false);
    m_allInPlace = true;
    if (wasMarked) emit staleMarksChanged();
    if (m_inPlace) m_markTimer.start();
    m_runner->requestImage(m_columns, m_pixels, m_label, m_visible);
}

void ImageModel::columnReady(int c, const ColumnResult& result) {
    if (!m_inPlace || size_t(c) >= m_results.size()) return;  // all at once when finished
    if (m_request.shared) {  // one scale over every column: none is shown before all are in
        m_allInPlace = false;
        return;
    }
    m_results[size_t(c)] = result;
    m_selected.resize(m_results.size());
    m_selected[size_t(c)].reset();
    m_fresh[size_t(c)] = true;
    emit columnChanged(c);
}

void ImageModel::finished(std::shared_ptr<const Results> results) {
    m_markTimer.stop();
    const bool wasMarked = m_marked;
    m_marked = false;
    if (!m_inPlace || !m_allInPlace) {  // columns changed, or held back: the results at once
        m_results = *results;
        m_selected.assign(m_results.size(), std::nullopt);
    }
    m_resultsFor = m_requested;
    m_fresh.assign(m_results.size(), true);
    m_lastInPlace = m_inPlace && m_allInPlace;
    m_inPlace = false;
    if (wasMarked) emit staleMarksChanged();
    emit resultsChanged();
}

void ImageModel::analyzeNow() {
    m_runner->cancel();  // any run still going is stale now
    m_markTimer.stop();
    m_marked = false;
    m_inPlace = m_lastInPlace = false;
    m_results.clear();
    for (const ModelColumn& c : m_columns)
        m_results.push_back(analyzeImageColumn(c, m_pixels, m_label));
    m_resultsFor = m_requested = columnNames(m_columns);
    m_selected.assign(m_results.size(), std::nullopt);
    m_fresh.assign(m_results.size(), true);
    emit resultsChanged();
}

render::ImageColumn ImageModel::selectedColumn(int c) const {
    if (c < 0 || size_t(c) >= m_results.size()) throw Error("no such column");
    m_selected.resize(m_results.size());
    std::optional<Selected>& s = m_selected[size_t(c)];
    if (!s) {
        s = Selected();
        const ColumnResult& r = m_results[size_t(c)];
        try {
            if (!r.image) throw Error(r.error);
            render::ImageSelectionRequest q;
            q.layer = m_request.layer;
            q.heads = m_request.heads.toStdString();
            q.query = m_request.query;
            q.wording = render::wording(currentLanguage());
            s->column = render::selectImageColumn(*r.image, q);
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
