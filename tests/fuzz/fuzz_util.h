// SPDX-License-Identifier: GPL-3.0-or-later
// Helpers shared by the libFuzzer targets.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

namespace attnviz::fuzz {

// The longest error message a reader may give: a short excerpt of the input, a file name and
// words, never the whole offending value.
constexpr size_t kMaxMessageBytes = 4096;

// A finding that is not a crash by itself: says what is wrong, then aborts so that libFuzzer
// keeps the input.
[[noreturn]] inline void fail(const std::string& why) {
    std::fprintf(stderr, "attnviz-fuzz: %s\n", why.substr(0, 300).c_str());
    std::abort();
}

// The readers under test take a path, as the CLI and the app do: the input is written to a
// file of this process (one per process and suffix, so parallel fuzzer jobs do not collide,
// and a target that picks the suffix per input, as fuzz_image does, gets that suffix every
// time rather than the first input's).
inline const std::string& writeInput(const uint8_t* data, size_t size, const char* suffix) {
    static std::map<std::string, std::string> paths;
    std::string& path = paths[suffix];
    if (path.empty()) path = "/tmp/attnviz-fuzz-" + std::to_string(::getpid()) + suffix;
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f) fail("cannot write " + path);
    if (size) std::fwrite(data, 1, size, f);
    std::fclose(f);
    return path;
}

}  // namespace attnviz::fuzz
