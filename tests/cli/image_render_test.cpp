// SPDX-License-Identifier: GPL-3.0-or-later
// attnviz-cli render on image models (issue 28): overlays as SVG, PDF and PNG, the panels'
// matrices as CSV and NPY equal to the attention dump, the distance-by-layer chart, and
// every wrong combination of options refused with a message.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli_run.h"
#include "core/image_set.h"

using nlohmann::json;

namespace {

using Result = attnviz::test::CliResult;
using attnviz::test::cli;

std::string tmp(const std::string& n) {
    return ::testing::TempDir() + "attnviz_image_render_" + n;
}

std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// An untrained image model of two layers of two heads: the road matters, not accuracy.
std::string vit(const std::string& pool) {
    static std::map<std::string, std::string> made;
    if (made.count(pool)) return made[pool];
    const std::string cfg = tmp(pool + ".json"), out = tmp(pool + ".safetensors");
    std::ofstream(cfg) << R"({"arch": "vit", "d_model": 16, "heads": 2, "d_ff": 32,
                              "enc_layers": 2, "pool": ")"
                       << pool << "\"}";
    const Result r = cli({"init", "--config", cfg, "--seed", "5", "--out", out});
    EXPECT_EQ(r.code, 0) << r.err;
    return made[pool] = out;
}

std::string textModel() {
    return std::string(ATTNVIZ_MODELS_DIR) + "/01-dot.safetensors";
}

// A PNG's width and height from its IHDR chunk (bytes 16 … 23, big-endian).
std::pair<int, int> pngSize(const std::string& path) {
    const std::string b = readFile(path);
    if (b.size() < 24 || b.compare(12, 4, "IHDR") != 0) return {-1, -1};
    auto be32 = [&](size_t at) {
        return int(uint8_t(b[at])) << 24 | int(uint8_t(b[at + 1])) << 16 |
               int(uint8_t(b[at + 2])) << 8 | int(uint8_t(b[at + 3]));
    };
    return {be32(16), be32(20)};
}

bool haveFashionMnist() {
    return std::filesystem::exists(attnviz::fashionMnistDir() + "/t10k-images-idx3-ubyte.gz") ||
           std::filesystem::exists(attnviz::fashionMnistDir() + "/t10k-images-idx3-ubyte");
}

#define NEED_FASHION_MNIST() \
    if (!haveFashionMnist()) GTEST_SKIP() << "no Fashion-MNIST in " << attnviz::fashionMnistDir()

// The CSV's weight of (query, key) of the table of model `m`, head `h`.
std::map<std::string, double> csvCells(const std::string& csv, const std::string& head) {
    std::map<std::string, double> cells;
    std::istringstream in(csv);
    std::string line;
    std::getline(in, line);  // header
    while (std::getline(in, line)) {
        std::vector<std::string> f;
        std::stringstream ls(line);
        for (std::string x; std::getline(ls, x, ',');) f.push_back(x);
        if (f.size() == 9 && f[3] == head) cells[f[5] + ">" + f[7]] = std::stod(f[8]);
    }
    return cells;
}

}  // namespace

// A PNG of exactly the pixels asked, an SVG and a PDF, for two models side by side.
TEST(ImageRender, WritesFiguresOfEveryFormat) {
    NEED_FASHION_MNIST();
    const std::string png = tmp("fig.png"), svg = tmp("fig.svg"), pdf = tmp("fig.pdf");
    for (const auto& out : {png, svg, pdf}) {
        std::filesystem::remove(out);
        const Result r = cli({"render", "--model", vit("cls"), "--model", vit("mean"),
                              "--fashion-mnist", "0", "--size", "900x600", "--out", out});
        ASSERT_EQ(r.code, 0) << r.err;
        EXPECT_HAS(r.out, "wrote " + out);
    }
    EXPECT_EQ(pngSize(png), std::make_pair(900, 600));
    const std::string s = readFile(svg);
    EXPECT_HAS(s, "<image");  // the image embedded, the cells vector
    EXPECT_HAS(s, " %");      // the prediction's probability in the header
    EXPECT_EQ(readFile(pdf).rfind("%PDF", 0), 0u);
}

// The query patch's frame is a choice (issue 47): --no-query-outline drops it and nothing
// else (pooled, which has no frame, draws the same either way).
TEST(ImageRender, TheQueryOutlineIsAChoice) {
    NEED_FASHION_MNIST();
    auto svg = [&](const std::string& query, bool outline, const std::string& name) {
        std::vector<std::string> args{"render",  "--model", vit("mean"), "--fashion-mnist", "0",
                                      "--query", query,     "--out",     tmp(name)};
        if (!outline) args.push_back("--no-query-outline");
        const Result r = cli(args);
        EXPECT_EQ(r.code, 0) << r.err;
        return readFile(tmp(name));
    };
    EXPECT_NE(svg("3,3", true, "o1.svg"), svg("3,3", false, "o2.svg"));
    EXPECT_EQ(svg("pooled", true, "o3.svg"), svg("pooled", false, "o4.svg"));
}

// The CSV holds each panel's [N, N] table: a head's is the dump's weights, the mean of heads
// their mean, the rollout's rows sum to 1; the NPY has the shape of the stacked tables.
TEST(ImageRender, DataFilesHoldThePanelsMatrices) {
    NEED_FASHION_MNIST();
    const Result d = cli({"attention", "--model", vit("cls"), "--fashion-mnist", "3"});
    ASSERT_EQ(d.code, 0) << d.err;
    const json dump = json::parse(d.out);
    const auto& w = dump["blocks"][1]["weights"];  // layer 1: [heads][50][50]
    const std::string csv = tmp("heads.csv");
    Result r = cli(
        {"render", "--model", vit("cls"), "--fashion-mnist", "3", "--layer", "1", "--out", csv});
    ASSERT_EQ(r.code, 0) << r.err;
    const std::string text = readFile(csv);
    auto head1 = csvCells(text, "1");
    ASSERT_EQ(head1.size(), 50u * 50u);
    EXPECT_NEAR(head1["cls>r0c0"], w[1][0][1].get<double>(), 1e-7);
    EXPECT_NEAR(head1["r6c6>cls"], w[1][49][0].get<double>(), 1e-7);
    r = cli({"render", "--model", vit("cls"), "--fashion-mnist", "3", "--layer", "1", "--heads",
             "mean", "--out", csv});
    ASSERT_EQ(r.code, 0) << r.err;
    auto mean = csvCells(readFile(csv), "mean");
    EXPECT_NEAR(mean["r2c3>r2c4"],
                (w[0][1 + 17][1 + 18].get<double>() + w[1][1 + 17][1 + 18].get<double>()) / 2,
                1e-6);
    r = cli({"render", "--model", vit("cls"), "--fashion-mnist", "3", "--heads", "rollout", "--out",
             csv});
    ASSERT_EQ(r.code, 0) << r.err;
    auto roll = csvCells(readFile(csv), "rollout");
    double row = 0;
    for (const auto& [k, v] : roll)
        if (k.rfind("r4c1>", 0) == 0) row += v;
    EXPECT_NEAR(row, 1.0, 1e-5);
    const std::string npy = tmp("heads.npy");
    r = cli({"render", "--model", vit("mean"), "--model", vit("mean"), "--fashion-mnist", "3",
             "--out", npy});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_HAS(readFile(npy), "'shape': (4,49,49)");
}

// The chart of mean attention distance by layer, over a few test images.
TEST(ImageRender, DistanceByLayerChart) {
    NEED_FASHION_MNIST();
    const std::string png = tmp("dist.png");
    std::filesystem::remove(png);
    Result r = cli({"render", "--distance-by-layer", "--model", vit("cls"), "--model", vit("mean"),
                    "--fashion-mnist-count", "3", "--size", "640x400", "--out", png});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(pngSize(png), std::make_pair(640, 400));
    r = cli({"render", "--distance-by-layer", "--model", vit("cls"), "--out", tmp("d.csv")});
    EXPECT_NE(r.code, 0);
    EXPECT_HAS(r.err, "--out must end in .svg, .pdf or .png");
    r = cli({"render", "--distance-by-layer", "--model", textModel(), "--out", png});
    EXPECT_NE(r.code, 0);
    EXPECT_HAS(r.err, "reads text: --distance-by-layer needs image models");
    r = cli({"render", "--distance-by-layer", "--model", vit("cls"), "--fashion-mnist", "1",
             "--fashion-mnist-count", "3", "--out", png});
    EXPECT_NE(r.code, 0);
    EXPECT_HAS(r.err, "not both");
}

// Wrong inputs and options, each refused with a message that names it; no file written.
TEST(ImageRender, BadInputIsRefused) {
    NEED_FASHION_MNIST();
    const std::string out = tmp("bad.svg");
    std::filesystem::remove(out);
    auto fails = [&](std::vector<std::string> args, const std::string& message) {
        args.insert(args.begin(), "render");
        args.insert(args.end(), {"--out", out});
        const Result r = cli(args);
        EXPECT_EQ(r.code, 1) << message;
        EXPECT_HAS(r.err, message);
        EXPECT_FALSE(std::filesystem::exists(out)) << message;
    };
    const std::string cls = vit("cls"), mean = vit("mean");
    fails({"--model", cls, "--image", tmp("no-such.png")}, "no-such.png");
    fails({"--model", cls, "--fashion-mnist", "0", "--query", "7,0"}, "outside the 7×7 grid");
    fails({"--model", cls, "--fashion-mnist", "0", "--query", "two,3"}, "ROW,COLUMN");
    fails({"--model", mean, "--fashion-mnist", "0", "--query", "cls"}, "no class token");
    fails({"--model", cls, "--fashion-mnist", "0", "--layer", "2"},
          "--layer 2 is not in the model");
    // Numbers out of range are the parser's (exit code 2), with the bounds in words.
    for (const auto& [flag, value, said] : std::vector<std::array<std::string, 3>>{
             {"--layer", "-1", "--layer: must be between 0 and 255, got -1"},
             {"--opacity", "1.5", "--opacity: must be between 0 and 1, got 1.5"}}) {
        const Result r =
            cli({"render", "--model", cls, "--fashion-mnist", "0", flag, value, "--out", out});
        EXPECT_EQ(r.code, 2) << said;
        EXPECT_HAS(r.err, said);
        EXPECT_FALSE(std::filesystem::exists(out)) << said;
    }
    fails({"--model", cls, "--fashion-mnist", "0", "--heads", "2"}, "heads from 0 to 1");
    fails({"--model", cls, "--fashion-mnist", "0", "--text", "hello"}, "not --text");
    fails({"--model", cls, "--fashion-mnist", "0", "--show", "rollout"}, "--heads rollout");
    fails({"--model", cls}, "give --image FILE, --fashion-mnist INDEX or --photo INDEX");
    fails({"--model", cls, "--fashion-mnist", "0", "--arrange", "rows"}, "--arrange is for text");
    fails({"--model", cls, "--fashion-mnist", "0", "--lines"}, "are for text models");
    // The image itself is not overwritten by --out.
    const std::string png = tmp("input.png");
    ASSERT_EQ(cli({"classify", "--model", cls, "--fashion-mnist", "2", "--save-input", png}).code,
              0);
    const std::string before = readFile(png);
    Result r = cli({"render", "--model", cls, "--image", png, "--out", png});
    EXPECT_EQ(r.code, 1);
    EXPECT_EQ(readFile(png), before);
    fails({"--model", textModel(), "--image", tmp("x.png")}, "reads text");
    fails({"--model", textModel(), "--fashion-mnist", "0"}, "reads text");
    fails({"--model", cls, "--model", textModel(), "--fashion-mnist", "0"}, "reads text");
    fails({"--model", textModel(), "--text", "I want to go", "--query", "3,3"},
          "are for image models");
    fails({"--model", textModel(), "--text", "I want to go", "--heads", "rollout"},
          "--show rollout");
}
