// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The image set's state in the app (issue 28): the image models shown as columns, the image
// they read, what the panels select (layer, heads, query) and how the overlay looks, and each
// model's analysis of the image. The analyses take the text's road (ui/analysis_runner.h): a
// job per model on the background pool, the columns on screen first, each result shown as it
// comes (columnChanged) when the columns are those already shown, an older image's jobs not
// started skipped and its results dropped, and the panels of a run that takes longer than
// kStaleMarkMs marked as updating (staleMarked). Widgets (ui/image_view.h) only draw it.
//
//   ImageModel m;
//   m.setColumns(columns);                     // image models (arch "vit")
//   m.setImage(pixels, label);                 // [28²] → resultsChanged() once analysed
//   m.setQuery(ImageQuery::patch(3, 4));       // patch row 3, column 4 in every panel
//   render::ImageColumn c = m.selectedColumn(0);
#include <QObject>
#include <QString>
#include <QTimer>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "analysis_runner.h"
#include "core/workspace.h"
#include "render/image_figure.h"

namespace attnviz::ui {

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

    // Models that do not read images get an error instead of a result. Analyses again, unless
    // they are the models (and names) in the places already analysed or being analysed.
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

    // The analyses, one per column (empty before the first): ColumnResult::image, or the
    // error. Those of the last finished run, with each column of the run in progress replaced
    // as it comes while the columns are the same.
    const Results& results() const { return m_results; }
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
    bool busy() const { return m_runner->busy(); }
    // The run that finished last replaced the results in place, column by column
    // (columnChanged for each): its columns were those already shown.
    bool lastRunInPlace() const { return m_lastInPlace; }
    // Analyses in this thread at once (tests, export).
    void analyzeNow();
    // Analyses the same image with the same columns again: a model was reconfigured in place.
    void analyzeAgain() { analyze(); }
    // Column c's result is of an earlier image and has been for kStaleMarkMs (the panels say
    // "updating"); a quicker analysis replaces it without a mark.
    bool staleMarked(int c) const {
        return m_marked && size_t(c) < m_fresh.size() && !m_fresh[size_t(c)];
    }
    static constexpr int kStaleMarkMs = 150;
    // For tests: the runner, whose hooks can hold the analyses back.
    AnalysisRunner* runner() const { return m_runner; }
    // The columns on screen, analysed before the others (ImageGrid tells).
    void setVisibleColumns(std::vector<int> columns) { m_visible = std::move(columns); }

signals:
    void resultsChanged();      // a run finished: results() are the current image's
    void columnChanged(int c);  // column c's result arrived ahead of the others
    void staleMarksChanged();   // staleMarked changed
    void requestChanged();      // layer, heads, query or style changed: the panels redraw

private:
    void analyze();
    void columnReady(int c, const ColumnResult& result);
    void finished(std::shared_ptr<const Results> results);
    std::vector<ModelColumn> m_columns;
    std::vector<uint8_t> m_pixels;
    std::optional<int> m_label;
    std::string m_source;
    ImageRequest m_request;
    Results m_results;
    struct Selected {  // a column's selectedColumn, or its error
        std::optional<render::ImageColumn> column;
        std::string error;
    };
    mutable std::vector<std::optional<Selected>> m_selected;  // per result; made when asked
    AnalysisRunner* m_runner;
    std::vector<int> m_visible;  // setVisibleColumns
    bool m_inPlace = false;      // the run's columns are those of m_results: replaced as they come
    std::vector<bool> m_fresh;   // per result: of the current image
    bool m_marked = false;       // the run has taken kStaleMarkMs
    bool m_lastInPlace = false;  // lastRunInPlace
    bool m_allInPlace = true;    // every column of the run was shown as it came (not held back)
    // The columns (their names) the results are of, and those of the run asked for last.
    std::vector<std::string> m_resultsFor, m_requested;
    QTimer m_markTimer;
};

// A class's name for people: the ten Fashion-MNIST classes and the ten clothing photos' classes
// in the installed language, any other name as the model's file gives it.
QString classLabel(const std::string& name);
// An image task's name for people (core/image_set.h): "Fashion-MNIST", "clothing-photo" (as in
// "the %1 test images") in the installed language, any other task by its name.
QString taskLabel(const std::string& task);

}  // namespace attnviz::ui
