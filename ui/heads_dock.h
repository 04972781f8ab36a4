// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QElapsedTimer>
#include <QStringList>
#include <QWidget>
#include <atomic>
#include <memory>
#include <optional>
#include <vector>

#include "core/head_importance.h"
#include "core/image_set.h"
#include "core/result_stats.h"
#include "core/workspace.h"
#include "heads_columns.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;
class QTimer;
class QToolButton;

namespace attnviz::ui {

class ChartView;
class HeadsTableModel;
struct HeadsContent;
struct HeadsComputation;
struct PruneInput;
struct SetJob;
struct SetResult;
struct ImageSetOutcome;
class ImageModel;

// The Heads dock (issue 15): every head of every model column with its statistics for the
// current sentence (core/head_stats.h; definitions in docs/analysis.md), in a sortable,
// filterable table. "Over the sentence list" computes them over every sentence of the
// Sentences dock instead, with each head's input dependence and importance (Michel et al.
// 2019), with progress and cancel. Everything is computed on worker threads; clicking a row
// (or Enter) asks the window to show that head.
//
// "Pruning curves" (Michel et al. 2019, core/head_importance.h pruneHeads), once a set
// computation gave a model's importance: that model's heads removed one by one on a clone,
// least important first and in a random order, loss and BLEU over the same sentences after
// each removal, with the same progress and cancel; the curves then show in a window of their
// own (render::pruningCharts, the figure of `attnviz-cli render --prune`) that exports them.
//
// What the table shows: the set's statistics from the moment they arrive until the next
// setResults (a new current sentence), which shows the current sentence's again (the set
// columns then read "—"); the status line says so.
class HeadsDock : public QWidget, public HeadsColumns {
    Q_OBJECT
public:
    explicit HeadsDock(QWidget* parent = nullptr);
    ~HeadsDock() override;

    // New results for the workspace's columns (index = column): recomputes the table in a
    // worker thread; a newer call supersedes a running one (its result is dropped). A null
    // pointer clears the table at once.
    void setResults(std::shared_ptr<const attnviz::Results> results);
    // The same for the workspace's results, with their statistics shared with the other views
    // (core/result_stats.h). Computed only while the dock is seen: a hidden tab computes
    // nothing and catches up when shown.
    void setStats(std::shared_ptr<const attnviz::ResultStats> stats);
    // Image mode (issue 28) on or off. On: the table lists the image models' heads
    // (setImageHeads), the text tools (over the sentence list, pruning) are hidden and the
    // distance-by-layer chart can be shown beside the table; off: as before.
    void setImageMode(bool on);
    bool imageMode() const { return m_imageMode; }
    // Image models: every head of `layer` (-1: every layer) of each column's analysis of one
    // image (`model`'s results, index = column), with its entropy, confidence and, in the
    // Distance column, its mean attention distance in pixels (core/head_stats.h
    // meanAttentionDistance, docs/model-spec.md 4.4); no Gaussian fit, which is of a line of
    // tokens. The chart: each model's heads' distances by layer on the image (Dosovitskiy et
    // al. 2021, Fig. 7; render::distanceByLayerChart, the figure of `attnviz-cli render
    // --distance-by-layer`). Both are computed when seen: a hidden dock, or the chart while
    // hidden, computes nothing and catches up when shown. `model` outlives the dock's use.
    // `newResults`: the model's results changed (else only the layer may have).
    void setImageHeads(const ImageModel* model, int layer, bool newResults = true);
    // The test images "Over test images" reads (the image chooser's; they may still be loading:
    // an empty set). `images` outlives the dock's use of it.
    // `task` names them in the tooltip (core/image_set.h: "fashion-mnist", "clothing-photos").
    void setTestImages(const attnviz::ImageSet* images, const std::string& task);
    // "Over test images" (image mode; what the button does): per model, on a clone taken under
    // its lock, the first kTestImages test images (fewer when there are fewer) analysed in a
    // worker thread, each head's mean attention distance over all of them
    // (core/head_table.h analyzeImageSet, as `attnviz-cli analyze --fashion-mnist-count`):
    // the table's Distance column and the chart then show those, with the same progress and
    // cancel as over sentences, until another image is chosen. False with *why when there are
    // no image models or test images. Cancels a running computation first.
    bool computeOverTestImages(QString* why = nullptr);
    static constexpr int kTestImages = 1000;  // as docs/results.md's distances
    QPushButton* overImagesButton() const { return m_overImages; }
    QToolButton* chartToggle() const { return m_chartToggle; }
    ChartView* distanceChart() const { return m_distanceChart; }
    // How many times the image table and the chart were computed (tests: hidden costs none).
    int imageComputations() const { return m_imageComputations; }
    int chartComputations() const { return m_chartComputations; }
    // Which heads the table lists: those of this block kind and layer (what the grid shows),
    // or every head of every block (layer -1, the default).
    void setBlock(attnviz::BlockKind kind, int layer);
    // Whether a person can see the dock (QDockWidget::visibilityChanged: a tab behind
    // another is "visible" to Qt but not seen). Unseen, it computes nothing; seen again, it
    // catches up. True until told otherwise.
    void setSeen(bool seen);

    // The workspace's model columns and the sentence list's lines ("source" or
    // "source\ttarget"), for "Over the sentence list". Cheap: only stored (the window calls it
    // when either changes); a running set computation over other models or lines is cancelled.
    void setSentenceSet(std::vector<attnviz::ModelColumn> columns, QStringList lines);
    // Starts the set computation (what the button does): per model, on a clone taken under
    // its lock, every sentence analysed, each head's statistics over them, and its importance
    // when there are targets (or for language models). False with *why when there is nothing
    // to do (no models, fewer than 2 usable sentences). Cancels a running one first.
    bool computeOverSet(QString* why = nullptr);
    void cancel();  // stops a running set computation or pruning (its result is dropped)
    bool setBusy() const { return m_setJob != nullptr; }

    // Starts the pruning curves of the model chosen beside the button (what the button does),
    // over the sentences and with the importance of the last set computation, on a clone in a
    // worker thread; the random order's seed is kPruneSeed. False with *why when no model has
    // importance or a computation runs. When done the curves replace the last ones and their
    // window shows them; cancelled or failed, the last ones stay and the status line says so.
    // Models or sentences that change (setSentenceSet) drop the importance it needs.
    bool computePruning(QString* why = nullptr);
    bool pruneBusy() const { return m_pruneJob != nullptr; }
    // The last finished curves and their model's name; null when none.
    const attnviz::PruneCurves* pruneCurves() const { return m_curves ? &*m_curves : nullptr; }
    QString pruneModelName() const { return m_curvesModel; }
    // The curves as a figure file (.svg, .pdf or .png by extension; the page and style of
    // `attnviz-cli render --prune`): what the window's Export… button writes. False with
    // *error when there are no curves or the file cannot be written.
    bool exportPruning(const QString& path, QString* error) const;

    QTableView* table() const { return m_view; }  // for tests
    QLabel* status() const { return m_status; }
    // Two or more messages (skipped sentences, failed models, why input dependence is "—")
    // are folded under a toggle ("Messages (3)") below the status line; one is in the line.
    QToolButton* notesToggle() const { return m_notesToggle; }
    QLabel* notes() const { return m_notes; }
    // Rows whose model name contains the text; in image mode the distance chart's models too.
    QLineEdit* filter() const { return m_filter; }
    QProgressBar* progress() const { return m_progress; }  // for tests
    // Beside the progress bar while a computation runs: the sentence (or, pruning, the
    // evaluation) it is at of how many, and the time left at the rate so far ("Sentence 12 of
    // 40 · model 1 of 2 · about 30 s left"); hidden otherwise.
    QLabel* progressText() const { return m_eta; }
    QPushButton* overSetButton() const { return m_overSet; }
    QPushButton* cancelButton() const { return m_cancel; }
    QPushButton* pruneButton() const { return m_prune; }
    QComboBox* pruneModels() const { return m_pruneModels; }  // the models with importance
    QWidget* pruneWindow() const { return m_pruneWindow; }    // null before the first curves
    ChartView* pruneChart() const { return m_pruneChart; }    // in that window
    bool busy() const;      // a computation is running whose result will be shown
    int headCount() const;  // rows of the table
    bool showsSet() const { return m_showSet; }  // the table shows the set's statistics

signals:
    // The user clicked (or pressed Enter on) the row of this head.
    void headActivated(int column, attnviz::BlockKind kind, int layer, int head);
    // A computation finished and the table was updated (also after a null setResults, and
    // when a set computation finished).
    void computed();
    // Pruning curves arrived and their window shows them.
    void pruned();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void showEvent(QShowEvent* event) override;
    // On QEvent::LanguageChange every text again: the controls', the table's headers, and
    // those made from counts (the status line, the Pruning button's tooltip, the pruning
    // curves), from what is already computed.
    void changeEvent(QEvent* event) override;

private:
    void setUpTable();       // the view over the sorting, filtering proxy of the model
    void layOutControls();   // the controls' row above the table
    void connectControls();  // the table's clicks, the filter, the buttons and the poll timer
    bool seen() const;
    void refresh();  // the current sentence's table, for the current scope
    void showComputation(HeadsComputation c);
    void retranslateUi();
    void retranslateData();
    void activate(const QModelIndex& proxyIndex);
    void showContent(const HeadsContent& content, bool overSet);
    void setFinished(const SetJob& job, SetResult result);
    void pruneFinished(const SetJob& job, attnviz::PruneCurves curves, const QString& name);
    void showCurves();
    void exportFromDialog();
    void startRun(int steps, const QString& what);
    void showProgress();  // the bar's value and the line beside it, from the running job
    void endRun();
    void setPrunable(std::vector<PruneInput> prunable);
    void updateStatus();
    void refreshImage();  // the image table and chart, when seen and out of date
    void showImageHeads();
    void showDistanceChart();
    void imageSetFinished(const SetJob& job, ImageSetOutcome outcome);

    HeadsTableModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_view;
    QLabel* m_status;
    QToolButton* m_notesToggle;
    QLabel* m_notes;  // the folded messages, shown while m_notesToggle is checked
    QLineEdit* m_filter;
    QPushButton* m_overSet;
    QProgressBar* m_progress;
    QLabel* m_eta;
    QElapsedTimer m_runClock;  // since the running computation started
    // The running set computation's sentences per model and models (0: pruning runs).
    int m_runSentences = 0, m_runModels = 0;
    QPushButton* m_cancel;
    QPushButton* m_prune;
    QComboBox* m_pruneModels;
    QTimer* m_poll;  // reads the running computation's progress
    // The newest request; a worker whose request is older stops early, and its result is
    // dropped. Shared with the workers, which may outlive the dock.
    std::shared_ptr<std::atomic<int>> m_latest = std::make_shared<std::atomic<int>>(0);
    int m_shown = 0;                                      // the newest finished request
    std::shared_ptr<const attnviz::ResultStats> m_stats;  // the current sentence's
    attnviz::BlockKind m_kind = attnviz::BlockKind::EncoderSelf;
    int m_layer = -1;                         // -1: every head
    bool m_stale = false;                     // hidden when the inputs changed: refresh when shown
    bool m_seen = true;                       // setSeen
    std::unique_ptr<HeadsContent> m_current;  // its rows and status
    std::unique_ptr<HeadsContent> m_set;      // the last finished set computation's
    bool m_showSet = false;                   // the table shows m_set, else m_current
    // For "Over the sentence list".
    std::vector<attnviz::ModelColumn> m_columns;
    QStringList m_lines;
    std::shared_ptr<SetJob> m_setJob;  // the running set computation, null when none
    QString m_setNote;  // why the button did nothing, or that a run was cancelled or failed
    // For "Pruning curves": per model with importance, what the last set computation used.
    std::vector<PruneInput> m_prunable;
    std::shared_ptr<SetJob> m_pruneJob;            // the running pruning, null when none
    std::optional<attnviz::PruneCurves> m_curves;  // the last finished
    QString m_curvesModel;                         // their model's name
    QString m_pruneNote;                           // the same as m_setNote, for pruning
    QWidget* m_pruneWindow = nullptr;              // non-modal; made with the first curves
    ChartView* m_pruneChart = nullptr;
    QLabel* m_pruneInfo = nullptr;  // under the charts: what they show, the last export
    // Image mode: the model whose results are shown, its layer, and what is out of date.
    bool m_imageMode = false;
    const ImageModel* m_image = nullptr;
    int m_imageLayer = -1;
    bool m_imageStale = false, m_chartStale = false;
    QToolButton* m_chartToggle = nullptr;
    ChartView* m_distanceChart = nullptr;
    int m_imageComputations = 0, m_chartComputations = 0;
    // Over test images: the button, the images, whether the running job reads images, and the
    // last finished run's distances for the chart (shown while m_showSet).
    QPushButton* m_overImages = nullptr;
    const attnviz::ImageSet* m_testImages = nullptr;
    std::string m_testTask = "fashion-mnist";  // whose test images they are
    bool m_runImages = false;
    std::unique_ptr<ImageSetOutcome> m_imageSet;
};

}  // namespace attnviz::ui
