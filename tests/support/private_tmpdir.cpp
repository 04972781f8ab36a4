// SPDX-License-Identifier: GPL-3.0-or-later
// Each test process gets a scratch folder of its own: ::testing::TempDir() reads TEST_TMPDIR,
// which is set here to a fresh mkdtemp folder before any test (or any static initialiser of a
// test file) runs, and removed when the process exits normally.
//
// Why: ctest runs every test as its own process, two at a time, and the test files name their
// scratch files by a fixed prefix (TempDir() + "attnviz_image_render_cls.json"). Two tests that
// make "the same" scratch model at the same moment truncated each other's config: CI of stop 56
// failed on ImageRender.WritesFiguresOfEveryFormat so, once in ~800 runs. A private folder per
// process makes every such name unique without touching the tests.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>

namespace {

std::string& folder() {
    static std::string f;
    return f;
}
pid_t owner = 0;

void removeFolder() {
    // A forked child that calls exit() must not remove its parent's folder.
    if (::getpid() != owner || folder().empty()) return;
    std::error_code ec;
    std::filesystem::remove_all(folder(), ec);
}

// Priority 101: before the test files' own static initialisers, which may call TempDir().
__attribute__((constructor(101))) void makePrivateTmpdir() {
    const char* base = std::getenv("TMPDIR");
    std::string pattern = std::string(base && *base ? base : "/tmp") + "/attnviz-test-XXXXXX";
    if (::mkdtemp(pattern.data()) == nullptr) return;  // keep gtest's default, /tmp/
    folder() = pattern;
    owner = ::getpid();
    ::setenv("TEST_TMPDIR", pattern.c_str(), 1);
    std::atexit(removeFolder);
}

}  // namespace
