// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <future>
#include <initializer_list>
#include <memory>
#include <string>
#include <thread>

#include "core/model.h"

namespace attnviz::test {

inline Model makeModel(const std::string& configJson, uint64_t seed = 1) {
    const ModelConfig cfg = ModelConfig::fromJsonText(configJson);
    Vocab v = Vocab::fromWords(builtinEnglishWords());
    return Model::initialize(cfg, v, v, Tokenizer(true), seed);
}

// A matrix written row by row: rows({{1, 2}, {3, 4}}).
inline Mat rows(std::initializer_list<std::initializer_list<float>> r) {
    Mat m(Eigen::Index(r.size()), Eigen::Index(r.begin()->size()));
    Eigen::Index i = 0;
    for (const auto& row : r) {
        Eigen::Index j = 0;
        for (float x : row) m(i, j++) = x;
        ++i;
    }
    return m;
}

// Message of the Error thrown by f, or "" when nothing was thrown.
template <class F>
std::string errorOf(F&& f) {
    try {
        f();
    } catch (const std::exception& e) {
        return e.what();
    }
    return "";
}

// The message of read(path) (errorOf), run on another thread: a reader that blocks (a FIFO
// opened for reading waits for a writer) fails the test instead of hanging it, the FIFO then
// opened to release it; one that reads without end (/dev/zero) ends the test binary with a
// failure before memory runs out. `name` names the reader in the failure.
inline std::string errorWithin(const std::string& name,
                               const std::function<void(const std::string&)>& read,
                               const std::string& path, const std::string& fifo = "") {
    auto done = std::make_shared<std::promise<std::string>>();
    auto result = done->get_future();
    std::thread([read, path, done] { done->set_value(errorOf([&] { read(path); })); }).detach();
    if (result.wait_for(std::chrono::seconds(3)) != std::future_status::ready) {
        ADD_FAILURE() << name << ": reading '" << path << "' did not return";
        if (fifo.empty()) {
            std::fprintf(stderr, "FAILED: %s: reading '%s' did not return\n", name.c_str(),
                         path.c_str());
            std::_Exit(1);
        }
        ::close(::open(fifo.c_str(), O_RDWR));  // let the reader go
    }
    return result.get();
}

inline std::string tempPath(const std::string& name) {
    return ::testing::TempDir() + "attnviz_" + name;
}

}  // namespace attnviz::test

#include <filesystem>

#include "core/config.h"

namespace attnviz::test {

// Configurations in tests/data/configs (file names without .json).
inline std::vector<std::string> configNames() {
    std::vector<std::string> names;
    for (const auto& e : std::filesystem::directory_iterator(ATTNVIZ_TEST_DATA "/configs"))
        if (e.path().extension() == ".json") names.push_back(e.path().stem().string());
    std::sort(names.begin(), names.end());
    return names;
}

inline std::string readConfig(const std::string& name) {
    return readTextFile(ATTNVIZ_TEST_DATA "/configs/" + name + ".json", kMaxConfigBytes, "test");
}

}  // namespace attnviz::test
