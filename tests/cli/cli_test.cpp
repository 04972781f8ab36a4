// SPDX-License-Identifier: GPL-3.0-or-later
// attnviz-cli driven in-process, as a user would call it.
#include "cli/cli.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_run.h"
#include "core/gemm.h"
#include "core/probe.h"
#include "core/safetensors.h"

using nlohmann::json;

namespace {

using Result = attnviz::test::CliResult;
using attnviz::test::cli;

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
    EXPECT_NE(r.err.find("does not exist"), std::string::npos) << r.err;

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
    // --hypotheses: one line per example, hypothesis TAB reference; `bleu` on the two columns
    // gives eval's BLEU again (the words written are the words BLEU counted).
    const std::string hyps = tmp("hyps.tsv"), hypCol = tmp("hyp.txt"), refCol = tmp("ref.txt");
    r = cli(
        {"eval", "--model", model, "--task", "translate", "--count", "10", "--hypotheses", hyps});
    ASSERT_EQ(r.code, 0) << r.err;
    const double evalBleu = json::parse(r.out)["metrics"]["bleu"].get<double>();
    {
        std::istringstream in(readAll(hyps));
        std::ofstream h(hypCol), g(refCol);
        int lines = 0;
        for (std::string line; std::getline(in, line); ++lines) {
            const size_t tab = line.find('\t');
            ASSERT_NE(tab, std::string::npos) << line;
            EXPECT_EQ(line.find('\t', tab + 1), std::string::npos) << line;
            h << line.substr(0, tab) << "\n";
            g << line.substr(tab + 1) << "\n";
        }
        EXPECT_EQ(lines, 10);
    }
    r = cli({"bleu", "--hyp", hypCol, "--ref", refCol});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NEAR(100 * json::parse(r.out)["bleu"].get<double>(), evalBleu, 1e-9) << r.out;
    r = cli({"eval", "--model", model, "--task", "translate", "--no-decode", "--hypotheses", hyps});
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("--hypotheses"), std::string::npos) << r.err;
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

// --save-at keeps the model of a shorter run on the way (issue 30's longer-training experiment:
// one 9,000-step run gives the 3,000- and 6,000-step models): the step-3 checkpoint of a 6-step
// run has the same tensors as a 3-step run with the same seed, dropout on, two threads.
// train --state: a run of 3 steps continued to 6 from its state file writes the same bytes as
// a run of 6 steps (issue 50: long runs go on where a session stopped them), and the kept
// model is the best evaluation's, recorded as chosen on validation.
TEST(Cli, AStateFileContinuesARunToTheSameBytes) {
    const std::string cfg = tmp("tiny_st.json"), state = tmp("st.state.safetensors"),
                      a = tmp("st_a.safetensors"), b = tmp("st_b.safetensors"),
                      c = tmp("st_c.safetensors");
    writeFile(cfg, kTinyConfig);
    std::remove(state.c_str());
    const std::vector<std::string> common{
        "train", "--config",     cfg, "--task",      "sort", "--threads",
        "2",     "--seed",       "4", "--dropout",   "0.3",  "--held-out",
        "10",    "--eval-every", "2", "--select-on", "loss"};
    auto with = [&](std::vector<std::string> more) {
        std::vector<std::string> args = common;
        args.insert(args.end(), more.begin(), more.end());
        return args;
    };
    Result r = cli(with({"--steps", "3", "--state", state, "--out", a}));
    ASSERT_EQ(r.code, 0) << r.err;
    r = cli(with({"--steps", "6", "--state", state, "--out", b}));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.err.find("continuing from step 3 of 6"), std::string::npos) << r.err;
    r = cli(with({"--steps", "6", "--out", c}));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(readAll(b) == readAll(c));
    const json t = json::parse(attnviz::SafeTensorsFile::read(c).metadata.at("training"));
    EXPECT_EQ(t["checkpoint_chosen_on"], "validation");
    EXPECT_EQ(t["selected_on"], "loss");
    EXPECT_EQ(t["steps"], 6);
    // Another run's state is refused by name, and left as it is.
    const std::string before = readAll(state);
    r = cli(with({"--steps", "6", "--lr", "0.01", "--state", state, "--out", b}));
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("is of another run: its options.lr is"), std::string::npos) << r.err;
    EXPECT_TRUE(readAll(state) == before);
    // A checkpoint given as the state is refused, not overwritten.
    const std::string model = readAll(a);
    r = cli(with({"--steps", "6", "--state", a, "--out", b}));
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("is not a training state"), std::string::npos) << r.err;
    EXPECT_TRUE(readAll(a) == model);
}

TEST(Cli, SaveAtKeepsTheModelOfTheShorterRun) {
    const std::string cfg = tmp("tiny_sa.json"), longRun = tmp("sa_long.safetensors"),
                      shortRun = tmp("sa_short.safetensors"),
                      kept = tmp("sa_long.step3.safetensors");
    writeFile(cfg, kTinyConfig);
    std::remove(kept.c_str());
    const std::vector<std::string> common{
        "train",  "--config", cfg,         "--task", "sort",       "--threads", "2",
        "--seed", "4",        "--dropout", "0.3",    "--held-out", "10"};
    auto with = [&](std::vector<std::string> more) {
        std::vector<std::string> args = common;
        args.insert(args.end(), more.begin(), more.end());
        return args;
    };
    Result r = cli(with({"--steps", "6", "--save-at", "3", "--out", longRun}));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.err.find("wrote " + kept), std::string::npos) << r.err;
    r = cli(with({"--steps", "3", "--out", shortRun}));
    ASSERT_EQ(r.code, 0) << r.err;
    const auto a = attnviz::SafeTensorsFile::read(kept),
               b = attnviz::SafeTensorsFile::read(shortRun),
               c = attnviz::SafeTensorsFile::read(longRun);
    ASSERT_EQ(a.tensors.size(), b.tensors.size());
    auto same = [](const attnviz::Tensor& x, const attnviz::Tensor& y) {
        return x.shape == y.shape && x.m == y.m;  // the shape first: == needs equal sizes
    };
    bool longDiffers = false;
    for (const auto& [name, t] : b.tensors) {
        ASSERT_EQ(a.tensors.count(name), 1u) << name;
        EXPECT_TRUE(same(a.tensors.at(name), t)) << name;
        longDiffers = longDiffers || !same(c.tensors.at(name), t);
    }
    EXPECT_TRUE(longDiffers);  // the 6-step model trained on
    EXPECT_EQ(json::parse(a.metadata.at("training"))["steps"], 3);
    EXPECT_EQ(json::parse(c.metadata.at("training"))["steps"], 6);

    r = cli(with({"--steps", "6", "--save-at", "6", "--out", longRun}));
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("--save-at 6 is not below --steps 6"), std::string::npos) << r.err;
    r = cli(with({"--steps", "6", "--save-at", "2", "--schedule", "linear", "--out", longRun}));
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("--schedule linear"), std::string::npos) << r.err;
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

// Ten lines hold nothing out (every 20th line is held out): train says so, and the checkpoint
// records 0 sentences without a loss or an accuracy, which would read like results (issue 29).
TEST(Cli, TrainingWithNothingHeldOutSaysSoInsteadOfPrintingZeros) {
    const std::string cfg = tmp("tiny_ho.json"), data = tmp("ten.tsv"),
                      out = tmp("ten.safetensors");
    writeFile(cfg, kTinyConfig);
    std::string text;
    for (int i = 0; i < 10; ++i) text += "hello world " + std::to_string(i) + "\thallo welt\n";
    writeFile(data, text);
    Result r = cli({"train", "--config", cfg, "--data", data, "--steps", "2", "--out", out});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("no held-out set"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("\"loss\""), std::string::npos) << r.out;
    r = cli({"info", "--model", out, "--json"});
    const json heldOut = json::parse(r.out)["training"]["held_out"];
    EXPECT_EQ(heldOut["sentences"], 0) << heldOut;
    EXPECT_FALSE(heldOut.contains("loss")) << heldOut;
    EXPECT_FALSE(heldOut.contains("token_accuracy")) << heldOut;
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
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("--lr: must be above 0 and at most 10, got -1"), std::string::npos);
    r = cli({"train", "--config", cfg, "--task", "copy", "--out", "/nonexistent-dir/x.safetensors",
             "--steps", "1"});
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("/nonexistent-dir"), std::string::npos) << r.err;
}

// Sizes are checked before anything is allocated or any thread started.
TEST(Cli, BenchTrainRefusesSizesItCannotRun) {
    const std::string cfg = tmp("tiny5b.json");
    writeFile(cfg, kTinyConfig);
    for (const std::vector<std::string>& bad : {std::vector<std::string>{"--vocab", "4"},
                                                {"--vocab", "0"},
                                                {"--threads", "100000"},
                                                {"--batch-size", "0"},
                                                {"--seq-len", "1"},
                                                {"--steps", "0"}}) {
        std::vector<std::string> args{"bench", "train", "--config", cfg, "--steps", "1"};
        args.insert(args.end(), bad.begin(), bad.end());
        const Result r = cli(args);
        EXPECT_EQ(r.code, 2) << bad[0] << " " << bad[1] << ": " << r.err;
        EXPECT_NE(r.err.find(bad[0]), std::string::npos) << r.err;
    }
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
    if (std::string(attnviz::gemmBackend()) == "eigen") {  // no library, nothing recorded
        EXPECT_TRUE(j["products_alone_ms"].is_null());
        return;
    }
    for (const char* k : {"products_alone_ms", "fraction_of_products_alone"})
        EXPECT_GT(j[k].get<double>(), 0.0) << k;
    // Each distinct product is listed; together they are the whole floor and every call.
    const json& shapes = j["products"];
    ASSERT_EQ(shapes.size(), j["product_shapes"].get<size_t>());
    double ms = 0, gflop = 0;
    size_t calls = 0;
    for (const json& s : shapes) {
        const double m = s["m"], n = s["n"], k = s["k"], us = s["us_alone"];
        const int count = s["per_step"];
        EXPECT_GT(us, 0.0);
        EXPECT_NEAR(s["gflops_alone"].get<double>(), 2 * m * n * k / us / 1e3, 1e-6 * (m * n * k));
        EXPECT_NEAR(s["ms_per_step"].get<double>(), us * count / 1000 / 2, 1e-9);  // 2 threads
        ms += s["ms_per_step"].get<double>();
        gflop += 2 * m * n * k * count / 1e9;
        calls += size_t(count);
    }
    EXPECT_EQ(calls, j["products_per_step"].get<size_t>());
    EXPECT_NEAR(ms, j["products_alone_ms"].get<double>(), 1e-9 * ms);
    EXPECT_NEAR(gflop, j["products_gflop"].get<double>(), 1e-9 * gflop);
    // With oneDNN the library sees every product of the step (core/gemm.h), so the recorded
    // products are the FLOP count's model to the last multiply-add: V, output, Q and K
    // projections, q·kᵀ and a·v per head, FFN and output layer, backward twice the forward.
    if (std::string(attnviz::gemmBackend()) == "onednn") {
        EXPECT_DOUBLE_EQ(j["products_gflop"].get<double>(), j["gflop_per_step"].get<double>());
        EXPECT_GT(j["product_shapes"].get<int>(), 5);
    }
}

// bench train on image models counts what their products are: a colour patch's three values,
// a convolutional stem's products (each output pixel's 9·Cin by Cout), and no input gradient
// for the first product: within 1 % of the products recorded (the count had left out both).
TEST(Cli, BenchTrainCountsColourPatchesAndTheStem) {
    if (std::string(attnviz::gemmBackend()) != "onednn") GTEST_SKIP() << "products not recorded";
    for (const char* extra : {R"("patch": 4)", R"("patch": 4, "stem": [8, 16])"}) {
        const std::string cfg = tmp("bench-vit.json");
        writeFile(cfg, std::string(R"({"arch": "vit", "d_model": 16, "heads": 2, "d_ff": 16,
                                      "enc_layers": 1, "image_size": 32, "channels": 3, )") +
                           extra + "}");
        const Result r = cli({"bench", "train", "--config", cfg, "--steps", "1", "--threads", "1"});
        ASSERT_EQ(r.code, 0) << r.err;
        const json j = json::parse(r.out);
        const double counted = j["gflop_per_step"], recorded = j["products_gflop"];
        EXPECT_NEAR(counted / recorded, 1.0, 0.01) << extra << ": " << counted << " " << recorded;
    }
}

// bench gemm: every product of a step, its rate, and the library the program was built with.
TEST(Cli, BenchGemmReportsEachProductOfAStep) {
    const std::string cfg = tmp("tiny6.json");
    writeFile(cfg, kTinyConfig);
    Result r = cli({"bench", "gemm", "--config", cfg, "--batch-size", "4", "--seq-len", "8",
                    "--threads", "2", "--vocab", "50"});
    ASSERT_EQ(r.code, 0) << r.err;
    const json j = json::parse(r.out);
    EXPECT_EQ(j["library"], attnviz::gemmBackend());
    ASSERT_EQ(j["shapes"].size(), 15u);
    EXPECT_EQ(j["shapes"][0]["m"], 4 / 2 * 8);  // a thread's shard: 2 sequences of 8
    for (const auto& s : j["shapes"]) EXPECT_GT(s["gflops"].get<double>(), 0.0) << s.dump();
    EXPECT_GT(j["step_gflops"].get<double>(), 0.0);
    r = cli({"bench", "gemm", "--config", cfg, "--batch-size", "1", "--threads", "2"});
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("--batch-size >= --threads"), std::string::npos) << r.err;
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
                sigma = o["editable"] == true &&
                        o["rule"] == "must be a finite number between 0.001 and 1024";
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

// Issue 11: every defect found by attacking the inputs, one test each. Each of these failed
// (crash, exit 0, raw exception or lost file) with the tool before the fixes.
namespace {

const std::string kIssueConfig = R"({"d_model": 16, "heads": 2, "d_ff": 16, "enc_layers": 1,
                                     "dec_layers": 1, "max_len": 16})";

// A fresh small checkpoint and its configuration, named after the test.
std::string freshModel(const std::string& name) {
    const std::string cfg = tmp(name + ".json"), model = tmp(name + ".safetensors");
    writeFile(cfg, kIssueConfig);
    const Result r = cli({"init", "--config", cfg, "--out", model});
    EXPECT_EQ(r.code, 0) << r.err;
    return model;
}

// `model` with its metadata `key` replaced, or every weight multiplied by `scale`.
std::string alteredModel(const std::string& model, const std::string& name, const std::string& key,
                         const std::string& value, float scale = 1) {
    attnviz::SafeTensorsFile f = attnviz::SafeTensorsFile::read(model);
    if (!key.empty()) f.metadata[key] = value;
    for (auto& [n, t] : f.tensors)
        for (int64_t i = 0; i < t.numel(); ++i) t.data()[i] *= scale;
    const std::string out = tmp(name + ".safetensors");
    f.write(out);
    return out;
}

void expectError(const Result& r, int code, const std::string& part) {
    EXPECT_EQ(r.code, code) << r.err;
    EXPECT_NE(r.err.find(part), std::string::npos) << r.err;
    EXPECT_LT(r.err.size(), 600u) << "an error message must stay short";
}

}  // namespace

// Defect 1: deep JSON crashed info, attention and init (stack overflow).
TEST(CliIssue11, DeeplyNestedJsonIsRefusedNotSerialised) {
    const std::string model = freshModel("deep");
    const std::string deep = std::string(300000, '[') + std::string(300000, ']');
    const std::string badTraining = alteredModel(model, "deep_training", "training", deep);
    expectError(cli({"info", "--model", badTraining}), 1, "deeper than 64 levels");
    const std::string badConfig = alteredModel(
        model, "deep_config", "config",
        R"({"d_model": 16, "heads": 2, "d_ff": 16, "enc_layers": 1, "dec_layers": 1, "bias": )" +
            deep + "}");
    expectError(cli({"info", "--model", badConfig}), 1, "deeper than 64 levels");
    expectError(cli({"attention", "--model", badConfig, "--text", "a"}), 1, "deeper than");
    const std::string cfg = tmp("deep_file.json");
    writeFile(cfg, "{\"d_model\":" + std::string(50000, '['));
    expectError(cli({"init", "--config", cfg, "--out", tmp("deep_out.safetensors")}), 1,
                "deeper than");
    // A wide (not deep) training value is printed bounded by info (an object: training
    // metadata that is not one is refused, docs/model-spec.md 7.3).
    const std::string wide = alteredModel(model, "wide_training", "training",
                                          "{\"notes\": \"" + std::string(100000, 'x') + "\"}");
    const Result r = cli({"info", "--model", wide});
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_LT(r.out.size(), 5000u);
}

// Defect 2: --indent above 1024 read past a heap buffer.
TEST(CliIssue11, IndentIsBounded) {
    const std::string model = freshModel("indent");
    for (const char* n : {"17", "1025", "2000", "1000000", "-3"})
        expectError(cli({"attention", "--model", model, "--text", "a", "--indent", n}), 2,
                    "--indent");
    EXPECT_EQ(cli({"attention", "--model", model, "--text", "a", "--indent", "16"}).code, 0);
}

// Defect 4: --out replaced FIFOs, symlinks and read-only files, and lost a file's mode.
TEST(CliIssue11, OutputsAreOnlyRegularWritableFilesAndKeepTheirMode) {
    const std::string model = freshModel("outputs"), cfg = tmp("outputs.json");
    const std::string fifo = tmp("out_fifo"), link = tmp("out_link"), target = tmp("out_target");
    ::unlink(fifo.c_str());
    ::unlink(link.c_str());
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    writeFile(target, "keep");
    ASSERT_EQ(::symlink(target.c_str(), link.c_str()), 0);
    expectError(cli({"attention", "--model", model, "--text", "a", "--out", fifo}), 1, "FIFO");
    expectError(cli({"init", "--config", cfg, "--out", link}), 1, "symbolic link");
    expectError(cli({"init", "--config", cfg, "--out", ::testing::TempDir()}), 1, "directory");
    struct stat st {};
    ASSERT_EQ(::lstat(link.c_str(), &st), 0);
    EXPECT_TRUE(S_ISLNK(st.st_mode));
    EXPECT_EQ(readAll(target), "keep");
    ::unlink(fifo.c_str());
    ::unlink(link.c_str());

    const std::string ro = tmp("out_ro.safetensors"), priv = tmp("out_600.safetensors");
    writeFile(ro, "old");
    ::chmod(ro.c_str(), 0444);
    expectError(cli({"init", "--config", cfg, "--out", ro}), 1, "read-only");
    EXPECT_EQ(readAll(ro), "old");
    ::chmod(ro.c_str(), 0644);
    writeFile(priv, "old");
    ::chmod(priv.c_str(), 0600);
    ASSERT_EQ(cli({"init", "--config", cfg, "--out", priv}).code, 0);
    ASSERT_EQ(::stat(priv.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0600u);
}

// Defect 5: an output equal to an input destroyed the input.
TEST(CliIssue11, NoCommandOverwritesItsInput) {
    const std::string model = freshModel("same"), cfg = tmp("same.json");
    const std::string before = readAll(model), cfgBefore = readAll(cfg);
    expectError(cli({"attention", "--model", model, "--text", "a", "--out", model}), 1,
                "same file as the input");
    expectError(cli({"train", "--init", model, "--task", "copy", "--steps", "1", "--out",
                     tmp("same_out.safetensors"), "--log", model}),
                1, "same file as the input");
    expectError(cli({"train", "--init", model, "--task", "copy", "--steps", "1", "--out", model}),
                1, "same file as the input");
    expectError(cli({"init", "--config", cfg, "--out", cfg}), 1, "same file as the input");
    const std::string copy = tmp("same_render.json");
    writeFile(copy, before);
    const Result r = cli({"render", "--model", copy, "--text", "a", "--out", copy});
    if (r.err.find("unknown command") == std::string::npos)
        expectError(r, 1, "same file as the input");
    EXPECT_EQ(readAll(model), before);
    EXPECT_EQ(readAll(cfg), cfgBefore);
    EXPECT_EQ(readAll(copy), before);
}

// Defect 6: render --heads , crashed; --heads "" was accepted.
TEST(CliIssue11, AnEmptyHeadListIsRefused) {
    const std::string model = freshModel("heads");
    for (const char* h : {",", "", " , "}) {
        const Result r =
            cli({"render", "--model", model, "--text", "a", "--heads", h, "--out", tmp("h.svg")});
        if (r.err.find("unknown command") != std::string::npos) return;  // built without Qt
        expectError(r, 2, "names no head");
    }
}

// The label size follows the page when none is given (issue 47): 12 pt on a slide, 7 on a
// paper's page; an explicit --font-size is kept.
TEST(CliRender, TheLabelSizeFollowsThePage) {
    const std::string model = freshModel("labels");
    auto svg = [&](std::vector<std::string> extra, const std::string& name) {
        std::vector<std::string> args{"render", "--model", model,    "--text",
                                      "a b c",  "--out",   tmp(name)};
        args.insert(args.end(), extra.begin(), extra.end());
        const Result r = cli(args);
        EXPECT_EQ(r.code, 0) << r.err;
        return readAll(tmp(name));
    };
    const std::string slide = svg({"--size", "slide"}, "l1.svg");
    if (slide.empty()) return;  // built without Qt
    EXPECT_EQ(slide, svg({"--size", "slide", "--font-size", "12"}, "l2.svg"));
    EXPECT_NE(slide, svg({"--size", "slide", "--font-size", "7"}, "l3.svg"));
    const std::string page = svg({}, "l4.svg");
    EXPECT_EQ(page, svg({"--font-size", "7"}, "l5.svg"));
    // Six models on a slide: at 12 pt only every second token would be labelled; the size
    // nobody chose is a most, so the labels get smaller (not below 7 pt) and every token keeps
    // its label. A size given is kept, with the footnote that says what was dropped.
    std::vector<std::string> args{"render", "--size", "slide", "--text",
                                  "I want to go to the station"};
    for (const char* m : {"01-dot", "02-dense", "03-random", "04-fixed-random",
                          "05-factorized-dense", "06-factorized-random"})
        args.insert(args.end(),
                    {"--model", std::string(ATTNVIZ_MODELS_DIR) + "/" + m + ".safetensors"});
    auto dense = [&](std::vector<std::string> extra, const std::string& name) {
        std::vector<std::string> a = args;
        a.insert(a.end(), extra.begin(), extra.end());
        a.insert(a.end(), {"--out", tmp(name)});
        const Result r = cli(a);
        EXPECT_EQ(r.code, 0) << r.err;
        return readAll(tmp(name));
    };
    EXPECT_EQ(dense({}, "d1.svg").find("one in every"), std::string::npos);
    EXPECT_NE(dense({"--font-size", "12"}, "d2.svg").find("one in every 2 shown"),
              std::string::npos);
}

// Defect 7: non-finite or huge learning rates and a NaN weight decay wrote a NaN model.
TEST(CliIssue11, NonFiniteTrainingIsRefused) {
    const std::string cfg = tmp("lr.json"), out = tmp("lr.safetensors");
    writeFile(cfg, kIssueConfig);
    ::unlink(out.c_str());
    for (const char* lr : {"inf", "nan", "1e30", "0", "-1"})
        expectError(cli({"train", "--config", cfg, "--task", "copy", "--steps", "2", "--lr", lr,
                         "--out", out}),
                    2, "--lr: must be ");  // the one road for numbers (cli/numbers.h)
    expectError(cli({"train", "--config", cfg, "--task", "copy", "--steps", "2", "--weight-decay",
                     "nan", "--out", out}),
                2, "--weight-decay");
    std::ifstream f(out);
    EXPECT_FALSE(f.good()) << "no checkpoint may be written";
}

// Defect 8: huge counts and endless files took all memory.
TEST(CliIssue11, HugeRequestsAreRefusedBeforeAllocating) {
    const std::string model = freshModel("huge"), cfg = tmp("huge.json"), out = tmp("huge_out");
    expectError(cli({"train", "--config", cfg, "--task", "copy", "--batch-size", "100000000",
                     "--out", out}),
                2, "--batch-size: must be between 1 and 65536");
    expectError(
        cli({"train", "--config", cfg, "--task", "copy", "--held-out", "100000000", "--out", out}),
        2, "--held-out");
    expectError(cli({"eval", "--model", model, "--task", "copy", "--count", "100000000"}), 2,
                "--count");
    const std::string big = tmp("huge_dmodel.json");
    writeFile(big, R"({"d_model": 65536, "d_ff": 4})");
    expectError(cli({"init", "--config", big, "--out", out}), 1, "GB");
    // Within the weight limit, but not with 200,000 words of vocabulary on each side.
    const std::string embed = tmp("huge_embed.json"), words = tmp("huge_embed.vocab");
    writeFile(embed, R"({"d_model": 4096, "heads": 4, "d_ff": 16, "enc_layers": 1,
                         "dec_layers": 1, "max_len": 16})");
    std::string list;
    for (int i = 0; i < 200000; ++i) list += "w" + std::to_string(i) + "\n";
    writeFile(words, list);
    expectError(cli({"init", "--config", embed, "--vocab", words, "--out", out}), 1,
                "million parameters with its vocabularies");
    const std::string wide = tmp("huge_batch.json");
    writeFile(wide, R"({"d_model": 1024, "heads": 8, "max_len": 8192, "enc_layers": 2})");
    expectError(
        cli({"train", "--config", wide, "--task", "copy", "--batch-size", "60000", "--out", out}),
        1, "needs ~");
    expectError(cli({"init", "--config", "/dev/zero", "--out", out}), 1, "character device");
    expectError(cli({"train", "--config", cfg, "--data", "/dev/zero", "--out", out}), 1,
                "character device");
    expectError(cli({"bleu", "--hyp", "/dev/zero", "--ref", "/dev/zero"}), 1, "character device");
}

// Defect 9: stale temporary files of killed writes stayed forever.
TEST(CliIssue11, StaleTemporaryFilesAreRemoved) {
    const std::string cfg = tmp("stale.json"), out = tmp("stale.safetensors");
    writeFile(cfg, kIssueConfig);
    const pid_t child = ::fork();
    if (child == 0) ::_exit(0);
    int status = 0;
    ::waitpid(child, &status, 0);  // `child` no longer runs: its temporary is stale
    const std::string stale = out + ".tmp-" + std::to_string(child) + "-12345";
    const std::string alive = out + ".tmp-" + std::to_string(::getppid()) + "-1";
    const std::string other = out + ".tmp-notours";
    for (const auto& p : {stale, alive, other}) writeFile(p, "partial");
    ASSERT_EQ(cli({"init", "--config", cfg, "--out", out}).code, 0);
    EXPECT_FALSE(std::ifstream(stale).good());
    EXPECT_TRUE(std::ifstream(alive).good()) << "a running process's file is left alone";
    EXPECT_TRUE(std::ifstream(other).good()) << "not our naming: left alone";
    ::unlink(alive.c_str());
    ::unlink(other.c_str());
}

// Defect 11: the smaller ones.
TEST(CliIssue11, SmallerDefects) {
    const std::string model = freshModel("small"), cfg = tmp("small.json"), out = tmp("small_o");
    expectError(
        cli({"info", "--model", alteredModel(model, "small_kind", "tokenizer", R"({"kind": 5})")}),
        1, "small_kind.safetensors: checkpoint tokenizer: tokenizer 'kind' must be a string");
    const std::string vocab = tmp("small.vocab");
    writeFile(vocab, "hello\n\xff\xfe\nworld\n");
    expectError(cli({"init", "--config", cfg, "--vocab", vocab, "--out", out}), 1,
                "not valid UTF-8");
    expectError(cli({"info", "--model", ::testing::TempDir()}), 1, "is a directory");
    for (const char* n : {"0", "-5"})
        expectError(cli({"eval", "--model", model, "--task", "copy", "--count", n}), 2, "--count");
    for (const char* n : {"0", "-1"})
        expectError(cli({"eval", "--model", model, "--task", "copy", "--batch-size", n}), 2,
                    "--batch-size");
    expectError(
        cli({"train", "--config", cfg, "--task", "copy", "--eval-every", "-1", "--out", out}), 2,
        "--eval-every: must be at least 0");
    expectError(cli({"train", "--config", cfg, "--task", "copy", "--held-out", "-1", "--out", out}),
                2, "--held-out: must be between 0 and 1000000");
    expectError(cli({"eval", "--model", model, "--task", "lm"}), 1, "needs a decoder-only model");
    expectError(cli({"init", "--config", cfg, "--seed", "-1", "--out", out}), 2,
                "must be 0 or more");
    const std::string bigKey = tmp("small_key.json");
    writeFile(bigKey, "{\"" + std::string(2 << 20, 'k') + "\": 1}");
    expectError(cli({"init", "--config", bigKey, "--out", out}), 1, "limit");
    const std::string longKey = tmp("small_longkey.json");
    writeFile(longKey, "{\"" + std::string(100000, 'k') + "\": 1}");
    expectError(cli({"init", "--config", longKey, "--out", out}), 1, "unknown configuration key");
    // A trained model scaled by 1e30 (a random one stays finite): NaN attention is named.
    const std::string trained = kData + "/../../resources/models/01-dot.safetensors";
    expectError(cli({"attention", "--model", alteredModel(trained, "small_1e30", "", "", 1e30f),
                     "--text", "i see"}),
                1, "non-finite attention");
    const Result r = cli({"train", "--config", cfg, "--task", "copy", "--steps", "100000", "--out",
                          "/nonexistent-dir/x"});
    expectError(r, 1, "does not exist");
    EXPECT_EQ(r.err.find("step 1/"), std::string::npos) << "refused before training";
    expectError(cli({"bogus"}), 2, "unknown command 'bogus'");
    const std::string dup = tmp("small_dup.json");
    writeFile(dup, R"({"d_model": 16, "d_model": 32})");
    expectError(cli({"init", "--config", dup, "--out", out}), 1, "repeats the key 'd_model'");
}

// How the real-language models are made (scripts/train-bundled-models): a preset at another
// size, held-out lines from a dev file, a language model from a preset on a text file, and
// eval --align scoring cross-attention against word alignments (issue 12).
TEST(Cli, PresetAtASizeWithDevDataAndWordAlignments) {
    const std::string train = tmp("real_train.tsv"), dev = tmp("real_dev.tsv"),
                      align = tmp("real_dev.align"), text = tmp("real_train.txt"),
                      size = tmp("size.json"), model = tmp("real.safetensors");
    {
        std::ofstream t(train), x(text), d(dev), a(align);
        const char* en[] = {"the", "king", "went", "to", "the", "city", "and", "spoke"};
        const char* es[] = {"el", "rey", "fue", "a", "la", "ciudad", "y", "habló"};
        for (int i = 0; i < 200; ++i) {
            std::string s, g;
            for (int k = 0; k < 4; ++k) {
                s += std::string(k ? " " : "") + en[(i + k) % 8];
                g += std::string(k ? " " : "") + es[(i + k) % 8];
            }
            t << s << "\t" << g << "\n";
            x << s << "\n";
            if (i < 5)
                d << s << "\t" << g << "\n", a << "0-0 1-1 2?2" << (i == 4 ? "\n" : " 3-3\n");
        }
    }
    writeFile(size, R"({"d_model": 16, "heads": 2, "d_ff": 32, "enc_layers": 1, "dec_layers": 1,
                        "max_len": 40, "share_embeddings": true})");
    Result r = cli({"train", "--preset", "hc-sa", "--size", size, "--data", train, "--dev", dev,
                    "--held-out", "3", "--tokenizer", "sentencepiece", "--vocab-size", "300",
                    "--steps", "3", "--out", model});
    ASSERT_EQ(r.code, 0) << r.err;
    r = cli({"info", "--model", model, "--json"});
    ASSERT_EQ(r.code, 0) << r.err;
    const json info = json::parse(r.out);
    EXPECT_EQ(info["config"]["d_model"], 16);
    EXPECT_EQ(info["config"]["share_embeddings"], true);
    EXPECT_EQ(info["config"]["encoder_self"]["variant"], "gaussian");
    EXPECT_EQ(info["training"]["held_out"]["sentences"], 3);
    EXPECT_NE(info["training"]["held_out"]["source"].get<std::string>().find("real_dev.tsv"),
              std::string::npos);
    r = cli({"eval", "--model", model, "--data", dev, "--align", align, "--no-decode"});
    ASSERT_EQ(r.code, 0) << r.err;
    const json w = json::parse(r.out)["metrics"]["word_aer"];
    EXPECT_EQ(w["scored"], 5);
    EXPECT_EQ(w["heads"].size(), 3u);  // 2 heads + the layer mean
    EXPECT_TRUE(w.contains("best"));
    for (const auto& h : w["heads"]) {  // sure-only AER and sure recall beside AER (issue 30)
        EXPECT_GE(h["sure_aer"].get<double>(), h["aer"].get<double>() - 1e-12);  // P ⊇ S
        EXPECT_GE(h["sure_recall"].get<double>(), 0.0);
        EXPECT_LE(h["sure_recall"].get<double>(), 1.0);
    }
    // A language model from the preset's decoder self-attention, on a text file.
    r = cli({"train", "--preset", "dense", "--size", size, "--language-model", "--data", text,
             "--tokenizer", "sentencepiece", "--vocab-size", "300", "--steps", "2", "--out",
             tmp("real_lm.safetensors")});
    ASSERT_EQ(r.code, 0) << r.err;
    r = cli({"info", "--model", tmp("real_lm.safetensors"), "--json"});
    EXPECT_EQ(json::parse(r.out)["config"]["arch"], "decoder");
    // Bad input, named.
    writeFile(size, R"({"d_model": 16, "dropout": 0.5})");
    r = cli({"train", "--preset", "dot", "--size", size, "--data", train, "--steps", "1", "--out",
             tmp("x.safetensors")});
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("not 'dropout'"), std::string::npos) << r.err;
    writeFile(align, "0-0\n");
    r = cli({"eval", "--model", model, "--data", dev, "--align", align, "--no-decode"});
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("must match line by line"), std::string::npos) << r.err;
    r = cli({"train", "--config", size, "--size", size, "--task", "copy", "--out",
             tmp("y.safetensors")});
    EXPECT_NE(r.code, 0);
    EXPECT_NE(r.err.find("--preset"), std::string::npos) << r.err;
}

// attnviz-cli analyze (issue 15): per-head JSON for a sentence, a data file or a task; one
// input source only; bad inputs are messages naming what was wrong, and a data file's bad
// lines are skipped with a note.
TEST(Cli, AnalyzeHeadsOfASentenceAFileAndATask) {
    const std::string model = tmp("analyze_gauss.safetensors");
    ASSERT_EQ(cli({"init", "--config", kData + "/configs/hc_sa_top1.json", "--out", model}).code,
              0);
    Result r = cli({"analyze", "--model", model, "--text", "I want to go", "--target", "mi volas",
                    "--rollout"});
    ASSERT_EQ(r.code, 0) << r.err;
    json j = json::parse(r.out);
    ASSERT_FALSE(j["heads"].empty());
    const json& h = j["heads"][0];
    EXPECT_EQ(h["block"], "encoder_self");
    EXPECT_EQ(h["variant"], "gaussian");
    EXPECT_NEAR(h["gaussian_fit"]["r2"].get<double>(), 1.0, 1e-6);  // a hard-coded window
    EXPECT_FALSE(h.contains("input_dependence"));                   // one sentence: none
    EXPECT_EQ(j["rollout"]["encoder_self"].size(), 5u);             // 4 words + <eos>
    // A file: one bad line (not UTF-8) is skipped with a note; input dependence appears.
    const std::string data = tmp("analyze.tsv");
    writeFile(data, "I want to go\tmi volas\n\nbad \xff byte\tla\nwe see the dog\tni vidas\n");
    r = cli({"analyze", "--model", model, "--data", data});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.err.find("1 of 3 sentences skipped"), std::string::npos) << r.err;
    j = json::parse(r.out);
    EXPECT_EQ(j["sentences"], 2);
    EXPECT_EQ(j["heads"][0]["input_dependence"].get<double>(), 0.0);  // Gaussian: position only
    // Errors.
    r = cli({"analyze", "--model", model});
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("one of --text, --data or --task"), std::string::npos) << r.err;
    r = cli({"analyze", "--model", model, "--text", "hi", "--data", data});
    EXPECT_EQ(r.code, 2);  // excluded by the parser
    r = cli({"analyze", "--model", model, "--data", data, "--rollout"});
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("--rollout needs one sentence"), std::string::npos) << r.err;
    r = cli({"analyze", "--model", model, "--task", "lm"});
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("does not fit"), std::string::npos) << r.err;
    r = cli({"analyze", "--model", model, "--text", ""});
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("empty"), std::string::npos) << r.err;
    r = cli({"analyze", "--model", model, "--task", "copy", "--count", "20", "--out", model});
    EXPECT_EQ(r.code, 1);  // never overwrites its input
    const std::string dataBefore = readAll(data);
    r = cli({"analyze", "--model", model, "--data", data, "--out", data});
    EXPECT_EQ(r.code, 1);  // nor its sentences
    EXPECT_NE(r.err.find("same file as the input"), std::string::npos) << r.err;
    EXPECT_EQ(readAll(data), dataBefore);
    // Importance and pruning curves over a task's held-out examples.
    r = cli(
        {"analyze", "--model", model, "--task", "copy", "--count", "8", "--importance", "--prune"});
    ASSERT_EQ(r.code, 0) << r.err;
    j = json::parse(r.out);
    EXPECT_TRUE(j["heads"][0].contains("importance"));
    const size_t heads = j["heads"].size();
    EXPECT_EQ(j["prune"]["by_importance"].size(), heads + 1);  // 0 … all removed
    EXPECT_EQ(j["prune"]["random"].size(), heads + 1);
    EXPECT_TRUE(j["prune"]["by_importance"][1].contains("head"));
    const json inSample = j["prune"];
    // Out of sample (issue 30): importance on the task's examples, the curves on other
    // sentences, three random orders from one seed (the first is --random-orders 1's order).
    const std::string other = tmp("analyze_other.tsv");
    writeFile(other, "we see the dog\tni vidas\nI want to go\tmi volas\nthe dog sees\tla hundo\n");
    r = cli({"analyze", "--model", model, "--task", "copy", "--count", "8", "--importance",
             "--prune", "--prune-data", other, "--random-orders", "3"});
    ASSERT_EQ(r.code, 0) << r.err;
    const json out = json::parse(r.out)["prune"];
    EXPECT_EQ(out["sentences"], 3);
    EXPECT_EQ(out["importance_sentences"], 8);
    EXPECT_EQ(out["data"], "attnviz_cli_analyze_other.tsv");
    ASSERT_EQ(out["random_orders"].size(), 3u);
    EXPECT_EQ(out["random_orders"][0], out["random"]);
    auto order = [](const json& curve) {
        std::vector<json> heads;
        for (const json& p : curve)
            if (p.contains("head")) heads.push_back(p["head"]);
        return heads;
    };
    EXPECT_EQ(order(out["random"]), order(inSample["random"]));  // the same seed, the same order
    EXPECT_NE(order(out["random_orders"][1]), order(out["random"]));
    EXPECT_NE(order(out["random_orders"][2]), order(out["random_orders"][1]));
    // Other sentences: another loss with every head; the shared end points are the same in
    // every curve (evaluated once).
    EXPECT_NE(out["by_importance"][0]["loss"], inSample["by_importance"][0]["loss"]);
    for (const json& curve : out["random_orders"]) {
        EXPECT_EQ(curve.front()["loss"], out["by_importance"].front()["loss"]);
        EXPECT_EQ(curve.back()["loss"], out["by_importance"].back()["loss"]);
    }
    r = cli({"analyze", "--model", model, "--task", "copy", "--random-orders", "2"});
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("need --prune"), std::string::npos) << r.err;
    r = cli({"analyze", "--model", model, "--text", "I want", "--importance"});
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("needs a set of sentences"), std::string::npos) << r.err;
    r = cli({"analyze", "--model", model, "--task", "copy", "--prune"});
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("--prune needs --importance"), std::string::npos) << r.err;
}

TEST(Cli, BenchDecodeComparesBothDecoders) {
    const Result r = cli(
        {"bench", "decode", "--variant", "dot", "--len", "12", "--repeat", "1", "--source", "6"});
    ASSERT_EQ(r.code, 0) << r.err;
    const json j = json::parse(r.out);
    ASSERT_EQ(j["results"].size(), 1u);
    EXPECT_TRUE(j["results"][0]["same_output"].get<bool>());
    EXPECT_GT(j["results"][0]["ms_median_whole_prefix"].get<double>(), 0.0);
}

// Attention over training from the command line: train --probe writes the probe file next
// to the checkpoint (step 0, every K, the last); render --probe draws its filmstrip.
TEST(Cli, TrainRecordsAProbeAndRenderDrawsItsFilmstrip) {
    const std::string cfg = tmp("tiny-probe.json");
    writeFile(cfg, kTinyConfig);
    const std::string out = tmp("probed.safetensors"), probe = tmp("probed.probe.json");
    std::filesystem::remove(probe);
    Result r = cli({"train", "--config", cfg, "--task", "copy", "--steps", "12", "--probe",
                    "a b c d", "--probe-every", "5", "--out", out, "--held-out", "5"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("4 snapshots"), std::string::npos) << r.out;
    const attnviz::ProbeRecord rec = attnviz::readProbeFile(probe);
    std::vector<int> steps;
    for (const auto& s : rec.snapshots) steps.push_back(s.step);
    EXPECT_EQ(steps, (std::vector<int>{0, 5, 10, 12}));
    const std::string svg = tmp("film.svg");
    r = cli({"render", "--probe", probe, "--steps", "0,12", "--heads", "mean", "--out", svg});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(readAll(svg).find("step 12"), std::string::npos);
    // What is wrong, said.
    r = cli({"render", "--probe", probe, "--steps", "3", "--out", svg});
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("no snapshot at step 3 (recorded: 0, 5, 10, 12)"), std::string::npos)
        << r.err;
    r = cli({"render", "--out", svg});
    EXPECT_NE(r.err.find("--model and --text, or --probe"), std::string::npos) << r.err;
    // A snapshot whose tokens do not match its weight tables (here: no source) is refused
    // when read, not drawn against labels it does not have.
    json broken = json::parse(readAll(probe));
    broken["snapshots"][1]["dump"].erase("source");
    const std::string bad = tmp("broken.probe.json");
    writeFile(bad, broken.dump());
    r = cli({"render", "--probe", bad, "--out", svg});
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("step 5: block encoder.layers.0.self_attn has a"), std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("is the snapshot's source or target missing?"), std::string::npos)
        << r.err;
    for (const char* size : {"inf", "nan", "0", "1e30"}) {
        r = cli({"render", "--probe", probe, "--font-size", size, "--out", svg});
        EXPECT_EQ(r.code, 2) << size;
        EXPECT_NE(r.err.find("--font-size: must be "), std::string::npos) << size << ": " << r.err;
    }
    r = cli({"train", "--config", cfg, "--task", "copy", "--steps", "2", "--probe-target", "x",
             "--out", out});
    EXPECT_NE(r.err.find("--probe-target needs --probe"), std::string::npos) << r.err;
}

// The analyses as figures: offset profiles beside their Gaussian fits (a hard-coded head
// fits with R² 1), and the pruning curves of analyze --prune.
TEST(Cli, RenderDrawsOffsetProfilesAndPruningCurves) {
    const std::string models = ATTNVIZ_MODELS_DIR;
    const std::string svg = tmp("offsets.svg"), sentences = tmp("sentences.txt");
    writeFile(sentences, "the cat sees the dog\nwe go to the river\n");
    Result r =
        cli({"render", "--show", "offset-profile", "--model", models + "/09-hc-sa.safetensors",
             "--sentences", sentences, "--max-offset", "4", "--out", svg});
    ASSERT_EQ(r.code, 0) << r.err;
    const std::string text = readAll(svg);
    EXPECT_NE(text.find("its Gaussian fit"), std::string::npos);
    EXPECT_NE(text.find("R² 1.00"), std::string::npos);
    EXPECT_NE(text.find("2 sentences"), std::string::npos);
    const std::string prune = tmp("prune.json"), curves = tmp("prune.svg");
    r = cli({"analyze", "--model", models + "/01-dot.safetensors", "--task", "translate", "--count",
             "12", "--importance", "--prune", "--out", prune});
    ASSERT_EQ(r.code, 0) << r.err;
    r = cli({"render", "--prune", prune, "--out", curves});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(readAll(curves).find("least important first"), std::string::npos);
    r = cli({"render", "--prune", sentences, "--out", curves});
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("sentences.txt"), std::string::npos) << r.err;
    r = cli({"render", "--show", "offset-profile", "--model", models + "/09-hc-sa.safetensors",
             "--text", "a b", "--out", tmp("offsets.csv")});
    EXPECT_NE(r.err.find(".svg, .pdf or .png"), std::string::npos) << r.err;
}

// render --curves (issue 50: training curves from the cells): every series drawn with its name
// in the legend; a file that is not a chart file, or a wrong value, is refused naming the key.
TEST(Cli, RenderDrawsCurvesFromAJsonFile) {
    const std::string file = tmp("curves.json"), svg = tmp("curves.svg");
    writeFile(file, R"({"title": "Validation accuracy", "x_label": "epoch", "y_min": 80,
        "charts": [{"title": "dot and gaussian", "series": [
          {"name": "dot, mean", "x": [1, 2, 3], "y": [84, 86, 88]},
          {"name": "dot, each seed", "x": [1, 1, 2], "y": [83, 85, 86], "line": false},
          {"name": "gaussian, mean", "x": [1, 2, 3], "y": [85, null, 90], "look": 1}]}]})");
    Result r = cli({"render", "--curves", file, "--out", svg});
    ASSERT_EQ(r.code, 0) << r.err;
    const std::string text = readAll(svg);
    for (const char* s : {"Validation accuracy", "dot, mean", "dot, each seed", "gaussian, mean",
                          "dot and gaussian", "epoch"})
        EXPECT_NE(text.find(s), std::string::npos) << s;
    struct Bad {
        const char* json;
        const char* message;
    };
    for (const Bad& b : std::vector<Bad>{
             {R"({"title": "no charts"})", "holds no charts"},
             {R"({"charts": []})", "'charts' must be an array of 1 to 64 charts"},
             {R"({"charts": [{"series": [{"x": [1, 2], "y": [1]}]}]})",
              "'charts[0].series[0]' has 2 x values and 1 y values"},
             {R"({"charts": [{"series": [{"x": [1, "a"], "y": [1, 2]}]}]})",
              "'charts[0].series[0].x[1]' must be a finite number"},
             {R"({"charts": [{"series": [{"x": [1], "y": [1], "look": -1}]}]})",
              "'charts[0].series[0].look' must be an integer from 0 to 1023"},
             {R"({"columns": 99, "charts": [{"series": []}]})", "'columns' must be an integer"}}) {
        writeFile(file, b.json);
        r = cli({"render", "--curves", file, "--out", svg});
        EXPECT_EQ(r.code, 1) << b.json;
        EXPECT_NE(r.err.find(b.message), std::string::npos) << r.err;
    }
    r = cli({"render", "--curves", file, "--text", "a b", "--out", svg});
    EXPECT_NE(r.err.find("--curves draws the charts its file holds"), std::string::npos) << r.err;
}

// ---- Issue 27 ----

namespace {

// A standard output on a full disk: every write fails, as on /dev/full.
class FullBuffer : public std::streambuf {
protected:
    int overflow(int) override { return traits_type::eof(); }
    std::streamsize xsputn(const char*, std::streamsize) override { return 0; }
};

Result cliToFull(std::vector<std::string> args) {
    args.insert(args.begin(), "attnviz-cli");
    std::vector<const char*> argv;
    for (auto& a : args) argv.push_back(a.c_str());
    FullBuffer full;
    std::ostream out(&full);
    std::ostringstream err;
    const int code = attnviz::cli::run(int(argv.size()), argv.data(), out, err);
    return {code, "", err.str()};
}

// Every command, with arguments that succeed and write to standard output.
std::vector<std::vector<std::string>> writingCommands(const std::string& name) {
    const std::string model = freshModel(name), cfg = tmp(name + ".json");
    const std::string text = tmp(name + ".txt"), data = tmp(name + ".tsv");
    writeFile(text, "a b c\nthe cat\n");
    writeFile(data, "a b\tb a\nthe cat\tcat the\n");
    const std::string vitCfg = tmp(name + "_vit.json"), vit = tmp(name + "_vit.safetensors");
    const std::string image = tmp(name + "_image.pgm");
    writeFile(vitCfg, R"({"arch": "vit", "d_model": 8, "heads": 2, "d_ff": 16, "enc_layers": 1})");
    writeFile(image, "P2 3 2 255\n0 255 0\n255 0 255\n");
    EXPECT_EQ(cli({"init", "--config", vitCfg, "--out", vit}).code, 0);
    return {
        {"classify", "--model", vit, "--image", image},
        {"classify", "--model", vit, "--image", image, "--json"},
        {"attention", "--model", vit, "--image", image},
        {"--help"},
        {"--version"},
        {"init", "--config", cfg, "--out", tmp(name + "_init.safetensors")},
        {"attention", "--model", model, "--text", "a b"},
        {"info", "--model", model},
        {"info", "--model", model, "--json"},
        {"analyze", "--model", model, "--data", data},
        {"eval", "--model", model, "--task", "copy", "--count", "3"},
        {"bleu", "--hyp", text, "--ref", text},
        {"variants"},
        {"presets"},
        {"tokenize", "--model", model, "--text", "a b"},
        {"tokenize", "--model", model, "--file", text},
        {"examples", "--task", "copy", "--count", "5"},
        {"train", "--config", cfg, "--task", "copy", "--steps", "1", "--out",
         tmp(name + "_train.safetensors")},
        {"bench", "gemm", "--config", cfg, "--batch-size", "1", "--threads", "1"},
    };
}

}  // namespace

// Item 10: output lost on a full disk was reported as success.
TEST(CliIssue27, EveryCommandFailsWhenItsOutputCannotBeWritten) {
    for (const auto& args : writingCommands("full")) {
        std::string line;
        for (const auto& a : args) line += a + " ";
        ASSERT_EQ(cli(args).code, 0) << line << cli(args).err;
        const Result r = cliToFull(args);
        EXPECT_EQ(r.code, 1) << line;
        EXPECT_NE(r.err.find("could not be written to standard output"), std::string::npos)
            << line << r.err;
    }
}

// The same through the real program with its standard output on /dev/full.
TEST(CliIssue27, TheProgramExitsOneOnDevFull) {
    for (const auto& args : writingCommands("devfull")) {
        std::string line;
        for (const auto& a : args) line += a + " ";
        int errPipe[2];
        ASSERT_EQ(::pipe(errPipe), 0);
        const pid_t child = ::fork();
        if (child == 0) {
            const int full = ::open("/dev/full", O_WRONLY);
            ::dup2(full, STDOUT_FILENO);
            ::dup2(errPipe[1], STDERR_FILENO);
            std::vector<char*> argv{const_cast<char*>(ATTNVIZ_CLI_BINARY)};
            for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
            argv.push_back(nullptr);
            ::execv(ATTNVIZ_CLI_BINARY, argv.data());
            ::_exit(127);
        }
        ::close(errPipe[1]);
        std::string err;
        char buf[4096];
        for (ssize_t n; (n = ::read(errPipe[0], buf, sizeof buf)) > 0;) err.append(buf, size_t(n));
        ::close(errPipe[0]);
        int status = 0;
        ASSERT_EQ(::waitpid(child, &status, 0), child);
        ASSERT_TRUE(WIFEXITED(status)) << line;
        EXPECT_EQ(WEXITSTATUS(status), 1) << line << err;
        EXPECT_NE(err.find("No space left on device"), std::string::npos) << line << err;
    }
}

// Items 24 and 25: refusals that name the problem in a few words.
TEST(CliIssue27, MessagesNameTheProblemBriefly) {
    const std::string model = freshModel("messages27"), cfg = tmp("messages27.json");
    expectError(cli({"render", "--model", model, "--text", "a", "--size", "nanxnan", "--out",
                     tmp("nan.svg")}),
                1, "must be slide, slide-4:3, column, page or WxH");
    expectError(cli({"render", "--model", model, "--text", "a", "--size",
                     "nanx" + std::string(100000, '9'), "--out", tmp("nan.svg")}),
                1, "must be slide, slide-4:3, column, page or WxH");
    expectError(cli({"init", "--config", cfg, "--seed", "18446744073709551616", "--out",
                     tmp("seed.safetensors")}),
                2, "must be at most 18446744073709551615");
    expectError(cli({"init", "--config", cfg, "--seed", std::string(1000, '9'), "--out",
                     tmp("seed.safetensors")}),
                2, "must be at most");
    // A pruning file with values of the wrong type: the file and the key are named.
    const std::string prune = tmp("prune27.json");
    for (const auto& [body, key] : std::vector<std::pair<std::string, std::string>>{
             {R"({"prune": {"by_importance": [{"removed": "two", "loss": 1}]}})",
              "'prune.by_importance[0].removed' must be an integer"},
             {R"({"prune": {"by_importance": [{"removed": 1, "loss": "x"}]}})",
              "'prune.by_importance[0].loss' must be a number"},
             {R"({"prune": {"by_importance": 5}})", "'prune.by_importance' must be an array"},
             {R"({"prune": {"sentences": [], "by_importance": []}})", "'prune.sentences'"},
             {R"({"model": 7, "prune": {"by_importance": []}})", "'model' must be a string"}}) {
        writeFile(prune, body);
        const Result r = cli({"render", "--prune", prune, "--out", tmp("prune27.svg")});
        expectError(r, 1, key);
        EXPECT_NE(r.err.find(prune), std::string::npos) << r.err;
        EXPECT_EQ(r.err.find("json.exception"), std::string::npos) << r.err;
    }
    // A long value from a file is cut to an excerpt.
    const std::string arch = tmp("arch27.json");
    writeFile(arch, R"({"d_model": 8, "heads": 2, "arch": ")" + std::string(500000, 'x') + "\"}");
    expectError(cli({"init", "--config", arch, "--out", tmp("arch27.safetensors")}), 1,
                "'arch' must be");
}

TEST(CliIssue27, InfoSummarisesASentencePieceTokenizer) {
    const std::string model = std::string(ATTNVIZ_MODELS_DIR) + "/en-es/01-dot.safetensors";
    const Result r = cli({"info", "--model", model});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("tokenizer sentencepiece (4000 pieces"), std::string::npos) << r.out;
    EXPECT_LT(r.out.size(), 8000u);
}

// Issue 29: a slide from the CLI labelled "st ation" as two words while the app shows
// "st ·ation": figures mark a piece that continues a word as the app does (one rule,
// render/token_labels.h); merged words and word-level models are left as they are.
TEST(CliIssue29, SlideFiguresMarkPiecesThatContinueAWord) {
    const std::string models = ATTNVIZ_MODELS_DIR;
    const std::string svg = tmp("pieces.svg"), words = tmp("pieces-words.svg");
    const std::string toy = tmp("pieces-toy.svg");
    Result r = cli({"render", "--model", models + "/en-es/01-dot.safetensors", "--text",
                    "I want to go to the station", "--size", "slide", "--out", svg});
    ASSERT_EQ(r.code, 0) << r.err;
    // A mark before a label (titles hold " · " between words, with spaces).
    auto marks = [](const std::string& t) {
        int n = 0;
        for (size_t at = t.find("\u00B7"); at != std::string::npos; at = t.find("\u00B7", at + 1))
            n += at + 2 < t.size() && t[at + 2] != ' ';
        return n;
    };
    const std::string text = readAll(svg);
    EXPECT_NE(text.find("\u00B7ation"), std::string::npos) << "the piece 'ation' unmarked";
    EXPECT_EQ(text.find("\u00B7st<"), std::string::npos) << "'st' starts a word";
    EXPECT_EQ(text.find("\u00B7to"), std::string::npos);
    r = cli({"render", "--model", models + "/en-es/01-dot.safetensors", "--text",
             "I want to go to the station", "--merge-words", "--out", words});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(marks(readAll(words)), 0) << "words have no pieces";
    r = cli({"render", "--model", models + "/01-dot.safetensors", "--text",
             "I want to go to the station", "--out", toy});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(marks(readAll(toy)), 0) << "a word-level model";
    EXPECT_GE(marks(text), 2) << "as query and as key";
    // The query profile's keys, and its title numbered from 1 naming which "to" (#4 is the
    // second: --query-token counts from 0).
    const std::string profile = tmp("pieces-profile.svg");
    r = cli({"render", "--model", models + "/en-es/01-dot.safetensors", "--text",
             "I want to go to the station", "--query-token", "#4", "--out", profile});
    ASSERT_EQ(r.code, 0) << r.err;
    const std::string drawn = readAll(profile);
    EXPECT_NE(drawn.find("\u00B7ation"), std::string::npos);
    EXPECT_NE(drawn.find("Query 5"), std::string::npos);
    EXPECT_NE(drawn.find("(2nd)"), std::string::npos);
}
