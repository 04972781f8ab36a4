// SPDX-License-Identifier: GPL-3.0-or-later
// The app's threads around shared models: the analysis runner (ui/analysis_runner.h, analyzeAll
// on a QtConcurrent worker) flooded with requests while the UI thread analyses the same columns,
// and several threads running analyzeAll on one set of models at once. Cheap in the normal
// suite; its real purpose is the ThreadSanitizer build (preset "tsan", scripts/sanitize --tsan),
// where any data race fails it.
#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QEventLoop>
#include <QTimer>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "core/workspace.h"
#include "ui/analysis_runner.h"

using namespace attnviz;

namespace {

std::vector<ModelColumn> bundledColumns() {
    std::vector<ModelColumn> columns;
    for (const char* f : {"01-dot.safetensors", "02-dense.safetensors", "09-hc-sa.safetensors"})
        columns.push_back(loadModelColumn(std::string(ATTNVIZ_MODELS_DIR) + "/" + f));
    return columns;
}

const char* const kSentences[] = {"i want to go", "the station is far", "she reads a book",
                                  "we go home now", "they like the city"};

}  // namespace

TEST(Concurrency, AnalyzeAllFromSeveralThreadsOnSharedModels) {
    const std::vector<ModelColumn> columns = bundledColumns();
    const Results expected = analyzeAll(columns, "i want to go", "");
    std::vector<std::thread> threads;
    std::vector<int> ok(4, 0);
    for (int t = 0; t < 4; ++t)
        threads.emplace_back([&, t] {
            for (int i = 0; i < 5; ++i) {
                const Results r = analyzeAll(columns, kSentences[(t + i) % 5], "");
                if (r.size() == columns.size()) ++ok[t];
            }
        });
    for (auto& th : threads) th.join();
    for (int t = 0; t < 4; ++t) EXPECT_EQ(ok[t], 5);
    const Results again = analyzeAll(columns, "i want to go", "");
    ASSERT_EQ(again.size(), expected.size());
    for (size_t i = 0; i < again.size(); ++i) {
        EXPECT_EQ(again[i].error, expected[i].error);
        EXPECT_EQ(again[i].name, expected[i].name);
    }
}

TEST(Concurrency, AnalysisRunnerFloodedWhileTheUiThreadAnalyses) {
    int argc = 1;
    char name[] = "attnviz_concurrency_tests";
    char* argv[] = {name, nullptr};
    QCoreApplication app(argc, argv);
    const std::vector<ModelColumn> columns = bundledColumns();

    ui::AnalysisRunner runner;
    std::vector<std::shared_ptr<const Results>> delivered;
    QObject::connect(&runner, &ui::AnalysisRunner::finished,
                     [&](std::shared_ptr<const Results> r) { delivered.push_back(std::move(r)); });
    // Requests faster than the worker finishes them: most become stale and are coalesced;
    // meanwhile the UI thread runs analyses of its own on the same models (workspace_model.cpp).
    for (int i = 0; i < 20; ++i) {
        runner.request(columns, kSentences[i % 5], "");
        if (i % 4 == 0) (void)analyzeAll(columns, kSentences[(i + 1) % 5], "");
        QCoreApplication::processEvents();
    }
    QEventLoop loop;
    QTimer poll;
    QObject::connect(&poll, &QTimer::timeout, [&] {
        if (!runner.busy()) loop.quit();
    });
    poll.start(10);
    QTimer::singleShot(120000, &loop, &QEventLoop::quit);
    loop.exec();
    ASSERT_FALSE(runner.busy()) << "the runner did not finish within 120 s";
    ASSERT_FALSE(delivered.empty());
    const Results& last = *delivered.back();
    ASSERT_EQ(last.size(), columns.size());
    for (const auto& r : last) EXPECT_EQ(r.error, "") << r.name;
}
