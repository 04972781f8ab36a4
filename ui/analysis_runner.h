// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QTimer>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/workspace.h"

namespace attnviz::ui {

// analyzeAll, but an exception from it (a model's metadata the engine trips over) becomes
// each column's error instead of ending the app from a worker thread. Image models (arch
// "vit") are not run: their result is at once the error that they read images.
Results analyzeCatching(const std::vector<ModelColumn>& columns, const std::string& source,
                        const std::string& target);

// Runs the analysis of a sentence on the background pool (ui/background.h) in stages and
// reports each column's results in the UI thread as they come:
//   1. every model's input check (core/workspace.h inputError): a sentence too long for a
//      model is refused at once, before any model runs;
//   2. when the target is to be decoded, each model's first stage (AnalysisStage::Source:
//      the encoder's maps, no decoding; with a target given the whole analysis is as quick);
//   3. each model's whole analysis (decoding, decoder and cross-attention maps).
// Within a stage the columns asked for first (those on screen) go first. An image model is
// never run on a sentence: its result, an error saying it reads images, comes at once. A new
// request makes the older one stale: its jobs not started are skipped, its decoding is cancelled,
// and whatever it still delivers is dropped, never shown.
// An image (requestImage) takes the same road in one stage: each image model's analysis
// (core/image_selection.h analyzeImageColumn, ColumnResult::image) is a job of its own, the
// columns on screen first; a text model's result, an error saying it reads sentences, comes at
// once.
class AnalysisRunner : public QObject {
    Q_OBJECT
public:
    explicit AnalysisRunner(QObject* parent = nullptr);
    ~AnalysisRunner() override;

    // Analyses now; `first`: column indices to analyse before the others in each stage.
    void request(const std::vector<ModelColumn>& columns, const std::string& source,
                 const std::string& target, const std::vector<int>& first = {});
    // Every column's analysis of one image ([S, S, channels] pixels 0 … 255, with its label
    // when known), in one stage: columnReady with each whole result, then finished.
    void requestImage(const std::vector<ModelColumn>& columns, std::vector<uint8_t> pixels,
                      std::optional<int> label, const std::vector<int>& first = {});
    // The same after a short pause while the user is still typing: an edit after a pause
    // (kTypingPauseMs) or while nothing runs is analysed at once; an edit of a burst while an
    // analysis runs cancels it, and the newest is analysed once the typing pauses.
    void requestAfterTyping(const std::vector<ModelColumn>& columns, const std::string& source,
                            const std::string& target, const std::vector<int>& first = {});
    static constexpr int kTypingPauseMs = 150;
    // Makes the current request stale without a new one (an analysis was made elsewhere).
    void cancel();
    // A request is waiting for the typing pause or has columns not yet wholly analysed.
    bool busy() const;
    // Jobs of stale requests that were skipped or whose decoding was cancelled (for tests).
    int cancelledJobs() const { return m_cancelledJobs; }
    // For tests: called on the worker thread before each whole analysis (stage 3) starts,
    // with the column's index; it may block to hold the decoding back.
    void setBeforeWhole(std::function<void(int column)> hook) { m_beforeWhole = std::move(hook); }
    // The same before each first stage (stage 2): a slow model's encoder (for tests).
    void setBeforeSource(std::function<void(int column)> hook) { m_beforeSource = std::move(hook); }

    struct Request;  // one request and its jobs' shared state (analysis_runner.cpp)
    struct Inbox;    // where jobs post their results while the runner lives

signals:
    // A stage of column `column` of the current request: its first stage (result.partial) or
    // its whole analysis (or an error, which is final).
    void columnReady(int column, const attnviz::ColumnResult& result);
    // Every column of the current request wholly analysed (in column order).
    void finished(std::shared_ptr<const attnviz::Results> results);

private:
    enum class Stage { Checked, Source, Whole, Cancelled };
    void receive(const std::shared_ptr<Request>& request, int column, Stage stage,
                 const ColumnResult& result);
    // Runs `r` (made by request or requestImage): a column with a result in `now` is final at
    // once (a model that does not read this kind of input), the others are run by jobs.
    void launch(const std::shared_ptr<Request>& r, std::vector<std::optional<ColumnResult>> now,
                const std::vector<int>& first);
    void finishIfDone();

    std::shared_ptr<Inbox> m_inbox;
    std::shared_ptr<Request> m_current;
    std::vector<int> m_stage;  // per column of the current request: 0 none, 1 first, 2 whole
    Results m_results;         // of the current request, as they come
    int m_cancelledJobs = 0;
    std::function<void(int)> m_beforeWhole, m_beforeSource;
    // The typing pause: running while edits come quickly; the newest edit waits in m_next.
    QTimer m_pause;
    bool m_waiting = false;
    std::function<void()> m_next;
};

}  // namespace attnviz::ui
