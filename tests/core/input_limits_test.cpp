// SPDX-License-Identifier: GPL-3.0-or-later
// The limits on what a user's file may hold (docs/limits.md): nesting, size, repeated keys,
// bounded excerpts, special files.
#include "core/input_limits.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>

#include "core/error.h"
#include "test_util.h"

namespace attnviz {
namespace {

std::string parseError(const std::string& text, uint64_t maxBytes = kMaxConfigBytes) {
    return test::errorOf([&] { parseJson(text, "input", maxBytes); });
}

TEST(InputLimits, NestingIsBoundedWithoutRecursion) {
    const std::string ok = std::string(kMaxJsonDepth, '[') + std::string(kMaxJsonDepth, ']');
    EXPECT_TRUE(parseJson(ok, "input").is_array());
    const std::string over = "[" + ok + "]";
    EXPECT_NE(parseError(over).find("deeper than 64 levels"), std::string::npos);
    // Issue 11, defect 1: 300,000 levels (the crash input) and an unfinished 50,000.
    EXPECT_NE(parseError(std::string(300000, '[') + std::string(300000, ']'), 1 << 21)
                  .find("deeper than"),
              std::string::npos);
    EXPECT_NE(parseError("{\"d_model\":" + std::string(50000, '[')).find("deeper than"),
              std::string::npos);
}

TEST(InputLimits, RepeatedKeysAndSizeAreRefused) {
    EXPECT_NE(parseError(R"({"a": 1, "b": {"a": 2, "a": 3}})").find("repeats the key 'a'"),
              std::string::npos);
    EXPECT_TRUE(parseJson(R"([{"a": 1}, {"a": 2}])", "input").is_array());
    EXPECT_NE(parseError("[1, 2, 3]", 4).find("limit is 4 bytes"), std::string::npos);
    EXPECT_NE(parseError("{").find("not valid JSON"), std::string::npos);
}

TEST(InputLimits, ExcerptsAreShortAndNeverSerialiseContainers) {
    EXPECT_EQ(excerpt(nlohmann::json::parse("[[1],[2]]")), "an array of 2 elements");
    EXPECT_EQ(excerpt(nlohmann::json::parse(R"({"a": [1]})")), "an object of 1 keys");
    EXPECT_EQ(excerpt(nlohmann::json(5)), "5");
    const std::string long_(5000, 'k');
    EXPECT_LT(excerpt(long_).size(), 50u);
    EXPECT_LT(excerpt(nlohmann::json(long_)).size(), 52u);
    // Cut at a character boundary: the excerpt stays valid UTF-8.
    std::string accents;
    for (int i = 0; i < 40; ++i) accents += "é";
    EXPECT_NO_THROW(nlohmann::json(excerpt(accents)).dump());
}

TEST(InputLimits, SpecialAndOversizedFilesAreRefusedByName) {
    EXPECT_NE(test::errorOf([] {
                  readTextFile("/dev/zero", 100, "configuration");
              }).find("'/dev/zero' is a character device"),
              std::string::npos);
    EXPECT_NE(test::errorOf([] { readTextFile("/", 100, "configuration"); }).find("a directory"),
              std::string::npos);
    const std::string fifo = ::testing::TempDir() + "attnviz_limits_fifo";
    ::unlink(fifo.c_str());
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    EXPECT_NE(test::errorOf([&] { readTextFile(fifo, 100, "data file"); }).find("FIFO"),
              std::string::npos);
    ::unlink(fifo.c_str());
    const std::string big = ::testing::TempDir() + "attnviz_limits_big";
    std::ofstream(big) << std::string(200, 'x');
    EXPECT_NE(test::errorOf([&] {
                  readTextFile(big, 100, "data file");
              }).find("larger than the limit for a data file"),
              std::string::npos);
    EXPECT_EQ(readTextFile(big, 200, "data file").size(), 200u);
}

}  // namespace
}  // namespace attnviz
