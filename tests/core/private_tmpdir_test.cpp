// SPDX-License-Identifier: GPL-3.0-or-later
// The scratch folder of tests/support/private_tmpdir.cpp: each test process has its own, so
// two tests running at once never share a scratch file by name.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <string>

TEST(PrivateTmpdir, EachTestProcessHasAScratchFolderOfItsOwn) {
    const std::string dir = ::testing::TempDir();
    EXPECT_NE(dir, "/tmp/") << "TEST_TMPDIR was not set before the tests ran";
    EXPECT_NE(dir.find("/attnviz-test-"), std::string::npos) << dir;
    ASSERT_TRUE(std::filesystem::is_directory(dir)) << dir;
    // mkdtemp made it for this process alone: only its owner may enter it.
    const auto perms = std::filesystem::status(dir).permissions();
    EXPECT_EQ(perms & std::filesystem::perms::group_all, std::filesystem::perms::none);
    EXPECT_EQ(perms & std::filesystem::perms::others_all, std::filesystem::perms::none);
}
