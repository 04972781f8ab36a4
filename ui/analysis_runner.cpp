// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis_runner.h"

#include <QCoreApplication>
#include <QThreadPool>
#include <algorithm>
#include <atomic>
#include <mutex>

#include "background.h"
#include "core/error.h"
#include "core/image_selection.h"

namespace attnviz::ui {

namespace {

QString failedText(const std::exception& e) {
    return QCoreApplication::translate("attnviz::ui::AnalysisRunner", "the analysis failed: %1")
        .arg(QString::fromUtf8(e.what()));
}

// An image model's result for a sentence, made without running it. Its configuration is read
// in the UI thread, where it is only ever changed (Variant tab, opening a workspace).
ColumnResult imageColumnResult(const ModelColumn& c) {
    ColumnResult r;
    r.name = c.name;
    r.error = QCoreApplication::translate("attnviz::ui::AnalysisRunner",
                                          "an image model: it reads images, not sentences "
                                          "(choose the image set in the Models box)")
                  .toStdString();
    return r;
}

// A text model's result for an image, made without running it (as imageColumnResult).
ColumnResult textColumnResult(const ModelColumn& c) {
    ColumnResult r;
    r.name = c.name;
    r.error = QCoreApplication::translate("attnviz::ui::AnalysisRunner",
                                          "a text model: it reads sentences, not images")
                  .toStdString();
    return r;
}

bool readsImages(const ModelColumn& c) {
    return c.model && c.model->config().isVision();
}

}  // namespace

Results analyzeCatching(const std::vector<ModelColumn>& columns, const std::string& source,
                        const std::string& target) {
    std::vector<ModelColumn> text;  // image models read no sentence: not run
    for (const ModelColumn& c : columns)
        if (!readsImages(c)) text.push_back(c);
    Results analysed;
    try {
        analysed = analyzeAll(text, source, target);
    } catch (const std::exception& e) {
        analysed.assign(text.size(), {});
        for (size_t i = 0; i < text.size(); ++i) {
            analysed[i].name = text[i].name;
            analysed[i].error = failedText(e).toStdString();
        }
    }
    Results out;
    size_t next = 0;
    for (const ModelColumn& c : columns)
        out.push_back(readsImages(c) ? imageColumnResult(c) : std::move(analysed[next++]));
    return out;
}

struct AnalysisRunner::Request {
    std::vector<ModelColumn> columns;
    std::string source, target;
    struct Image {
        std::vector<uint8_t> pixels;  // [S, S, channels]
        std::optional<int> label;
    };
    std::optional<Image> image;  // an image request (requestImage): no source or target
    std::function<void(int)> beforeWhole, beforeSource;
    std::atomic<bool> cancel{false};
    // The jobs in the order they run: the input check (column -1), every first stage, every
    // whole analysis, each stage's columns asked for first. The request's workers take them
    // in turn (QThreadPool's priorities are not kept when a task wakes an idle thread).
    std::vector<std::pair<AnalysisStage, int>> jobs;
    std::atomic<size_t> next{0};
    // Per column: its result is final already (an input error, or a first stage that was
    // the whole analysis): later stages are skipped.
    std::unique_ptr<std::atomic<bool>[]> done;
};

// Jobs post here; the runner's destructor clears `runner` under the lock, so that no job
// posts to a runner that is gone (Qt drops events posted to it before it went).
struct AnalysisRunner::Inbox {
    std::mutex mutex;
    AnalysisRunner* runner = nullptr;

    void post(const std::shared_ptr<Request>& r, int column, Stage stage, ColumnResult result) {
        std::lock_guard<std::mutex> g(mutex);
        if (!runner) return;
        QMetaObject::invokeMethod(
            runner,
            [to = runner, r, column, stage, result = std::move(result)] {
                to->receive(r, column, stage, result);
            },
            Qt::QueuedConnection);
    }

    // Stage Source or Whole of column c, posted; Cancelled when the request went stale.
    void run(const std::shared_ptr<Request>& r, int c, AnalysisStage stage) {
        if (r->done[size_t(c)]) return;
        if (r->cancel) return post(r, c, Stage::Cancelled, {});
        if (stage == AnalysisStage::Whole && r->beforeWhole) r->beforeWhole(c);
        if (stage == AnalysisStage::Source && r->beforeSource) r->beforeSource(c);
        if (r->cancel) return post(r, c, Stage::Cancelled, {});  // went stale while held back
        const ModelColumn& column = r->columns[size_t(c)];
        ColumnResult out;
        try {
            out = r->image ? analyzeImageColumn(column, r->image->pixels, r->image->label)
                           : analyzeColumn(column, r->source, r->target, stage, &r->cancel);
        } catch (const Cancelled&) {
            return post(r, c, Stage::Cancelled, {});
        } catch (const std::exception& e) {
            out.name = column.name;
            out.error = failedText(e).toStdString();
        }
        if (!out.partial) r->done[size_t(c)] = true;
        post(r, c, stage == AnalysisStage::Source ? Stage::Source : Stage::Whole, std::move(out));
    }

    // One of the request's workers: runs its jobs in turn until none is left.
    void work(const std::shared_ptr<Request>& r) {
        for (size_t k; (k = r->next++) < r->jobs.size();) {
            const auto [stage, column] = r->jobs[k];
            if (column < 0)
                check(r);
            else
                run(r, column, stage);
        }
    }

    // Every column's input check; a column refused gets its (final) error at once.
    void check(const std::shared_ptr<Request>& r) {
        if (r->cancel) return post(r, -1, Stage::Cancelled, {});
        for (size_t c = 0; c < r->columns.size(); ++c) {
            if (r->done[c] || inputError(r->columns[c], r->source, r->target).empty()) continue;
            r->done[c] = true;  // the first stage gives the same error, named as always:
            post(r, int(c), Stage::Checked,
                 analyzeColumn(r->columns[c], r->source, r->target, AnalysisStage::Source));
        }
    }
};

AnalysisRunner::AnalysisRunner(QObject* parent)
    : QObject(parent), m_inbox(std::make_shared<Inbox>()) {
    m_inbox->runner = this;
    m_pause.setSingleShot(true);
    m_pause.setInterval(kTypingPauseMs);
    connect(&m_pause, &QTimer::timeout, this, [this] {
        if (!m_waiting) return;
        m_waiting = false;
        const auto next = std::move(m_next);
        next();
    });
}

AnalysisRunner::~AnalysisRunner() {
    {
        std::lock_guard<std::mutex> g(m_inbox->mutex);
        m_inbox->runner = nullptr;
    }
    if (m_current) m_current->cancel = true;
}

bool AnalysisRunner::busy() const {
    return m_waiting || m_current != nullptr;
}

void AnalysisRunner::cancel() {
    m_waiting = false;
    m_next = nullptr;
    if (m_current) m_current->cancel = true;
    m_current.reset();
}

void AnalysisRunner::requestAfterTyping(const std::vector<ModelColumn>& columns,
                                        const std::string& source, const std::string& target,
                                        const std::vector<int>& first) {
    // An edit while nothing runs, or the first after a pause, is analysed at once.
    const bool typing = m_pause.isActive() && busy();
    m_pause.start();  // restarted by every edit of a burst
    if (!typing) {
        request(columns, source, target, first);
        return;
    }
    // Nobody will see the sentence being analysed: stop it now, analyse the newest later.
    cancel();
    m_waiting = true;
    m_next = [this, columns, source, target, first] { request(columns, source, target, first); };
}

void AnalysisRunner::request(const std::vector<ModelColumn>& columns, const std::string& source,
                             const std::string& target, const std::vector<int>& first) {
    auto r = std::make_shared<Request>();
    r->columns = columns;
    r->source = source;
    r->target = target;
    // Image models read no sentence: their result is final at once, and no job runs them.
    std::vector<std::optional<ColumnResult>> now(columns.size());
    for (size_t c = 0; c < columns.size(); ++c)
        if (readsImages(columns[c])) now[c] = imageColumnResult(columns[c]);
    launch(r, std::move(now), first);
}

void AnalysisRunner::requestImage(const std::vector<ModelColumn>& columns,
                                  std::vector<uint8_t> pixels, std::optional<int> label,
                                  const std::vector<int>& first) {
    auto r = std::make_shared<Request>();
    r->columns = columns;
    r->image = Request::Image{std::move(pixels), label};
    std::vector<std::optional<ColumnResult>> now(columns.size());
    for (size_t c = 0; c < columns.size(); ++c)
        if (!readsImages(columns[c])) now[c] = textColumnResult(columns[c]);
    launch(r, std::move(now), first);
}

void AnalysisRunner::launch(const std::shared_ptr<Request>& r,
                            std::vector<std::optional<ColumnResult>> now,
                            const std::vector<int>& first) {
    cancel();
    const std::vector<ModelColumn>& columns = r->columns;
    r->beforeWhole = m_beforeWhole;
    r->beforeSource = m_beforeSource;
    r->done = std::make_unique<std::atomic<bool>[]>(columns.size());
    m_current = r;
    m_stage.assign(columns.size(), 0);
    m_results.assign(columns.size(), {});
    std::vector<bool> final(columns.size(), false);  // `now` holds its result
    for (size_t c = 0; c < columns.size(); ++c) {
        m_results[c].name = columns[c].name;
        final[c] = now[c].has_value();
        r->done[c] = final[c];
        if (final[c]) m_inbox->post(r, int(c), Stage::Checked, std::move(*now[c]));
    }
    std::vector<int> order;
    for (int c : first)
        if (c >= 0 && c < int(columns.size()) &&
            std::find(order.begin(), order.end(), c) == order.end())
            order.push_back(c);
    for (int c = 0; c < int(columns.size()); ++c)
        if (std::find(order.begin(), order.end(), c) == order.end()) order.push_back(c);
    order.erase(std::remove_if(order.begin(), order.end(), [&](int c) { return final[size_t(c)]; }),
                order.end());
    if (order.empty() && !columns.empty()) return;  // every column posted already
    if (columns.empty()) {  // nothing to run: finished all the same, as a result would come
        QMetaObject::invokeMethod(
            this,
            [this, r] {
                if (r == m_current) finishIfDone();
            },
            Qt::QueuedConnection);
        return;
    }
    if (!r->image) {
        r->jobs.emplace_back(AnalysisStage::Source, -1);  // the input check
        // The encoder's maps first only when the whole analysis decodes: with a target given
        // it is one forward pass, as quick as the first stage, which would only add a second.
        if (r->target.empty())
            for (int c : order) r->jobs.emplace_back(AnalysisStage::Source, c);
    }
    for (int c : order) r->jobs.emplace_back(AnalysisStage::Whole, c);
    QThreadPool* pool = backgroundPool();
    const int workers = std::min(pool->maxThreadCount(), int(r->jobs.size()));
    for (int k = 0; k < workers; ++k) pool->start([inbox = m_inbox, r] { inbox->work(r); });
}

void AnalysisRunner::receive(const std::shared_ptr<Request>& request, int column, Stage stage,
                             const ColumnResult& result) {
    if (stage == Stage::Cancelled) ++m_cancelledJobs;
    if (request != m_current || stage == Stage::Cancelled) return;  // stale: never shown
    const size_t c = size_t(column);
    if (c >= m_stage.size() || m_stage[c] == 2) return;
    m_stage[c] = stage == Stage::Source && result.partial ? 1 : 2;
    m_results[c] = result;
    emit columnReady(column, result);
    finishIfDone();
}

void AnalysisRunner::finishIfDone() {
    if (!m_current || !std::all_of(m_stage.begin(), m_stage.end(), [](int s) { return s == 2; }))
        return;
    m_current.reset();
    emit finished(std::make_shared<const Results>(std::move(m_results)));
}

}  // namespace attnviz::ui
