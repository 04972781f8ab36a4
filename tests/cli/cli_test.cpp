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

namespace {

std::string readAll(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

void writeFile(const std::string& path, const std::string& text) {
    std::ofstream f(path, std::ios::binary);
    f << text;
}

const std::string kTinyConfig = R"({"d_model": 32, "heads": 2, "d_ff": 64, "enc_layers": 1,
                                    "dec_layers": 1, "max_len": 48})";

}  // namespace

TEST(Cli, TrainEvalAndTheCheckpointsMetadata) {
    const std::string cfg = tmp("tiny.json"), model = tmp("trained.safetensors"),
                      log = tmp("log.jsonl");
    writeFile(cfg, kTinyConfig);
    Result r =
        cli({"train", "--config", cfg, "--task", "translate", "--steps", "20", "--out", model,
             "--held-out", "20", "--eval-every", "10", "--log", log, "--threads", "2"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("after 20 steps"), std::string::npos);
    EXPECT_NE(r.err.find("step 20/20"), std::string::npos);  // plain progress lines, not a tty
    EXPECT_NE(r.err.find("ETA"), std::string::npos);
    // One JSON line per step; held-out metrics at steps 10 and 20.
    std::istringstream lines(readAll(log));
    int n = 0, evals = 0;
    for (std::string line; std::getline(lines, line); ++n) {
        const json j = json::parse(line);
        EXPECT_EQ(j["step"], n + 1);
        evals += j.contains("held_out") ? 1 : 0;
    }
    EXPECT_EQ(n, 20);
    EXPECT_EQ(evals, 2);
    r = cli({"info", "--model", model, "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    const json t = json::parse(r.out)["training"];
    EXPECT_EQ(t["kind"], "trained");
    EXPECT_EQ(t["task"], "translate");
    EXPECT_EQ(t["steps"], 20);
    EXPECT_EQ(t["options"]["threads"], 2);
    EXPECT_TRUE(t["held_out"].contains("bleu"));
    EXPECT_TRUE(t["held_out"].contains("best_aer"));
    r = cli({"eval", "--model", model, "--task", "translate", "--count", "10"});
    ASSERT_EQ(r.code, 0) << r.err;
    const json m = json::parse(r.out)["metrics"];
    EXPECT_EQ(m["sentences"], 10);
    for (const char* k : {"loss", "token_accuracy", "exact_match", "bleu", "aer"})
        EXPECT_TRUE(m.contains(k)) << k;
    // Continue from the checkpoint: its config and vocabularies.
    r = cli({"train", "--init", model, "--task", "translate", "--steps", "2", "--out",
             tmp("more.safetensors"), "--held-out", "5"});
    ASSERT_EQ(r.code, 0) << r.err;
}

TEST(Cli, TrainingIsReproducibleToTheByte) {
    const std::string cfg = tmp("tiny2.json");
    writeFile(cfg, kTinyConfig);
    std::vector<std::string> files;
    for (const char* name : {"a", "b"}) {
        files.push_back(tmp(std::string("rep_") + name + ".safetensors"));
        const Result r =
            cli({"train", "--config", cfg, "--task", "sort", "--steps", "15", "--threads", "2",
                 "--seed", "9", "--dropout", "0.3", "--held-out", "10", "--out", files.back()});
        ASSERT_EQ(r.code, 0) << r.err;
    }
    EXPECT_TRUE(readAll(files[0]) == readAll(files[1]));
}

TEST(Cli, TrainOnUserDataReportsBadLines) {
    const std::string cfg = tmp("tiny3.json"), data = tmp("pairs.tsv");
    writeFile(cfg, kTinyConfig);
    std::string text;
    for (int i = 0; i < 30; ++i) text += "hello world " + std::to_string(i) + "\thallo welt\n";
    text += "a line without a tab\n";
    writeFile(data, text);
    Result r = cli({"train", "--config", cfg, "--data", data, "--steps", "3", "--out",
                    tmp("user.safetensors")});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.err.find("1 of 31 lines skipped: line 31: no tab"), std::string::npos) << r.err;
    r = cli({"info", "--model", tmp("user.safetensors"), "--json"});
    EXPECT_EQ(json::parse(r.out)["training"]["data"], "attnviz_cli_pairs.tsv");
}

TEST(Cli, TrainErrorsAreClear) {
    const std::string cfg = tmp("tiny4.json");
    writeFile(cfg, kTinyConfig);
    Result r = cli({"train", "--config", cfg, "--task", "parse", "--out", tmp("x.safetensors")});
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("unknown task 'parse'"), std::string::npos);
    r = cli({"train", "--config", cfg, "--out", tmp("x.safetensors")});
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("--task or --data"), std::string::npos);
    r = cli(
        {"train", "--config", cfg, "--task", "copy", "--lr", "-1", "--out", tmp("x.safetensors")});
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("--lr must be positive"), std::string::npos);
    r = cli({"train", "--config", cfg, "--task", "copy", "--out", "/nonexistent-dir/x.safetensors",
             "--steps", "1"});
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("/nonexistent-dir"), std::string::npos) << r.err;
}

TEST(Cli, BenchTrainReportsRatesAsJson) {
    const std::string cfg = tmp("tiny5.json");
    writeFile(cfg, kTinyConfig);
    const Result r = cli({"bench", "train", "--config", cfg, "--batch-size", "4", "--seq-len", "8",
                          "--steps", "2", "--threads", "2", "--vocab", "100"});
    ASSERT_EQ(r.code, 0) << r.err;
    const json j = json::parse(r.out);
    for (const char* k :
         {"ms_per_step", "tokens_per_s", "gflops", "eigen_gemm_gflops", "fraction_of_gemm"})
        EXPECT_GT(j[k].get<double>(), 0.0) << k;
}

// The registry and the presets as the CLI lists them, and a preset by name.
TEST(Cli, VariantsPresetsAndInitFromAPreset) {
    Result r = cli({"variants", "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    const json variants = json::parse(r.out);
    ASSERT_GE(variants.size(), 8u);
    bool sigma = false;
    for (const auto& v : variants)
        for (const auto& o : v["options"])
            if (o["name"] == "sigma")
                sigma = o["editable"] == true && o["rule"] == "must be a finite number > 0";
    EXPECT_TRUE(sigma);

    r = cli({"presets"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("hc-sa\t"), std::string::npos) << r.out;

    const std::string model = tmp("preset.safetensors");
    r = cli({"init", "--preset", "hc-sa", "--out", model});
    ASSERT_EQ(r.code, 0) << r.err;
    r = cli({"info", "--model", model, "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    const json info = json::parse(r.out);
    EXPECT_EQ(info["config"]["encoder_self"]["variant"], "gaussian");
    EXPECT_EQ(info["config"]["cross"]["variant"], "dot");
    EXPECT_EQ(info["config"].count("label"), 0u);  // a name for people, not part of the model

    r = cli({"init", "--preset", "no-such", "--out", model});
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("unknown preset 'no-such' (known: dot,"), std::string::npos) << r.err;
}
