// SPDX-License-Identifier: GPL-3.0-or-later
// Files named from outside the window (`attnviz FILE...`, the file manager): each to where it
// belongs by its name, several at once, workspaces before the checkpoints that add to them,
// every file that cannot be opened named in the Problems panel and the others opened anyway.
#include "ui/file_arguments.h"

#include <gtest/gtest.h>

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <chrono>
#include <fstream>
#include <future>

#include "core/probe.h"
#include "ui/film_dock.h"
#include "ui/main_window.h"
#include "ui/problems_panel.h"
#include "ui/single_instance.h"

using namespace attnviz;
using namespace attnviz::ui;

namespace {

const QString kModels = ATTNVIZ_MODELS_DIR;

QString tempFile(const QString& name, const std::string& text) {
    const QString path = QDir(QString::fromStdString(::testing::TempDir())).filePath(name);
    std::ofstream(path.toStdString(), std::ios::binary) << text;
    return path;
}

// In a folder of the user's own (0700): SingleInstance refuses a shared one such as /tmp.
QString socketPath(const char* name) {
    static const QTemporaryDir dir;
    return QDir(dir.path()).filePath(name);
}

// sendToRunning on another thread (it blocks), this thread's events run meanwhile.
bool sendWhileServing(const QStringList& paths, const QString& name) {
    auto sent = std::async(std::launch::async,
                           [&] { return SingleInstance::sendToRunning(paths, name, 5000); });
    while (sent.wait_for(std::chrono::milliseconds(5)) != std::future_status::ready)
        QCoreApplication::processEvents();
    return sent.get();
}

std::vector<std::string> columnNames(const MainWindow& w) {
    std::vector<std::string> names;
    for (const auto& c : w.columns()) names.push_back(c.name);
    return names;
}

}  // namespace

TEST(FileArguments, TheKindComesFromTheName) {
    EXPECT_EQ(fileKind("a/01-dot.safetensors"), FileKind::Checkpoint);
    EXPECT_EQ(fileKind("model"), FileKind::Checkpoint);  // its reader says if it is not one
    EXPECT_EQ(fileKind("w.attnviz.json"), FileKind::Workspace);
    EXPECT_EQ(fileKind("W.JSON"), FileKind::Workspace);
    EXPECT_EQ(fileKind("runs/m.probe.json"), FileKind::Probe);
    EXPECT_EQ(fileKind("runs/M.PROBE.JSON"), FileKind::Probe);
    EXPECT_TRUE(anyCheckpoint({"w.attnviz.json", "x.safetensors"}));
    EXPECT_FALSE(anyCheckpoint({"w.attnviz.json", "m.probe.json"}));
    EXPECT_FALSE(anyCheckpoint({}));
}

TEST(FileArguments, CheckpointsOpenInAColumnEachAndABadOneIsNamed) {
    MainWindow w;
    w.setColumns({});
    const QString bad = tempFile("not-a-model.safetensors", "garbage");
    const int opened =
        w.openFiles({kModels + "/01-dot.safetensors", bad, kModels + "/09-hc-sa.safetensors"});
    EXPECT_EQ(opened, 2);
    ASSERT_EQ(w.columns().size(), 2u);
    EXPECT_EQ(w.columns()[0].path, (kModels + "/01-dot.safetensors").toStdString());
    EXPECT_EQ(w.columns()[1].path, (kModels + "/09-hc-sa.safetensors").toStdString());
    EXPECT_TRUE(w.problems()->lines().join("\n").contains("not-a-model.safetensors"));
}

TEST(FileArguments, AWorkspaceComesFirstAndCheckpointsAddToIt) {
    QString wsPath;
    std::vector<std::string> saved;
    {
        MainWindow w;
        w.setColumns({loadModelColumn((kModels + "/01-dot.safetensors").toStdString())});
        saved = columnNames(w);
        wsPath = QDir(QString::fromStdString(::testing::TempDir())).filePath("one.attnviz.json");
        QString error;
        ASSERT_TRUE(w.saveSession(wsPath, &error)) << error.toStdString();
    }
    MainWindow w;
    w.setColumns({});
    // The checkpoint is named first, but the workspace (which replaces the columns) opens first.
    EXPECT_EQ(w.openFiles({kModels + "/09-hc-sa.safetensors", wsPath}), 2);
    ASSERT_EQ(w.columns().size(), 2u);
    EXPECT_EQ(w.columns()[0].name, saved[0]);
    EXPECT_EQ(w.columns()[1].path, (kModels + "/09-hc-sa.safetensors").toStdString());
}

TEST(FileArguments, AProbeOpensInTheOverTrainingDockAndAGarbageOneIsNamed) {
    const ModelColumn dot = loadModelColumn((kModels + "/01-dot.safetensors").toStdString());
    ProbeRecorder recorder(*dot.model, "dot", "I want to go", std::nullopt, 1);
    recorder.record(*dot.model, 0);
    const QString probe = tempFile("run.probe.json", probeJson(recorder.record()));
    const QString garbage = tempFile("garbage.probe.json", "[1, 2]");
    MainWindow w;
    EXPECT_EQ(w.openFiles({garbage, probe}), 1);
    EXPECT_EQ(w.film()->record().snapshots.size(), 1u);
    EXPECT_TRUE(w.problems()->lines().join("\n").contains("garbage.probe.json"));
}

// The second start of the app hands its files to the first (ui/single_instance.h).
TEST(SingleInstance, ASecondStartHandsItsFilesToTheRunningWindow) {
    SingleInstance first(socketPath("attnviz-test-a.socket"));
    ASSERT_TRUE(first.listen());
    MainWindow w;
    w.setColumns({});
    QObject::connect(&first, &SingleInstance::filesReceived, &w,
                     [&w](const QStringList& paths) { w.openFiles(paths); });
    QSignalSpy received(&first, &SingleInstance::filesReceived);
    EXPECT_TRUE(sendWhileServing(
        {kModels + "/01-dot.safetensors", kModels + "/09-hc-sa.safetensors"}, first.name()));
    ASSERT_EQ(received.size(), 1);
    EXPECT_EQ(received[0][0].toStringList().size(), 2);
    EXPECT_EQ(w.columns().size(), 2u);
}

TEST(SingleInstance, PathsArriveAbsolute) {
    SingleInstance first(socketPath("attnviz-test-b.socket"));
    ASSERT_TRUE(first.listen());
    QSignalSpy received(&first, &SingleInstance::filesReceived);
    EXPECT_TRUE(sendWhileServing({"relative/m.safetensors"}, first.name()));
    ASSERT_EQ(received.size(), 1);
    EXPECT_EQ(received[0][0].toStringList(),
              QStringList{QDir::current().absoluteFilePath("relative/m.safetensors")});
}

TEST(SingleInstance, WithoutARunningWindowNothingIsSent) {
    EXPECT_FALSE(SingleInstance::sendToRunning({"a.safetensors"},
                                               socketPath("attnviz-test-none.socket"), 500));
}

TEST(SingleInstance, ASocketLeftByACrashIsReplacedButALiveOneIsNot) {
    const QString name = socketPath("attnviz-test-c.socket");
    QFile::remove(name);
    QFile(name).open(QIODevice::WriteOnly);  // a file where the socket was, no one behind it
    SingleInstance first(name);
    EXPECT_TRUE(first.listen());
    SingleInstance second(name);
    EXPECT_FALSE(second.listen());  // the first one still answers there
}
