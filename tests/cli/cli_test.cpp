// SPDX-License-Identifier: GPL-3.0-or-later
// attnviz-cli driven in-process, as a user would call it.
#include "cli/cli.h"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

using nlohmann::json;

namespace {

struct Result {
    int code;
    std::string out, err;
};

Result cli(std::vector<std::string> args) {
    args.insert(args.begin(), "attnviz-cli");
    std::vector<const char*> argv;
    for (auto& a : args) argv.push_back(a.c_str());
    std::ostringstream out, err;
    const int code = attnviz::cli::run(int(argv.size()), argv.data(), out, err);
    return {code, out.str(), err.str()};
}

const std::string kData = ATTNVIZ_TEST_DATA;
std::string tmp(const std::string& n) {
    return ::testing::TempDir() + "attnviz_cli_" + n;
}

}  // namespace

TEST(Cli, HelpEverywhere) {
    for (auto args : std::vector<std::vector<std::string>>{{"--help"},
                                                           {"init", "--help"},
                                                           {"attention", "--help"},
                                                           {"info", "--help"},
                                                           {"bench", "forward", "--help"}}) {
        const Result r = cli(args);
        EXPECT_EQ(r.code, 0);
        EXPECT_NE(r.out.find("Usage"), std::string::npos) << r.out;
    }
}

TEST(Cli, InitInfoAttention) {
    const std::string model = tmp("gauss.safetensors");
    Result r =
        cli({"init", "--config", kData + "/configs/gaussian.json", "--seed", "3", "--out", model});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("wrote"), std::string::npos);

    r = cli({"info", "--model", model, "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    const json info = json::parse(r.out);
    EXPECT_EQ(info["config"]["cross"]["ratio"], 1.5);
    EXPECT_GT(info["parameters"]["total"].get<int64_t>(), 0);
    EXPECT_EQ(info["parameters"]["by_role"].count("attention.scores"),
              0u);  // Gaussian: nothing to learn

    const std::string out = tmp("dump.json");
    r = cli({"attention", "--model", model, "--text", "I want to go to the station", "--target",
             "x y", "--out", out});
    ASSERT_EQ(r.code, 0) << r.err;
    std::ifstream in(out);
    const json d = json::parse(in);
    EXPECT_EQ(d["source"]["tokens"].size(), 8u);
    EXPECT_EQ(d["target"]["tokens"], json({"<bos>", "x", "y"}));
    EXPECT_TRUE(d.contains("loss"));
    ASSERT_EQ(d["blocks"].size(), 6u);
    const json& w = d["blocks"][0]["weights"];
    EXPECT_EQ(w.size(), 4u);        // heads
    EXPECT_EQ(w[0].size(), 8u);     // queries
    EXPECT_EQ(w[0][0].size(), 8u);  // keys
    // Encoder head 0 (offset -1, sigma 0.8): query "go" (3) peaks on "to" (2).
    const auto row = w[0][3].get<std::vector<float>>();
    EXPECT_EQ(std::max_element(row.begin(), row.end()) - row.begin(), 2);
}

TEST(Cli, ErrorsAreMessagesAndExitCodes) {
    Result r = cli({"attention", "--model", "/nonexistent.safetensors", "--text", "hi"});
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("cannot open '/nonexistent.safetensors'"), std::string::npos) << r.err;
    r = cli({"frobnicate"});
    EXPECT_EQ(r.code, 2);
    r = cli({"attention", "--text", "hi"});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("--model"), std::string::npos) << r.err;

    const std::string model = tmp("dense.safetensors");
    ASSERT_EQ(cli({"init", "--config", kData + "/configs/dense.json", "--out", model}).code, 0);
    r = cli({"attention", "--model", model, "--text", ""});
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("empty"), std::string::npos);
    r = cli({"attention", "--model", model, "--text",
             "a b c d e f g h i j k l m n o p q r s t u v w x y z"});
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("at most 23"), std::string::npos) << r.err;
    r = cli({"attention", "--model", model, "--text", "bad \xff byte"});
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("byte offset 4"), std::string::npos) << r.err;
    r = cli({"attention", "--model", model, "--text", "hi", "--out", "/nonexistent-dir/out.json"});
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("cannot write"), std::string::npos) << r.err;

    const std::string badCfg = tmp("bad.json");
    std::ofstream(badCfg) << R"({"max_len": 64, "cross": {"variant": "factorized_dense", "a": 5}})";
    r = cli({"init", "--config", badCfg, "--out", tmp("never.safetensors")});
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("'a' (5) must divide max_len (64)"), std::string::npos) << r.err;
}

TEST(Cli, BenchForwardPrintsJson) {
    const Result r = cli({"bench", "forward", "--variant", "gaussian", "--len", "8", "--len", "16",
                          "--repeat", "2"});
    ASSERT_EQ(r.code, 0) << r.err;
    const json j = json::parse(r.out);
    ASSERT_EQ(j["results"].size(), 2u);
    EXPECT_EQ(j["results"][1]["tokens"], 16);
    EXPECT_GT(j["results"][0]["ms_median"].get<double>(), 0.0);
}
