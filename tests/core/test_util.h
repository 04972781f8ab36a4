// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "core/model.h"

namespace attnviz::test {

inline Model makeModel(const std::string& configJson, uint64_t seed = 1) {
    const ModelConfig cfg = ModelConfig::fromJsonText(configJson);
    Vocab v = Vocab::fromWords(builtinEnglishWords());
    return Model::initialize(cfg, v, v, Tokenizer(true), seed);
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
