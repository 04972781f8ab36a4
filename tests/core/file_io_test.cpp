// SPDX-License-Identifier: GPL-3.0-or-later
// core/file_io.h: a write interrupted by a termination signal leaves nothing behind.
#include "core/file_io.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <string>
#include <thread>

namespace fs = std::filesystem;

namespace {

// Every file in `dir` whose name holds ".tmp-" (a write's temporary file).
int temporariesIn(const fs::path& dir) {
    int n = 0;
    for (const auto& e : fs::directory_iterator(dir))
        if (e.path().filename().string().find(".tmp-") != std::string::npos) ++n;
    return n;
}

// A child process writes `megabytes` to dir/out.bin; SIGTERM is sent as soon as the
// temporary file appears. Returns true when the signal came mid-write (the child ended by
// it), false when the write was over first.
bool terminateMidWrite(const fs::path& dir, int megabytes, bool cleanup) {
    const pid_t child = ::fork();
    if (child == 0) {
        if (cleanup) attnviz::removeTemporariesOnTermination();
        try {
            attnviz::writeFileAtomically((dir / "out.bin").string(),
                                         std::string(size_t(megabytes) << 20, 'x'));
        } catch (...) {
            ::_exit(3);
        }
        ::_exit(0);
    }
    EXPECT_GT(child, 0);
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (temporariesIn(dir) == 0 && std::chrono::steady_clock::now() < until) {
        int status = 0;
        if (::waitpid(child, &status, WNOHANG) == child) return false;  // over already
        std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    ::kill(child, SIGTERM);
    int status = 0;
    ::waitpid(child, &status, 0);
    if (WIFEXITED(status)) return false;  // the write ended before the signal arrived
    EXPECT_TRUE(WIFSIGNALED(status));
    EXPECT_EQ(WTERMSIG(status), SIGTERM) << "the process ends as the signal would end it";
    return true;
}

}  // namespace

TEST(FileIo, TerminationMidWriteLeavesNoTemporaryFile) {
    const fs::path dir = fs::temp_directory_path() / ("attnviz-term-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    int interrupted = 0;
    for (int attempt = 0; attempt < 4 && interrupted == 0; ++attempt) {
        if (!terminateMidWrite(dir, 256 << attempt, true)) {
            fs::remove(dir / "out.bin");
            continue;
        }
        ++interrupted;
        EXPECT_EQ(temporariesIn(dir), 0) << "the temporary file of the interrupted write";
        EXPECT_FALSE(fs::exists(dir / "out.bin")) << "no partial output";
    }
    EXPECT_EQ(interrupted, 1) << "no write could be interrupted: the test proved nothing";
    fs::remove_all(dir);
}

// The same without the handler leaves the temporary file: what the test above guards.
TEST(FileIo, WithoutTheHandlerTheTemporaryFileStays) {
    const fs::path dir =
        fs::temp_directory_path() / ("attnviz-term-raw-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    bool interrupted = false;
    for (int attempt = 0; attempt < 4 && !interrupted; ++attempt) {
        interrupted = terminateMidWrite(dir, 256 << attempt, false);
        if (!interrupted) fs::remove(dir / "out.bin");
    }
    ASSERT_TRUE(interrupted);
    EXPECT_EQ(temporariesIn(dir), 1);
    fs::remove_all(dir);
}
