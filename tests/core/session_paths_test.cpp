// SPDX-License-Identifier: GPL-3.0-or-later
// How a workspace names its checkpoints (core/session_file.h): bundled models by name, the
// user's files beside the workspace relative to it, the rest absolute; a workspace moved to
// another folder, an older workspace with absolute paths, and a missing model.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>

#include "core/session_file.h"

using namespace attnviz;
namespace fs = std::filesystem;

namespace {

void touch(const fs::path& p) {
    fs::create_directories(p.parent_path());
    std::ofstream(p) << "x";
}

// A fresh folder with a fake models folder (set as ATTNVIZ_MODELS for the test's duration),
// a workspace folder "work" with a model of the user's beside it, and one elsewhere.
class SessionPaths : public ::testing::Test {
protected:
    void SetUp() override {
        m_root = fs::path(::testing::TempDir()) /
                 ("session-paths-" +
                  std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
        fs::remove_all(m_root);
        m_models = m_root / "install/share/attnviz/models";
        touch(m_models / "en-es/01-dot.safetensors");
        touch(m_models / "01-dot.safetensors");
        m_work = m_root / "work";
        touch(m_work / "mine/model.safetensors");
        touch(m_work / "beside.safetensors");
        touch(m_root / "elsewhere/other.safetensors");
        if (const char* old = std::getenv("ATTNVIZ_MODELS")) m_oldModels = old;
        setenv("ATTNVIZ_MODELS", m_models.c_str(), 1);
    }
    void TearDown() override {
        if (m_oldModels) {
            setenv("ATTNVIZ_MODELS", m_oldModels->c_str(), 1);
        } else {
            unsetenv("ATTNVIZ_MODELS");
        }
        fs::remove_all(m_root);
    }
    fs::path m_root, m_models, m_work;
    std::optional<std::string> m_oldModels;
};

}  // namespace

TEST_F(SessionPaths, EachKindOfPathIsStoredInItsFormAndComesBack) {
    const std::string bundled = (m_models / "en-es/01-dot.safetensors").string();
    const std::string toy = (m_models / "01-dot.safetensors").string();
    const std::string mine = (m_work / "mine/model.safetensors").string();
    const std::string beside = (m_work / "beside.safetensors").string();
    const std::string other = (m_root / "elsewhere/other.safetensors").string();
    const std::string dir = m_work.string();
    EXPECT_EQ(storedColumnPath(bundled, dir), "bundle:en-es/01-dot.safetensors");
    EXPECT_EQ(storedColumnPath(toy, dir), "bundle:01-dot.safetensors");
    EXPECT_EQ(storedColumnPath(mine, dir), "mine/model.safetensors");
    EXPECT_EQ(storedColumnPath(beside, dir), "beside.safetensors");
    EXPECT_EQ(storedColumnPath(other, dir), other);  // "../elsewhere/…" would break on a move
    EXPECT_EQ(storedColumnPath("", dir), "");        // a model trained in the app, not saved
    // Without a workspace folder (the last workspace in the settings): bundled or absolute.
    EXPECT_EQ(storedColumnPath(mine, ""), mine);
    EXPECT_EQ(storedColumnPath(bundled, ""), "bundle:en-es/01-dot.safetensors");

    SessionFile s;
    s.columns = {bundled, toy, mine, beside, other, ""};
    SessionFile stored = s;
    storeColumnPaths(stored, dir);
    // Through the file's text and back.
    SessionFile read = parseSessionJson(sessionJson(stored), "'w'");
    EXPECT_EQ(read.columns, stored.columns);
    resolveColumnPaths(read, dir);
    EXPECT_EQ(read.columns, s.columns);
}

TEST_F(SessionPaths, AWorkspaceMovedWithItsModelsFindsThemAndTheBundledOnes) {
    SessionFile s;
    s.columns = {(m_models / "en-es/01-dot.safetensors").string(),
                 (m_work / "mine/model.safetensors").string()};
    storeColumnPaths(s, m_work.string());
    // The workspace folder moved (another machine), and the app installed elsewhere.
    const fs::path moved = m_root / "usb/lecture";
    fs::create_directories(moved.parent_path());
    fs::rename(m_work, moved);
    const fs::path installed = m_root / "opt/attnviz/models";
    fs::create_directories(installed.parent_path());
    fs::rename(m_models, installed);
    setenv("ATTNVIZ_MODELS", installed.c_str(), 1);
    resolveColumnPaths(s, moved.string());
    EXPECT_EQ(s.columns[0], (installed / "en-es/01-dot.safetensors").string());
    EXPECT_EQ(s.columns[1], (moved / "mine/model.safetensors").string());
    EXPECT_TRUE(fs::exists(s.columns[0]) && fs::exists(s.columns[1]));
}

TEST_F(SessionPaths, AnOlderWorkspacesAbsolutePathsStillOpen) {
    // Written before this format: absolute paths only, one into a build tree that is gone.
    const std::string old = R"({"attnviz_session": 1, "columns": [
        "/gone/attnviz/build/release/resources/models/en-es/01-dot.safetensors",
        "/gone/attnviz/build/release/resources/models/01-dot.safetensors",
        ")" + (m_root / "elsewhere/other.safetensors").string() +
                            R"(", "/gone/mine/models/missing.safetensors"]})";
    SessionFile s = parseSessionJson(old, "'old'");
    resolveColumnPaths(s, m_work.string());
    EXPECT_EQ(s.columns[0], (m_models / "en-es/01-dot.safetensors").string());
    EXPECT_EQ(s.columns[1], (m_models / "01-dot.safetensors").string());
    EXPECT_EQ(s.columns[2], (m_root / "elsewhere/other.safetensors").string());  // exists
    // Missing and not a bundled model's file: left as it was, so opening it names it.
    EXPECT_EQ(s.columns[3], "/gone/mine/models/missing.safetensors");
}

TEST_F(SessionPaths, AMissingModelKeepsItsNameAndTheOthersResolve) {
    SessionFile s;
    s.columns = {"bundle:en-es/99-gone.safetensors", "mine/deleted.safetensors",
                 "bundle:en-es/01-dot.safetensors"};
    resolveColumnPaths(s, m_work.string());
    EXPECT_EQ(s.columns[0], (m_models / "en-es/99-gone.safetensors").string());
    EXPECT_FALSE(fs::exists(s.columns[0]));
    EXPECT_EQ(s.columns[1], (m_work / "mine/deleted.safetensors").string());
    EXPECT_TRUE(fs::exists(s.columns[2]));
}

// Only a bundled layout's "models" folder is swapped for the bundle: a folder of one's own
// called "models" holding a file with a bundled model's name stays the user's (review of
// issue 29: it used to open the bundled toy model in its place, silently).
TEST_F(SessionPaths, AFolderOfOnesOwnCalledModelsIsNeverSwappedForTheBundle) {
    const std::string old = R"({"attnviz_session": 1, "columns": [
        "/gone/mine/models/01-dot.safetensors", "/gone/mine/models/en-es/01-dot.safetensors",
        "/gone/usr/share/attnviz/models/en-es/01-dot.safetensors"]})";
    SessionFile s = parseSessionJson(old, "'old'");
    resolveColumnPaths(s, m_work.string());
    EXPECT_EQ(s.columns[0], "/gone/mine/models/01-dot.safetensors");
    EXPECT_EQ(s.columns[1], "/gone/mine/models/en-es/01-dot.safetensors");
    EXPECT_EQ(s.columns[2], (m_models / "en-es/01-dot.safetensors").string());  // installed
}

// The workspace file moved on its own (its models stayed): the relative entry names no file
// in the new place, so the absolute path it had when saved is used; when the workspace moves
// with its models, the relative one wins even though the old place still exists.
TEST_F(SessionPaths, AWorkspaceMovedWithoutItsModelsFindsThemWhereTheyWere) {
    const std::string mine = (m_work / "mine/model.safetensors").string();
    SessionFile s;
    s.columns = {mine, (m_models / "en-es/01-dot.safetensors").string()};
    storeColumnPaths(s, m_work.string());
    ASSERT_EQ(s.columns[0], "mine/model.safetensors");
    SessionFile read = parseSessionJson(sessionJson(s), "'w'");
    ASSERT_EQ(read.columnsAbsolute.size(), 2u);
    EXPECT_EQ(read.columnsAbsolute[0], mine);
    EXPECT_EQ(read.columnsAbsolute[1], "");  // bundled: by name only
    SessionFile alone = read;
    resolveColumnPaths(alone, (m_root / "documents").string());
    EXPECT_EQ(alone.columns[0], mine);
    // A copy of the folder elsewhere: its own model, not the original.
    fs::create_directories(m_root / "copy");
    fs::copy(m_work, m_root / "copy/work", fs::copy_options::recursive);
    resolveColumnPaths(read, (m_root / "copy/work").string());
    EXPECT_EQ(read.columns[0], (m_root / "copy/work/mine/model.safetensors").string());
    // More absolute entries than columns: refused, naming the key.
    const std::string bad = R"({"attnviz_session": 1, "columns": [], "columns_absolute": ["/a"]})";
    try {
        parseSessionJson(bad, "'bad'");
        ADD_FAILURE() << "accepted";
    } catch (const std::exception& e) {
        EXPECT_NE(std::string(e.what()).find("columns_absolute"), std::string::npos) << e.what();
    }
}

// The image of a workspace in image mode is stored as a checkpoint is: beside the workspace
// relative to it, with its absolute path for a workspace moved without it.
TEST_F(SessionPaths, TheImageFileIsStoredAsACheckpointIs) {
    touch(m_work / "shoe.png");
    SessionFile s;
    s.image = SessionImage();
    s.image->file = (m_work / "shoe.png").string();
    storeColumnPaths(s, m_work.string());
    EXPECT_EQ(s.image->file, "shoe.png");
    EXPECT_EQ(s.image->fileAbsolute, fs::canonical(m_work / "shoe.png").string());
    SessionFile moved = s;
    resolveColumnPaths(moved, (m_root / "moved").string());  // the workspace alone moved
    EXPECT_EQ(moved.image->file, fs::canonical(m_work / "shoe.png").string());
    resolveColumnPaths(s, m_work.string());
    EXPECT_EQ(s.image->file, (m_work / "shoe.png").string());
    EXPECT_TRUE(s.image->fileAbsolute.empty());
}
