// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The image set's state in the app (issue 28): the image models shown as columns, the image
// they read, what the panels select (layer, heads, query) and how the overlay looks, and each
// model's analysis of the image, made on a worker thread (ui/background.h) and dropped when a
// newer image or set of columns came meanwhile. Widgets (ui/image_view.h) only draw it.
//
//   ImageModel m;
//   m.setColumns(columns);                     // image models (arch "vit")
//   m.setImage(pixels, label);                 // [28²] → resultsChanged() once analysed
//   m.setQuery(ImageQuery::patch(3, 4));       // patch row 3, column 4 in every panel
//   render::ImageColumn c = m.selectedColumn(0);
#include <QObject>
#include <QString>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "core/workspace.h"
#include "render/image_figure.h"

namespace attnviz::ui {

// One column's analysis of the image: the result, or why the model could not read it.
struct ImageColumnResult {
    std::string name;
    std::optional<render::ImageModelResult> result;
    std::string error;
};

// What the panels show and how.
struct ImageRequest {
    int layer = -1;                // the layer shown (rollout: through it); -1: the last
    QString heads = "all";         // "all", "mean" or "rollout"
    ImageQuery query;              // pooled, the class token or a patch (core/rollout.h)
    double opacity = 0.6;          // of the overlay, 0 … 1
    QString colormap = "viridis";  // render/colormaps.h
    bool shared = false;           // every panel on one colour scale (sharedTop), with a bar
    bool operator==(const ImageRequest& o) const;
};

class ImageModel : public QObject {
    Q_OBJECT
public:
    explicit ImageModel(QObject* parent = nullptr);
    ~ImageModel() override;

    // Models that do not read images get an error instead of a result. Analyses again.
    void setColumns(std::vector<ModelColumn> columns);
    const std::vector<ModelColumn>& columns() const { return m_columns; }
    // The image every model reads: [S²] pixels 0 … 255, row-major, with its class when known
    // (a Fashion-MNIST test image) and where it came from, for data files ("fashion-mnist
    // test image 7", as the CLI's dump says). Analyses again in the background.
    void setImage(std::vector<uint8_t> pixels, std::optional<int> label = std::nullopt,
                  const std::string& source = {});
    const std::vector<uint8_t>& image() const { return m_pixels; }
    std::optional<int> label() const { return m_label; }
    const std::string& source() const { return m_source; }

    const ImageRequest& request() const { return m_request; }
    void setRequest(const ImageRequest& r);
    void setQuery(const ImageQuery& query);  // keeps the rest of the request

    // The analyses of the last finished run, one per column (empty before the first).
    const std::vector<ImageColumnResult>& results() const { return m_results; }
    // Column `c`'s panels as the request selects them; Error when the request cannot be
    // (a layer the model lacks, "cls" on a model without class token) or it has no result.
    // Made when first asked, once per result and request: a column nobody shows costs nothing.
    render::ImageColumn selectedColumn(int c) const;
    // Every column's selectedColumn that can be made (a model that cannot is left out: its
    // panel says why), in column order: what the exports hold.
    std::vector<render::ImageColumn> selectedColumns() const;
    // Forgets the selections made (their titles are in the interface's language): after the
    // language changed.
    void dropSelections() { m_selected.assign(m_results.size(), std::nullopt); }
    // The top of the shared colour scale: the largest patch weight of every column's panels
    // (so every column is selected); 1 when there is none.
    double sharedTop() const;
    bool busy() const { return m_running; }
    // Analyses in this thread at once (tests, export).
    void analyzeNow();

signals:
    void resultsChanged();  // a run finished: results() are the current image's
    void requestChanged();  // layer, heads, query or style changed: the panels redraw

private:
    void analyze();
    std::vector<ModelColumn> m_columns;
    std::vector<uint8_t> m_pixels;
    std::optional<int> m_label;
    std::string m_source;
    ImageRequest m_request;
    std::vector<ImageColumnResult> m_results;
    struct Selected {  // a column's selectedColumn, or its error
        std::optional<render::ImageColumn> column;
        std::string error;
    };
    mutable std::vector<std::optional<Selected>> m_selected;  // per result; made when asked
    uint64_t m_generation = 0;  // of the newest run asked for; older ones are dropped
    bool m_running = false;
};

// A class's name for people: the ten Fashion-MNIST classes and the ten clothing photos' classes
// in the installed language, any other name as the model's file gives it.
QString classLabel(const std::string& name);
// An image task's name for people (core/image_set.h): "Fashion-MNIST", "clothing-photo" (as in
// "the %1 test images") in the installed language, any other task by its name.
QString taskLabel(const std::string& task);

// Every column analysed on `pixels` (each under its lock), as the worker does.
std::vector<ImageColumnResult> analyzeImageColumns(const std::vector<ModelColumn>& columns,
                                                   const std::vector<uint8_t>& pixels,
                                                   std::optional<int> label);

}  // namespace attnviz::ui
