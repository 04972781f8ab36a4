// SPDX-License-Identifier: GPL-3.0-or-later
// Files the app cannot open, with the real widgets offscreen: each is named with its reason
// in the Problems panel, which stays until the user clears it (the status line is
// overwritten by the next analysis); a deeply nested checkpoint or workspace is refused, not
// a crash; a last workspace whose restore never finished is not reopened by itself.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <QCoreApplication>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QListWidget>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTest>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/safetensors.h"
#include "ui/column_files.h"
#include "ui/command_line.h"
#include "ui/main_window.h"
#include "ui/problems_panel.h"

using namespace attnviz;
using namespace attnviz::ui;

namespace {

const std::string kModels = ATTNVIZ_MODELS_DIR;

void waitForResults(MainWindow& w) {
    QSignalSpy spy(w.runner(), &AnalysisRunner::finished);
    ASSERT_TRUE(spy.wait(20000));
    while (w.runner()->busy()) ASSERT_TRUE(spy.wait(20000));
}

std::string temp(const std::string& name) {
    return ::testing::TempDir() + name;
}

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

bool anyLineHas(const QStringList& lines, const QString& part) {
    for (const auto& l : lines)
        if (l.contains(part)) return true;
    return false;
}

std::string joined(const QStringList& lines) {
    return lines.join("\n").toStdString();
}

// The bundled dot model with `value` (a JSON text) as metadata `key`'s member "notes", or
// replacing the config's "bias": a checkpoint an engine parser could choke on.
std::string deepCheckpoint(const std::string& name, const std::string& key, int depth) {
    std::ifstream in(kModels + "/01-dot.safetensors", std::ios::binary);
    std::stringstream all;
    all << in.rdbuf();
    const std::string bytes = all.str();
    uint64_t n = 0;
    for (int b = 7; b >= 0; --b) n = (n << 8) | uint8_t(bytes[size_t(b)]);
    nlohmann::json header = nlohmann::json::parse(bytes.substr(8, n));
    const std::string deep = std::string(size_t(depth), '[') + std::string(size_t(depth), ']');
    auto& meta = header["__metadata__"];
    if (key == "config") {
        std::string cfg = meta["config"].get<std::string>();
        cfg.replace(cfg.find("\"bias\":true"), 11, "\"bias\":" + deep);
        meta["config"] = cfg;
    } else {
        meta["training"] = "{\"notes\": " + deep + "}";
    }
    const std::string h = header.dump();
    std::string out(8, '\0');
    for (int b = 0; b < 8; ++b) out[size_t(b)] = char((h.size() >> (8 * b)) & 0xff);
    out += h + bytes.substr(8 + n);
    const std::string path = temp(name);
    std::ofstream(path, std::ios::binary) << out;
    return path;
}

}  // namespace

TEST(Problems, AWorkspaceWithTwoUnloadableColumnsNamesBothUntilDismissed) {
    const std::string corrupt = temp("corrupt-column.safetensors");
    std::ofstream(corrupt, std::ios::binary) << "\x10\0\0\0\0\0\0\0{\"a\": 1}";
    const std::string missing = temp("missing-column.safetensors");
    const std::string work = temp("mixed.attnviz.json");
    nlohmann::json ws = {
        {"attnviz_session", 1},
        {"source", "I want to go"},
        {"columns",
         {kModels + "/01-dot.safetensors", corrupt, kModels + "/09-hc-sa.safetensors", missing}}};
    std::ofstream(work) << ws.dump();
    MainWindow w;
    w.show();
    QString error;
    ASSERT_TRUE(w.openSession(q(work), &error)) << error.toStdString();
    waitForResults(w);
    EXPECT_EQ(w.columns().size(), 2u);
    EXPECT_EQ(w.statusBar()->currentMessage(), "2 models");  // the status line moved on
    const QStringList lines = w.problems()->lines();
    EXPECT_TRUE(anyLineHas(lines, "2 of 4 checkpoints")) << joined(lines);
    EXPECT_TRUE(anyLineHas(lines, q(corrupt))) << joined(lines);
    EXPECT_TRUE(anyLineHas(lines, q(missing))) << joined(lines);
    EXPECT_TRUE(w.problemsDock()->isVisible());
    QTest::qWait(100);  // still there after more events
    EXPECT_EQ(w.problems()->lines(), lines);
    w.problems()->clearButton()->click();
    EXPECT_TRUE(w.problems()->isEmpty());
}

TEST(Problems, ASessionThatIsAnArrayOrGarbageSaysWhichFileAndWhy) {
    const std::string array = temp("array.attnviz.json"), garbage = temp("garbage.attnviz.json");
    std::ofstream(array) << "[1,2]";
    std::ofstream(garbage) << "not json at all";
    MainWindow w;
    QString error;
    EXPECT_FALSE(w.openSession(q(array), &error));
    EXPECT_TRUE(error.contains("array.attnviz.json")) << error.toStdString();
    EXPECT_FALSE(error.contains("no error occurred")) << error.toStdString();
    EXPECT_TRUE(error.contains("array")) << error.toStdString();
    EXPECT_FALSE(w.openSession(q(garbage), &error));
    const QStringList lines = w.problems()->lines();
    EXPECT_TRUE(anyLineHas(lines, "array.attnviz.json")) << joined(lines);
    EXPECT_TRUE(anyLineHas(lines, "garbage.attnviz.json")) << joined(lines);
}

TEST(Problems, CheckpointsAndWorkspacesNested300000DeepAreRefusedByName) {
    const std::string cfg = deepCheckpoint("deep-config.safetensors", "config", 300000);
    const std::string training = deepCheckpoint("deep-training.safetensors", "training", 300000);
    MainWindow w;
    EXPECT_FALSE(w.openCheckpointFile(q(training)));
    EXPECT_FALSE(w.openCheckpointFile(q(cfg)));
    EXPECT_TRUE(w.columns().empty());
    const QStringList lines = w.problems()->lines();
    // The engine's message for any JSON nested too deeply, as for every file (docs/limits.md).
    EXPECT_TRUE(anyLineHas(lines, q(training) +
                                      ": checkpoint training metadata nests arrays and objects "
                                      "deeper than 64 levels"))
        << joined(lines);
    EXPECT_TRUE(anyLineHas(lines, q(cfg) + ": checkpoint config: the text nests arrays and objects "
                                           "deeper than 64 levels"))
        << joined(lines);
    // A workspace nested as deep, and one listing both checkpoints beside a good one.
    const std::string deepWork = temp("deep.attnviz.json");
    std::ofstream(deepWork) << "{\"attnviz_session\": 1, \"view\": " << std::string(300000, '[')
                            << std::string(300000, ']') << "}";
    QString error;
    EXPECT_FALSE(w.openSession(q(deepWork), &error));
    EXPECT_TRUE(error.contains("'" + q(deepWork) + "' nests arrays and objects deeper than 64"))
        << error.toStdString();
    const std::string work = temp("deep-columns.attnviz.json");
    std::ofstream(work) << nlohmann::json{
        {"attnviz_session", 1},
        {"columns",
         {kModels + "/01-dot.safetensors", cfg,
          training}}}.dump();
    ASSERT_TRUE(w.openSession(q(work), &error)) << error.toStdString();
    EXPECT_EQ(w.columns().size(), 1u);
    EXPECT_TRUE(anyLineHas(w.problems()->lines(), "2 of 3 checkpoints"));
}

TEST(Problems, AFifoOrAFolderAsACheckpointIsRefusedWithoutWaiting) {
    const std::string fifo = temp("column.fifo.safetensors");
    std::remove(fifo.c_str());
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    QString error;
    EXPECT_FALSE(openColumn(q(fifo), &error));  // before: blocked for ever in open()
    EXPECT_TRUE(error.contains("is a FIFO (named pipe), not a file")) << error.toStdString();
    EXPECT_FALSE(openColumn(q(::testing::TempDir()), &error));
    EXPECT_TRUE(error.contains("is a directory, not a file")) << error.toStdString();
    std::remove(fifo.c_str());
}

TEST(Problems, ASentenceListThatCannotBeReadIsNamedInTheProblems) {
    const std::string bad = temp("latin1.txt");
    std::ofstream(bad, std::ios::binary) << "caf\xe9 au lait\n";
    MainWindow w;
    EXPECT_FALSE(w.openSentenceFile(q(bad)));
    EXPECT_FALSE(w.openSentenceFile("/dev/zero"));        // refused by name, not read for ever
    const std::string huge = temp("huge-sentences.txt");  // sparse: 200 MB on no disk
    std::ofstream(huge, std::ios::trunc).close();
    ASSERT_EQ(::truncate(huge.c_str(), 200'000'000), 0);
    EXPECT_FALSE(w.openSentenceFile(q(huge)));
    const std::string fifo = temp("sentences.fifo");
    std::remove(fifo.c_str());
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    EXPECT_FALSE(w.openSentenceFile(q(fifo)));  // before: blocked for ever in open()
    std::remove(fifo.c_str());
    std::remove(huge.c_str());
    const QStringList lines = w.problems()->lines();
    EXPECT_TRUE(anyLineHas(lines, "latin1.txt' is not valid UTF-8")) << joined(lines);
    EXPECT_TRUE(anyLineHas(lines, "'/dev/zero' is a character device, not a file"))
        << joined(lines);
    EXPECT_TRUE(anyLineHas(lines,
                           "huge-sentences.txt' is larger than the limit for a sentence "
                           "list"))
        << joined(lines);
    EXPECT_TRUE(anyLineHas(lines, "sentences.fifo' is a FIFO (named pipe), not a file"))
        << joined(lines);
}

TEST(Problems, AHostileWorkspaceFileIsRefusedWithTheEnginesMessages) {
    // The same limits and messages as a checkpoint (tests/core/input_limits_test.cpp).
    MainWindow w;
    QString error;
    EXPECT_FALSE(w.openSession("/dev/zero", &error));
    EXPECT_TRUE(error.contains("'/dev/zero' is a character device, not a file"))
        << error.toStdString();
    const std::string fifo = temp("work.fifo");
    std::remove(fifo.c_str());
    ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
    EXPECT_FALSE(w.openSession(q(fifo), &error));
    EXPECT_TRUE(error.contains("is a FIFO (named pipe), not a file")) << error.toStdString();
    std::remove(fifo.c_str());
    const std::string latin1 = temp("latin1.attnviz.json");
    std::ofstream(latin1, std::ios::binary) << "{\"attnviz_session\": 1, \"source\": \"caf\xe9\"}";
    EXPECT_FALSE(w.openSession(q(latin1), &error));
    EXPECT_TRUE(error.contains("is not valid JSON")) << error.toStdString();
    const std::string wrong = temp("wrong-type.attnviz.json");
    std::ofstream(wrong) << R"({"attnviz_session": 1, "columns": "01-dot.safetensors"})";
    EXPECT_FALSE(w.openSession(q(wrong), &error));
    EXPECT_TRUE(error.contains("'columns' must be an array of strings")) << error.toStdString();
    EXPECT_TRUE(w.columns().empty());
}

TEST(Problems, ALastWorkspaceWhoseRestoreNeverFinishedIsNotReopened) {
    Session last;
    last.source = "I want to go";
    last.columns = {q(kModels + "/01-dot.safetensors"), q(kModels + "/09-hc-sa.safetensors")};
    last.saveAsLast();
    Session::setRestoring(false);
    {
        MainWindow w;  // a normal start: restored, the marker set until its results are in
        ASSERT_TRUE(w.restoreLastSession());
        EXPECT_TRUE(Session::isRestoring());
        waitForResults(w);
        EXPECT_FALSE(Session::isRestoring());
        EXPECT_EQ(w.columns().size(), 2u);
    }
    Session::setRestoring(true);  // as if the app had died while opening it
    MainWindow w;
    EXPECT_FALSE(w.restoreLastSession());
    EXPECT_TRUE(w.columns().empty());
    const QStringList lines = w.problems()->lines();
    EXPECT_TRUE(anyLineHas(lines, "was not reopened")) << joined(lines);
    EXPECT_TRUE(anyLineHas(lines, "09-hc-sa.safetensors")) << joined(lines);
    ASSERT_FALSE(w.problems()->offerButton()->isHidden());
    w.problems()->offerButton()->click();  // the user chooses to open it anyway
    waitForResults(w);
    EXPECT_EQ(w.columns().size(), 2u);
    EXPECT_FALSE(Session::isRestoring());
    // A file that failed at this start is left out of the last workspace: not retried.
    last.columns << q(temp("gone.safetensors"));
    last.saveAsLast();
    MainWindow w2;
    ASSERT_TRUE(w2.restoreLastSession());
    EXPECT_TRUE(anyLineHas(w2.problems()->lines(), "gone.safetensors"));
    Session stored;
    ASSERT_TRUE(Session::loadLast(&stored));
    EXPECT_EQ(stored.columns.size(), 2);
    EXPECT_FALSE(stored.columns.join(",").contains("gone.safetensors"));
    waitForResults(w2);
    QSettings().remove("lastSession");
}

TEST(Problems, AModelTheAnalysisThrowsOnIsAnErrorNotTheEndOfTheApp) {
    // Weights that overflow in the forward pass: the analysis throws on a worker thread.
    ModelColumn c = loadModelColumn(kModels + "/01-dot.safetensors");
    for (auto& [name, t] : c.model->params()) t.m *= 1e30f;
    MainWindow w;
    w.setColumns({c});
    w.setSentence("I want to go");
    waitForResults(w);
    EXPECT_TRUE(w.statusBar()->currentMessage().contains("could not run"))
        << w.statusBar()->currentMessage().toStdString();
}

TEST(Problems, TrainingMetadataOfTheWrongTypeIsRefusedWhenTheCheckpointIsRead) {
    // Checked once, by the engine, at load: no reader meets a "kind" that is not a string.
    ModelColumn c = loadModelColumn(kModels + "/01-dot.safetensors");
    EXPECT_THROW(c.model->setTraining(nlohmann::json{{"kind", 5}}), std::exception);
    SafeTensorsFile f = c.model->toSafeTensors();
    f.metadata["training"] = R"({"kind": 5})";
    const std::string path = temp("kind-number.safetensors");
    f.write(path);
    MainWindow w;
    EXPECT_FALSE(w.openCheckpointFile(q(path)));
    EXPECT_TRUE(anyLineHas(w.problems()->lines(),
                           "checkpoint training metadata: 'kind' must be a string, got 5"))
        << joined(w.problems()->lines());
}

TEST(Problems, SessionFileAfterTheOptionIsNotLeftForQtsSessionManager) {
    const char* argv[] = {"attnviz", "--session", "w.attnviz.json", "-session", "id", "--fresh"};
    const auto out = sessionSafeArguments(6, argv);
    const std::vector<std::string> expected = {"attnviz", "--session=w.attnviz.json", "-session",
                                               "id", "--fresh"};
    EXPECT_EQ(out, expected);
}

TEST(Problems, AWorkspaceMovedToAnotherFolderOpensAndNamesAModelThatIsGone) {
    // The bundled models as the app finds them, for this test only.
    const QByteArray oldModels = qgetenv("ATTNVIZ_MODELS");
    qputenv("ATTNVIZ_MODELS", QByteArray::fromStdString(kModels));
    const std::string dir = temp("portable-a"), moved = temp("portable-b");
    std::filesystem::remove_all(dir);
    std::filesystem::remove_all(moved);
    std::filesystem::create_directories(dir);
    loadModelColumn(kModels + "/09-hc-sa.safetensors").model->save(dir + "/mine.safetensors");
    MainWindow w;
    w.setColumns({loadModelColumn(kModels + "/01-dot.safetensors"),
                  loadModelColumn(dir + "/mine.safetensors")});
    QString error;
    ASSERT_TRUE(w.saveSession(q(dir + "/lecture.attnviz.json"), &error)) << error.toStdString();
    std::ifstream in(dir + "/lecture.attnviz.json");
    const nlohmann::json saved = nlohmann::json::parse(in);
    EXPECT_EQ(saved["columns"], nlohmann::json({"bundle:01-dot.safetensors", "mine.safetensors"}));
    std::filesystem::rename(dir, moved);
    MainWindow w2;
    ASSERT_TRUE(w2.openSession(q(moved + "/lecture.attnviz.json"), &error));
    ASSERT_EQ(w2.columns().size(), 2u);
    EXPECT_EQ(w2.columns()[0].path, kModels + "/01-dot.safetensors");
    EXPECT_EQ(w2.columns()[1].path, moved + "/mine.safetensors");
    // The user's model deleted: the rest of the workspace opens, the missing file is named.
    std::filesystem::remove(moved + "/mine.safetensors");
    MainWindow w3;
    ASSERT_TRUE(w3.openSession(q(moved + "/lecture.attnviz.json"), &error));
    EXPECT_EQ(w3.columns().size(), 1u);
    EXPECT_TRUE(anyLineHas(w3.problems()->lines(), q(moved + "/mine.safetensors")))
        << joined(w3.problems()->lines());
    if (oldModels.isNull()) {
        qunsetenv("ATTNVIZ_MODELS");
    } else {
        qputenv("ATTNVIZ_MODELS", oldModels);
    }
}

// 2,000 unreadable checkpoints in a watched folder (issue 48): each is named in the Problems
// panel, and the window is free again within seconds. Scrolling the list to each new problem
// laid out every wrapped line again each time: quadratic, 46 s frozen.
TEST(Problems, TwoThousandUnreadableFilesInAWatchedFolderAreListedInSeconds) {
    const std::string dir = temp("two-thousand-unreadable");
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    const int files = 2000;
    for (int i = 0; i < files; ++i)
        std::ofstream(dir + "/bad-" + std::to_string(i) + ".safetensors") << "not a checkpoint";
    MainWindow w;
    w.show();
    QElapsedTimer t;
    t.start();
    QString error;
    ASSERT_TRUE(w.watchFolder(q(dir), &error)) << error.toStdString();
    while (w.problems()->lineCount() < 2 * files && t.elapsed() < 120000) QTest::qWait(20);
    QCoreApplication::processEvents();  // the panel's scroll, laid out once
    const qint64 ms = t.elapsed();
    EXPECT_EQ(w.problems()->lineCount(), 2 * files);
    EXPECT_LT(ms, 15000) << "quadratic in the number of problems?";
    std::printf("[ timing ] %d problems listed in %lld ms\n", files, (long long)ms);
    std::filesystem::remove_all(dir);
}
