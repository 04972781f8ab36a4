// SPDX-License-Identifier: GPL-3.0-or-later
// Watching a folder of checkpoints (issue 16) in a temporary folder, the files written as the
// trainers write them (a temporary name, then a rename, over the target when it exists):
// FolderWatch alone reports the checkpoints there at start in name order, a new one once, a
// replaced one as changed, a removed one, and nothing for temporaries, probe files or a file
// still empty; it follows by polling alone when the folder sends no events; a missing folder
// is an error naming it. The main window follows the folder: a column per checkpoint, the
// same column reloaded in place when its file is replaced (the analysis rerun), and a garbage
// file in the Problems panel, opened once it is fixed.
#include "ui/folder_watch.h"

#include <gtest/gtest.h>
#include <sys/fsuid.h>
#include <unistd.h>

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileSystemWatcher>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <filesystem>

#include "core/model.h"
#include "tests/ui/wait.h"
#include "ui/main_window.h"
#include "ui/problems_panel.h"

using namespace attnviz;
using namespace attnviz::ui;
using attnviz::ui::test::waitUntil;

namespace {

const QString kModels = ATTNVIZ_MODELS_DIR;

QByteArray bundledBytes(const QString& file) {
    QFile f(kModels + "/" + file);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool writeFile(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

// As the trainers write: a temporary file in the same folder, renamed over the target.
void writeAtomically(const QString& path, const QByteArray& bytes) {
    const QString tmp = QFileInfo(path).dir().filePath(".attnviz-test.tmp");
    ASSERT_TRUE(writeFile(tmp, bytes));
    std::error_code ec;
    std::filesystem::rename(tmp.toStdString(), path.toStdString(), ec);  // replaces the target
    ASSERT_FALSE(ec) << ec.message();
}

QString encoderSelfVariant(const ModelColumn& c) {
    return QString::fromStdString(c.model->config().block(BlockKind::EncoderSelf).variant);
}

}  // namespace

TEST(FolderWatch, ReportsCheckpointsAddedReplacedAndRemoved) {
    QTemporaryDir tmp;
    ASSERT_TRUE(tmp.isValid());
    const QDir dir(tmp.path());
    const QByteArray dot = bundledBytes("01-dot.safetensors");
    const QByteArray hc = bundledBytes("09-hc-sa.safetensors");
    ASSERT_FALSE(dot.isEmpty());
    ASSERT_NE(dot.size(), hc.size());
    ASSERT_TRUE(writeFile(dir.filePath("b.safetensors"), hc));
    ASSERT_TRUE(writeFile(dir.filePath("a.safetensors"), dot));
    ASSERT_TRUE(writeFile(dir.filePath("a.probe.json"), "{}"));

    FolderWatch watch;
    QSignalSpy added(&watch, &FolderWatch::checkpointAdded);
    QSignalSpy changed(&watch, &FolderWatch::checkpointChanged);
    QSignalSpy removed(&watch, &FolderWatch::checkpointRemoved);
    QString error;
    ASSERT_TRUE(watch.watch(tmp.path(), &error)) << error.toStdString();
    EXPECT_EQ(watch.folder(), dir.absolutePath());
    ASSERT_EQ(added.count(), 2);  // at once, by file name
    EXPECT_EQ(added[0][0].toString(), dir.filePath("a.safetensors"));
    EXPECT_EQ(added[1][0].toString(), dir.filePath("b.safetensors"));

    // A new checkpoint, written as the trainers do (temporary name, then rename).
    const QString c = dir.filePath("c.safetensors");
    ASSERT_TRUE(writeFile(dir.filePath(".attnviz-1.tmp"), hc));
    ASSERT_TRUE(QFile::rename(dir.filePath(".attnviz-1.tmp"), c));
    ASSERT_TRUE(waitUntil([&] { return added.count() == 3; }));
    EXPECT_EQ(added[2][0].toString(), c);

    // A newer checkpoint of the same run renamed over it: changed, not added.
    writeAtomically(c, dot);
    ASSERT_TRUE(waitUntil([&] { return changed.count() == 1; }));
    EXPECT_EQ(changed[0][0].toString(), c);

    // Files that are not checkpoints, and one not written yet (empty): nothing, until the
    // removal below shows that the watch has looked at the folder since.
    ASSERT_TRUE(writeFile(dir.filePath(".attnviz-2.tmp"), hc));
    ASSERT_TRUE(writeFile(dir.filePath("c.probe.json"), "{}"));
    ASSERT_TRUE(writeFile(dir.filePath("c.trainstate.pt"), "state"));
    ASSERT_TRUE(writeFile(dir.filePath("d.safetensors"), {}));
    ASSERT_TRUE(QFile::remove(dir.filePath("b.safetensors")));
    ASSERT_TRUE(waitUntil([&] { return removed.count() == 1; }));
    EXPECT_EQ(removed[0][0].toString(), dir.filePath("b.safetensors"));
    EXPECT_EQ(added.count(), 3);
    EXPECT_EQ(changed.count(), 1);

    // Once the file has its bytes, it is reported, as added.
    ASSERT_TRUE(writeFile(dir.filePath("d.safetensors"), dot));
    ASSERT_TRUE(waitUntil([&] { return added.count() == 4; }));
    EXPECT_EQ(added[3][0].toString(), dir.filePath("d.safetensors"));

    // Replaced twice more: each replacement noticed (the file is watched anew each time).
    writeAtomically(c, hc);
    ASSERT_TRUE(waitUntil([&] { return changed.count() == 2; }));
    writeAtomically(c, dot);
    ASSERT_TRUE(waitUntil([&] { return changed.count() == 3; }));
    EXPECT_EQ(changed[2][0].toString(), c);

    // Stopped: nothing more.
    watch.stop();
    EXPECT_TRUE(watch.folder().isEmpty());
    ASSERT_TRUE(QFile::remove(c));
    QTest::qWait(FolderWatch::kDebounceMs + 100);
    EXPECT_EQ(removed.count(), 1);
    EXPECT_EQ(added.count(), 4);
    EXPECT_EQ(changed.count(), 3);
}

// Synced and network folders may deliver no file system events: the watch still sees a new
// checkpoint and one renamed over another at its next poll of the folder.
TEST(FolderWatch, FollowsAFolderWithoutEventsByPolling) {
    QTemporaryDir tmp;
    ASSERT_TRUE(tmp.isValid());
    const QDir dir(tmp.path());
    FolderWatch watch;
    auto* events = watch.findChild<QFileSystemWatcher*>();
    ASSERT_NE(events, nullptr);
    const QSignalBlocker silent(events);
    QSignalSpy added(&watch, &FolderWatch::checkpointAdded);
    QSignalSpy changed(&watch, &FolderWatch::checkpointChanged);
    QString error;
    ASSERT_TRUE(watch.watch(tmp.path(), &error)) << error.toStdString();
    EXPECT_EQ(added.count(), 0);

    const QString c = dir.filePath("c.safetensors");
    writeAtomically(c, bundledBytes("01-dot.safetensors"));
    ASSERT_TRUE(waitUntil([&] { return added.count() == 1; }, 3 * FolderWatch::kPollMs));
    writeAtomically(c, bundledBytes("09-hc-sa.safetensors"));
    ASSERT_TRUE(waitUntil([&] { return changed.count() == 1; }, 3 * FolderWatch::kPollMs));
    EXPECT_EQ(changed[0][0].toString(), c);
    EXPECT_EQ(added.count(), 1);
}

// Root opens any file: the file checks of this thread are made as "nobody" instead (Linux
// setfsuid, which also drops CAP_DAC_OVERRIDE), so a file of mode 000 cannot be opened.
class AsNobody {
public:
    AsNobody() : m_root(::geteuid() == 0) {
        if (m_root) ::setfsgid(65534), ::setfsuid(65534);
    }
    ~AsNobody() {
        if (m_root) ::setfsuid(0), ::setfsgid(0);
    }

private:
    bool m_root;
};

TEST(FolderWatch, AnUnreadableCheckpointIsSaidOnceThenAddedWhenReadable) {
    QTemporaryDir tmp;
    ASSERT_TRUE(tmp.isValid());
    namespace fs = std::filesystem;
    fs::permissions(tmp.path().toStdString(), fs::perms::all);  // "nobody" may list it
    const QString locked = QDir(tmp.path()).filePath("locked.safetensors");
    ASSERT_TRUE(writeFile(locked, bundledBytes("01-dot.safetensors")));
    fs::permissions(locked.toStdString(), fs::perms::none);
    const AsNobody nobody;
    {
        QFile probe(locked);
        ASSERT_FALSE(probe.open(QIODevice::ReadOnly)) << "the test needs an unreadable file";
    }
    FolderWatch watch;
    QSignalSpy added(&watch, &FolderWatch::checkpointAdded);
    QSignalSpy unreadable(&watch, &FolderWatch::checkpointUnreadable);
    QString error;
    ASSERT_TRUE(watch.watch(tmp.path(), &error)) << error.toStdString();
    ASSERT_EQ(unreadable.count(), 1) << "said at once, not left to a warning on stderr";
    EXPECT_EQ(unreadable[0][0].toString(), locked);
    EXPECT_FALSE(unreadable[0][1].toString().isEmpty()) << "with the reason";
    // The next polls say nothing new about the same file.
    QTest::qWait(FolderWatch::kPollMs + 500);
    EXPECT_EQ(unreadable.count(), 1);
    EXPECT_EQ(added.count(), 0);
    // Readable now: it becomes a checkpoint like any other.
    const int fsuid = ::setfsuid(0);  // as the file's owner again, to change its mode
    fs::permissions(locked.toStdString(),
                    fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
    ::setfsuid(uid_t(fsuid));
    ASSERT_TRUE(waitUntil([&] { return added.count() == 1; }, 3 * FolderWatch::kPollMs));
    EXPECT_EQ(unreadable.count(), 1);
}

TEST(MainWindow, AnUnreadableCheckpointInTheWatchedFolderIsAProblem) {
    QTemporaryDir tmp;
    ASSERT_TRUE(tmp.isValid());
    namespace fs = std::filesystem;
    fs::permissions(tmp.path().toStdString(), fs::perms::all);
    const QString locked = QDir(tmp.path()).filePath("locked.safetensors");
    ASSERT_TRUE(writeFile(locked, bundledBytes("01-dot.safetensors")));
    fs::permissions(locked.toStdString(), fs::perms::none);
    const AsNobody nobody;
    MainWindow w;
    QString error;
    ASSERT_TRUE(w.watchFolder(tmp.path(), &error)) << error.toStdString();
    ASSERT_TRUE(waitUntil([&] { return !w.problems()->isEmpty(); }));
    EXPECT_TRUE(w.problems()->lines().join("\n").contains("locked.safetensors"))
        << w.problems()->lines().join("\n").toStdString();
}

TEST(FolderWatch, MissingFolderIsAnErrorNamingIt) {
    QTemporaryDir tmp;
    ASSERT_TRUE(tmp.isValid());
    FolderWatch watch;
    QSignalSpy added(&watch, &FolderWatch::checkpointAdded);
    const QString missing = tmp.path() + "/not-there";
    QString error;
    EXPECT_FALSE(watch.watch(missing, &error));
    EXPECT_TRUE(error.contains(missing)) << error.toStdString();
    EXPECT_TRUE(error.contains("does not exist")) << error.toStdString();
    EXPECT_TRUE(watch.folder().isEmpty());
    EXPECT_EQ(added.count(), 0);

    // A file is not a folder.
    const QString file = tmp.path() + "/x.safetensors";
    ASSERT_TRUE(writeFile(file, "x"));
    EXPECT_FALSE(watch.watch(file, &error));
    EXPECT_TRUE(error.contains(file)) << error.toStdString();
}

TEST(MainWindow, WatchedFolderAddsAndReloadsColumns) {
    QTemporaryDir tmp;
    ASSERT_TRUE(tmp.isValid());
    const QDir dir(tmp.path());
    const QString run = dir.filePath("run.safetensors");
    ASSERT_TRUE(writeFile(run, bundledBytes("01-dot.safetensors")));

    MainWindow w;
    w.setSentence("I want to go to the station");
    const size_t before = w.columns().size();
    QString error;
    ASSERT_TRUE(w.watchFolder(tmp.path(), &error)) << error.toStdString();
    EXPECT_EQ(w.watchedFolder(), dir.absolutePath());
    ASSERT_EQ(w.columns().size(), before + 1);
    const size_t at = before;
    EXPECT_EQ(QString::fromStdString(w.columns()[at].path), run);
    EXPECT_EQ(encoderSelfVariant(w.columns()[at]), "dot");
    EXPECT_TRUE(w.statusBar()->currentMessage().contains("added run.safetensors"))
        << w.statusBar()->currentMessage().toStdString();

    // A newer checkpoint renamed over the file: the same column, now 09-hc-sa's model.
    writeAtomically(run, bundledBytes("09-hc-sa.safetensors"));
    ASSERT_TRUE(waitUntil([&] { return encoderSelfVariant(w.columns()[at]) == "gaussian"; }));
    EXPECT_EQ(w.columns().size(), before + 1);
    EXPECT_EQ(QString::fromStdString(w.columns()[at].path), run);
    // The analysis reruns with it; the event is said in the status bar with the steps.
    ASSERT_TRUE(waitUntil([&] {
        const auto& r = *w.workspace()->results();
        if (r.size() != w.columns().size()) return false;
        for (const auto& b : r[at].analysis.blocks)
            if (b.kind == BlockKind::EncoderSelf) return b.variant == "gaussian";
        return false;
    }));
    EXPECT_TRUE(waitUntil([&] {
        return w.statusBar()->currentMessage().contains("updated run.safetensors (step 2000)");
    })) << w.statusBar()->currentMessage().toStdString();

    // A garbage checkpoint: in the Problems panel, no column, no crash.
    ASSERT_TRUE(w.problems()->isEmpty());
    const QString bad = dir.filePath("bad.safetensors");
    writeAtomically(bad, QByteArray(64, '\x7f'));
    ASSERT_TRUE(waitUntil([&] { return !w.problems()->isEmpty(); }));
    EXPECT_TRUE(w.problems()->lines().join("\n").contains("bad.safetensors"))
        << w.problems()->lines().join("\n").toStdString();
    EXPECT_EQ(w.columns().size(), before + 1);

    // Fixed (synced completely): tried again, and opened as a column of its own.
    writeAtomically(bad, bundledBytes("01-dot.safetensors"));
    ASSERT_TRUE(waitUntil([&] { return w.columns().size() == before + 2; }));
    EXPECT_EQ(QString::fromStdString(w.columns().back().path), bad);

    // Removed: the column stays, the status bar says so.
    ASSERT_TRUE(QFile::remove(run));
    ASSERT_TRUE(waitUntil([&] {
        return w.statusBar()->currentMessage().contains("run.safetensors was removed");
    })) << w.statusBar()->currentMessage().toStdString();
    EXPECT_EQ(w.columns().size(), before + 2);

    // A folder that does not exist: an error, and the folder watched so far stays.
    EXPECT_FALSE(w.watchFolder(tmp.path() + "/missing", &error));
    EXPECT_TRUE(error.contains("missing")) << error.toStdString();
    EXPECT_EQ(w.watchedFolder(), dir.absolutePath());

    // Another folder replaces it.
    QTemporaryDir other;
    ASSERT_TRUE(other.isValid());
    ASSERT_TRUE(w.watchFolder(other.path(), &error)) << error.toStdString();
    EXPECT_EQ(w.watchedFolder(), QDir(other.path()).absolutePath());
    EXPECT_EQ(w.columns().size(), before + 2);
}
