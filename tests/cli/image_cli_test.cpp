// SPDX-License-Identifier: GPL-3.0-or-later
// A person's own image through attnviz-cli (classify, attention --image, --save-input): the
// road from a file to an image model, and hostile files refused with messages.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <type_traits>

#include "cli/cli.h"
#include "cli_run.h"
#include "core/image_set.h"
#include "tests/expect.h"

using nlohmann::json;

namespace {

using Result = attnviz::test::CliResult;
using attnviz::test::cli;

std::string tmp(const std::string& n) {
    return ::testing::TempDir() + "attnviz_image_cli_" + n;
}

std::string le32(uint32_t v) {
    return {char(v), char(v >> 8), char(v >> 16), char(v >> 24)};
}

// A 24-bit BMP of w × h pixels given by `gray(x, y)`: a gray value, or an RGB array.
template <class F>
void writeBmp(const std::string& path, int w, int h, F gray) {
    const int stride = (w * 3 + 3) / 4 * 4;
    std::string px;
    for (int y = h - 1; y >= 0; --y) {  // bottom-up
        std::string row;
        for (int x = 0; x < w; ++x) {
            const auto v = gray(x, y);
            if constexpr (std::is_integral_v<decltype(v)>)
                row.append(3, char(v));
            else  // BMP keeps blue, green, red
                row += {char(v[2]), char(v[1]), char(v[0])};
        }
        row.resize(size_t(stride), '\0');
        px += row;
    }
    const std::string dib = le32(40) + le32(uint32_t(w)) + le32(uint32_t(h)) +
                            std::string("\x01\x00\x18\x00", 4) + le32(0) +
                            le32(uint32_t(px.size())) + le32(2835) + le32(2835) + le32(0) + le32(0);
    std::ofstream(path, std::ios::binary | std::ios::trunc)
        << "BM" << le32(uint32_t(54 + px.size())) << le32(0) << le32(54) << dib << px;
}

// An untrained image model of the default 28 × 28 input: the road matters here, not accuracy.
const std::string& vitModel() {
    static const std::string model = [] {
        const std::string cfg = tmp("vit.json"), out = tmp("vit.safetensors");
        std::ofstream(cfg) << R"({"arch": "vit", "d_model": 16, "heads": 2, "d_ff": 32,
                                  "enc_layers": 1})";
        const Result r = cli({"init", "--config", cfg, "--seed", "5", "--out", out});
        EXPECT_EQ(r.code, 0) << r.err;
        return out;
    }();
    return model;
}

bool haveFashionMnist() {
    return std::filesystem::exists(attnviz::fashionMnistDir() + "/t10k-images-idx3-ubyte.gz") ||
           std::filesystem::exists(attnviz::fashionMnistDir() + "/t10k-images-idx3-ubyte");
}

// A dark shirt-like shape on a light 90 × 60 background.
int photo(int x, int y) {
    const bool body = x >= 30 && x < 60 && y >= 10 && y < 55;
    const bool sleeves = y >= 10 && y < 25 && x >= 18 && x < 72;
    return body || sleeves ? 40 : 225;
}

}  // namespace

// A test image written to a PNG (--save-input) and read back with --image classifies exactly
// as --fashion-mnist does, and the dumps hold the same 784 pixels.
TEST(ImageCli, FashionMnistImageRoundTripsThroughAPng) {
    if (!haveFashionMnist()) GTEST_SKIP() << "no Fashion-MNIST in " << attnviz::fashionMnistDir();
    const std::string png = tmp("test7.png");
    std::filesystem::remove(png);
    const Result set = cli(
        {"classify", "--model", vitModel(), "--fashion-mnist", "7", "--json", "--save-input", png});
    ASSERT_EQ(set.code, 0) << set.err;
    const Result file = cli({"classify", "--model", vitModel(), "--image", png, "--json"});
    ASSERT_EQ(file.code, 0) << file.err;
    const json a = json::parse(set.out), b = json::parse(file.out);
    EXPECT_EQ(a, b);
    EXPECT_EQ(a["probabilities"].size(), 10u);
    EXPECT_EQ(a["class"], attnviz::fashionMnistClasses()[a["index"].get<size_t>()]);
    double sum = 0;
    for (const auto& p : a["probabilities"]) sum += p.get<double>();
    EXPECT_NEAR(sum, 1.0, 1e-5);

    const Result d1 = cli({"attention", "--model", vitModel(), "--fashion-mnist", "7"});
    const Result d2 = cli({"attention", "--model", vitModel(), "--image", png});
    ASSERT_EQ(d1.code, 0) << d1.err;
    ASSERT_EQ(d2.code, 0) << d2.err;
    const json j1 = json::parse(d1.out), j2 = json::parse(d2.out);
    EXPECT_EQ(j1["image"]["pixels"], j2["image"]["pixels"]);
    EXPECT_EQ(j1["probabilities"], j2["probabilities"]);
    EXPECT_EQ(j1["blocks"], j2["blocks"]);
    EXPECT_EQ(j2["image"]["inverted"], false);
    EXPECT_EQ(j2["image"]["source"], "file '" + png + "' (28×28 pixels)");
    EXPECT_FALSE(j2["image"].contains("label"));
}

// A photo-like image (dark on light, 90 × 60), the plain conversion: inverted, fitted, saved; the
// saved 28 × 28 image is the dump's pixels and classifies the same as the photo.
TEST(ImageCli, APhotoIsInvertedFittedAndSaved) {
    const std::string bmp = tmp("shirt.bmp"), seen = tmp("shirt-seen.png");
    writeBmp(bmp, 90, 60, photo);
    std::filesystem::remove(seen);
    Result r = cli({"classify", "--model", vitModel(), "--image", bmp, "--prepare", "plain",
                    "--save-input", seen});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_HAS(r.out, "file '" + bmp + "' (90×60 pixels, inverted, trimmed and fitted): ");
    EXPECT_HAS(r.out, "  0  T-shirt/top  ");
    EXPECT_HAS(r.out, "  9  Ankle boot   ");

    const Result photoJson =
        cli({"classify", "--model", vitModel(), "--image", bmp, "--prepare", "plain", "--json"});
    const Result seenJson = cli({"classify", "--model", vitModel(), "--image", seen, "--json"});
    ASSERT_EQ(seenJson.code, 0) << seenJson.err;
    EXPECT_EQ(json::parse(photoJson.out), json::parse(seenJson.out));

    r = cli({"attention", "--model", vitModel(), "--image", bmp, "--prepare", "plain"});
    ASSERT_EQ(r.code, 0) << r.err;
    const json d = json::parse(r.out);
    EXPECT_EQ(d["image"]["inverted"], true);
    const auto px = d["image"]["pixels"].get<std::vector<int>>();
    ASSERT_EQ(px.size(), 784u);
    // The shape (54 × 45) is trimmed and fitted to 28 × 23 (45 · 28 / 54 = 23.3), centred
    // at rows 2 … 24: a light object on black, rows 0, 1, 25 … 27 empty.
    for (int y : {0, 1, 25, 26, 27})
        for (int x = 0; x < 28; ++x) EXPECT_EQ(px[size_t(y * 28 + x)], 0) << x << "," << y;
    EXPECT_EQ(px[size_t(3 * 28 + 0)], 255);    // a sleeve's end
    EXPECT_EQ(px[size_t(20 * 28 + 14)], 255);  // the body
    EXPECT_EQ(px[size_t(20 * 28 + 0)], 0);     // beside the body, under the sleeve

    // Forced off: the light background is the object, the shape a hole in it.
    r = cli({"attention", "--model", vitModel(), "--image", bmp, "--prepare", "plain", "--invert",
             "no"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(json::parse(r.out)["image"]["inverted"], false);
}

// The default preparation cuts the garment out (core/garment_cutout.h): a dark shirt on a rug
// of light checks, its steps written by --save-steps; the saved 28 × 28 image classifies as
// the photo does. An image too small to cut out gets the plain conversion and says why.
TEST(ImageCli, APhotoIsCutOutByDefaultWithItsSteps) {
    const std::string bmp = tmp("rug.bmp"), seen = tmp("rug-seen.png");
    const std::string steps = tmp("rug-steps.png");
    writeBmp(bmp, 240, 200, [](int x, int y) {
        const bool body = x >= 80 && x < 160 && y >= 40 && y < 170;
        const bool sleeves = y >= 40 && y < 80 && x >= 40 && x < 200;
        return body || sleeves ? 40 : ((x / 8 + y / 8) % 2 ? 190 : 225);
    });
    for (const auto& f : {seen, steps}) std::filesystem::remove(f);
    Result r = cli({"classify", "--model", vitModel(), "--image", bmp, "--save-input", seen,
                    "--save-steps", steps});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_HAS(r.out, "file '" + bmp + "' (240×200 pixels, garment cut out, inverted): ");
    ASSERT_TRUE(std::filesystem::exists(steps));
    std::ifstream in(steps, std::ios::binary);
    std::string head(8, '\0');
    in.read(head.data(), 8);
    EXPECT_EQ(head, "\x89PNG\r\n\x1a\n");
    const Result photoJson = cli({"classify", "--model", vitModel(), "--image", bmp, "--json"});
    const Result seenJson = cli({"classify", "--model", vitModel(), "--image", seen, "--json"});
    ASSERT_EQ(seenJson.code, 0) << seenJson.err;
    EXPECT_EQ(json::parse(photoJson.out), json::parse(seenJson.out));
    // The garment, bright, fills the frame; beside the body, under the sleeves, exactly 0.
    r = cli({"attention", "--model", vitModel(), "--image", bmp});
    ASSERT_EQ(r.code, 0) << r.err;
    const auto px = json::parse(r.out)["image"]["pixels"].get<std::vector<int>>();
    ASSERT_EQ(px.size(), 784u);
    EXPECT_GE(px[size_t(14 * 28 + 14)], 64);
    EXPECT_EQ(px[size_t(24 * 28 + 1)], 0);
    EXPECT_EQ(px[size_t(24 * 28 + 26)], 0);

    const std::string tiny = tmp("tiny.bmp");
    writeBmp(tiny, 1, 1, [](int, int) { return 200; });
    r = cli({"classify", "--model", vitModel(), "--image", tiny, "--save-steps", steps});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_HAS(r.out, "not cut out: the image is too small to cut out (1×1 pixels");
}

TEST(ImageCli, CutOutOptionsAreChecked) {
    Result r = cli({"classify", "--model", vitModel(), "--image", "a.png", "--prepare", "grabcut"});
    EXPECT_EQ(r.code, 2);
    r = cli(
        {"classify", "--model", vitModel(), "--fashion-mnist", "0", "--save-steps", tmp("s.png")});
    EXPECT_EQ(r.code, 1);
    EXPECT_HAS(r.err, "--save-steps shows how an --image is cut out: give --image");
    r = cli({"classify", "--model", vitModel(), "--image", "a.png", "--prepare", "plain",
             "--save-steps", tmp("s.png")});
    EXPECT_EQ(r.code, 1);
    EXPECT_HAS(r.err, "--save-steps needs --prepare cutout");
    // Never over the photo or the model.
    r = cli(
        {"classify", "--model", vitModel(), "--image", tmp("a.png"), "--save-steps", vitModel()});
    EXPECT_EQ(r.code, 1);
    EXPECT_HAS(r.err, "--save-steps");
}

TEST(ImageCli, HostileImagesAreRefusedWithMessages) {
    const std::string bmp = tmp("cut.bmp");
    writeBmp(bmp, 90, 60, photo);
    std::filesystem::resize_file(bmp, 200);
    Result r = cli({"classify", "--model", vitModel(), "--image", bmp});
    EXPECT_EQ(r.code, 1);
    EXPECT_HAS(r.err, "'" + bmp + "' is truncated: the BMP holds 200 bytes");

    const std::string empty = tmp("empty.png");
    std::ofstream(empty, std::ios::trunc).close();
    r = cli({"classify", "--model", vitModel(), "--image", empty});
    EXPECT_EQ(r.code, 1);
    EXPECT_HAS(r.err, "'" + empty + "' is empty (0 bytes), not an image");

    const std::string named = tmp("bmp.png");
    writeBmp(named, 4, 4, [](int, int) { return 0; });
    r = cli({"attention", "--model", vitModel(), "--image", named});
    EXPECT_EQ(r.code, 1);
    EXPECT_HAS(r.err, "holds a BMP image, but its name says PNG");

    const std::string dir = tmp("dir.png");
    std::filesystem::create_directories(dir);
    r = cli({"attention", "--model", vitModel(), "--image", dir});
    EXPECT_EQ(r.code, 1);
    EXPECT_HAS(r.err, "'" + dir + "' is a directory, not a file");
    r = cli({"classify", "--model", vitModel(), "--image", dir});  // classify reads folders
    EXPECT_EQ(r.code, 1);
    EXPECT_HAS(r.err, "--image '" + dir + "': the folder holds no image files");
    const std::string fifo = tmp("fifo.png");
    ::unlink(fifo.c_str());
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    r = cli({"classify", "--model", vitModel(), "--image", fifo});
    EXPECT_HAS(r.err, "is a FIFO (named pipe), not a file");
    ::unlink(fifo.c_str());
    r = cli({"classify", "--model", vitModel(), "--image", "/dev/zero"});
    EXPECT_HAS(r.err, "'/dev/zero' is a character device, not a file");
}

TEST(ImageCli, OptionsAreChecked) {
    Result r = cli({"classify", "--model", vitModel()});
    EXPECT_EQ(r.code, 1);
    EXPECT_HAS(r.err, "give --image FILE, --fashion-mnist INDEX or --photo INDEX");
    r = cli({"classify", "--model", vitModel(), "--image", "a.png", "--fashion-mnist", "1"});
    EXPECT_EQ(r.code, 1);
    EXPECT_HAS(r.err, "give one of --image, --fashion-mnist and --photo");
    r = cli({"classify", "--model", vitModel(), "--image", "a.png", "--invert", "maybe"});
    EXPECT_EQ(r.code, 2);
    // --save-input never overwrites the model.
    r = cli(
        {"classify", "--model", vitModel(), "--fashion-mnist", "0", "--save-input", vitModel()});
    EXPECT_EQ(r.code, 1);
    EXPECT_HAS(r.err, "--save-input");

    const std::string text = tmp("text.safetensors");
    ASSERT_EQ(
        cli({"init", "--config", ATTNVIZ_TEST_DATA "/configs/dense.json", "--out", text}).code, 0);
    r = cli({"classify", "--model", text, "--image", "a.png"});
    EXPECT_EQ(r.code, 1);
    EXPECT_HAS(r.err, "classify needs an image model");
    r = cli({"attention", "--model", text, "--image", "a.png"});
    EXPECT_EQ(r.code, 1);
    EXPECT_HAS(r.err, "need an image model");
}

// analyze on an image model: distance_px per head and per layer over one image or many
// (docs/model-spec.md 4.4). The hard-coded 2D Gaussian's heads have the distance of the
// spec's density whatever the image (tests/reference/attention_distance_ref.py checks the
// values against NumPy; here, that they do not depend on the images and the JSON's shape).
TEST(ImageCli, AnalyzeGivesMeanAttentionDistances) {
    if (!haveFashionMnist()) GTEST_SKIP() << "Fashion-MNIST is not installed";
    const std::string cfg = tmp("gauss.json"), gauss = tmp("gauss.safetensors");
    std::ofstream(cfg) << R"({"arch": "vit", "d_model": 16, "heads": 4, "d_ff": 32,
                              "enc_layers": 2, "encoder_self": {"variant": "gaussian"}})";
    ASSERT_EQ(cli({"init", "--config", cfg, "--out", gauss}).code, 0);
    Result r = cli({"analyze", "--model", gauss, "--fashion-mnist-count", "4"});
    ASSERT_EQ(r.code, 0) << r.err;
    const json many = json::parse(r.out);
    EXPECT_EQ(many["images"], 4);
    EXPECT_EQ(many["source"], "fashion-mnist test images 0 … 3");
    EXPECT_NEAR(many["uniform_distance_px"].get<double>(), 14.437861767102035, 1e-9);
    ASSERT_EQ(many["heads"].size(), 8u);
    ASSERT_EQ(many["layers"].size(), 2u);
    // Left, right, above, below: one value by symmetry, in both layers, on every image.
    const double first = many["heads"][0]["distance_px"];
    EXPECT_GT(first, 4.0);
    EXPECT_LT(first, 8.0);
    for (const json& h : many["heads"]) {
        EXPECT_NEAR(h["distance_px"].get<double>(), first, 1e-5) << h.dump();
        EXPECT_EQ(h["rows"], 4 * 49);
        EXPECT_EQ(h["variant"], "gaussian");
    }
    EXPECT_NEAR(many["layers"][1]["distance_px"].get<double>(), first, 1e-5);
    r = cli({"analyze", "--model", gauss, "--fashion-mnist", "7"});
    ASSERT_EQ(r.code, 0) << r.err;
    const json one = json::parse(r.out);
    EXPECT_EQ(one["images"], 1);
    EXPECT_EQ(one["heads"][3]["rows"], 49);
    EXPECT_NEAR(one["heads"][3]["distance_px"].get<double>(), first, 1e-5);

    // A dot-product model on a person's image: per layer the mean of its heads.
    const std::string bmp = tmp("analyze.bmp");
    writeBmp(bmp, 40, 30, [](int x, int y) {
        return (x - 20) * (x - 20) + (y - 15) * (y - 15) < 90 ? 30 : 230;
    });
    r = cli({"analyze", "--model", vitModel(), "--image", bmp});
    ASSERT_EQ(r.code, 0) << r.err;
    const json dot = json::parse(r.out);
    EXPECT_EQ(dot["inverted"], true);
    ASSERT_EQ(dot["heads"].size(), 2u);
    const double a = dot["heads"][0]["distance_px"], b = dot["heads"][1]["distance_px"];
    EXPECT_GT(a, 0.0);
    EXPECT_LT(a, 4 * 6 * std::sqrt(2.0));  // the grid's diagonal
    EXPECT_NEAR(dot["layers"][0]["distance_px"].get<double>(), (a + b) / 2, 1e-12);
    // Without an image option: the first 1,000 test images (the default); here a smaller count.
    r = cli({"analyze", "--model", vitModel(), "--fashion-mnist-count", "2", "--split", "train"});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(json::parse(r.out)["source"], "fashion-mnist train images 0 … 1");
}

TEST(ImageCli, AnalyzeOptionsAreChecked) {
    Result r = cli({"analyze", "--model", vitModel(), "--text", "hello"});
    EXPECT_EQ(r.code, 1);
    EXPECT_HAS(r.err, "is an image model: give --image, --fashion-mnist or --fashion-mnist-count");
    r = cli({"analyze", "--model", vitModel(), "--fashion-mnist", "0", "--rollout"});
    EXPECT_EQ(r.code, 1);
    EXPECT_HAS(r.err, "--rollout, --importance and --prune are for text models");
    r = cli(
        {"analyze", "--model", vitModel(), "--fashion-mnist", "0", "--fashion-mnist-count", "5"});
    EXPECT_EQ(r.code, 1);
    EXPECT_HAS(r.err, "not both");
    r = cli({"analyze", "--model", vitModel(), "--fashion-mnist-count", "5", "--save-input",
             tmp("x.png")});
    EXPECT_EQ(r.code, 1);
    EXPECT_HAS(r.err, "--save-input saves one image");
    r = cli({"analyze", "--model", vitModel(), "--fashion-mnist-count", "0"});
    EXPECT_EQ(r.code, 2);
    const std::string text = tmp("text_analyze.safetensors");
    ASSERT_EQ(
        cli({"init", "--config", ATTNVIZ_TEST_DATA "/configs/dense.json", "--out", text}).code, 0);
    r = cli({"analyze", "--model", text, "--fashion-mnist", "0"});
    EXPECT_EQ(r.code, 1);
    EXPECT_HAS(r.err, "need an image model; this one reads text");
    r = cli({"analyze", "--model", text, "--fashion-mnist-count", "3", "--text", "a b"});
    EXPECT_EQ(r.code, 1);
    EXPECT_HAS(r.err, "need an image model");
}

// eval --predictions (issue 50: paired tests on the same test images): one line per image of
// the split, predicted TAB label, agreeing with the JSON's accuracy and confusion matrix.
TEST(ImageCli, EvalWritesEachImagesPrediction) {
    if (!haveFashionMnist()) GTEST_SKIP() << "Fashion-MNIST is not installed";
    const std::string out = tmp("predictions.tsv");
    const Result r = cli({"eval", "--model", vitModel(), "--task", "fashion-mnist", "--split",
                          "validation", "--count", "300", "--predictions", out});
    ASSERT_EQ(r.code, 0) << r.err;
    const json m = json::parse(r.out)["metrics"];
    std::ifstream in(out);
    std::vector<std::vector<int>> confusion(10, std::vector<int>(10, 0));
    int lines = 0, correct = 0, predicted = 0, label = 0;
    while (in >> predicted >> label) {
        ++lines;
        ASSERT_TRUE(predicted >= 0 && predicted < 10 && label >= 0 && label < 10);
        ++confusion[size_t(label)][size_t(predicted)];
        correct += predicted == label;
    }
    EXPECT_EQ(lines, 300);
    EXPECT_EQ(json(confusion), m["confusion"]);
    EXPECT_DOUBLE_EQ(double(correct) / 300, m["accuracy"].get<double>());
    // Text models have --hypotheses instead.
    const Result t = cli({"eval", "--model", vitModel(), "--task", "copy", "--predictions", out});
    EXPECT_EQ(t.code, 1);
}

namespace {

// An untrained colour model of the clothing photos' 64 × 64 RGB input (issue 49).
const std::string& colourModel() {
    static const std::string model = [] {
        const std::string cfg = tmp("colour.json"), out = tmp("colour.safetensors");
        std::ofstream(cfg) << R"({"arch": "vit", "d_model": 16, "heads": 2, "d_ff": 32,
                                  "enc_layers": 1, "image_size": 64, "channels": 3,
                                  "patch": 16, "pool": "mean"})";
        const Result r = cli({"init", "--config", cfg, "--seed", "5", "--out", out});
        EXPECT_EQ(r.code, 0) << r.err;
        return out;
    }();
    return model;
}

}  // namespace

// A colour model reads the bundled photos (--photo), a person's photo as it is (fitted on its
// mean colour, never inverted or cut out), round-trips the image it saw through a PNG, and is
// evaluated on the clothing photos with their ten classes.
TEST(ImageCli, AColourModelReadsPhotosAsTheyAre) {
    const Result init = cli({"info", "--model", colourModel(), "--json"});
    ASSERT_EQ(init.code, 0) << init.err;
    EXPECT_HAS(init.out, "Longsleeve");  // init names the classes of the set of its shape
    const Result p =
        cli({"attention", "--model", colourModel(), "--photo", "5", "--split", "validation"});
    ASSERT_EQ(p.code, 0) << p.err;
    const json d = json::parse(p.out);
    EXPECT_EQ(d["image"]["channels"], 3);
    EXPECT_EQ(d["image"]["pixels"].size(), 64u * 64u * 3u);
    EXPECT_EQ(d["image"]["source"], "clothing-photos validation image 5");
    EXPECT_TRUE(d["image"].contains("label"));
    // A 90 × 60 photo: fitted to 64 × 43 on its mean colour, saved, read back unchanged.
    const std::string photoFile = tmp("colour-photo.bmp"), seen = tmp("colour-seen.png");
    writeBmp(photoFile, 90, 60, photo);
    const Result a = cli({"classify", "--model", colourModel(), "--image", photoFile,
                          "--save-input", seen, "--json"});
    ASSERT_EQ(a.code, 0) << a.err;
    const Result b = cli({"classify", "--model", colourModel(), "--image", seen, "--json"});
    ASSERT_EQ(b.code, 0) << b.err;
    EXPECT_EQ(json::parse(a.out)["probabilities"], json::parse(b.out)["probabilities"]);
    const Result dump = cli({"attention", "--model", colourModel(), "--image", photoFile});
    ASSERT_EQ(dump.code, 0) << dump.err;
    const json img = json::parse(dump.out)["image"];
    EXPECT_FALSE(img.contains("inverted"));
    EXPECT_HAS(img["source"].get<std::string>(), "90×60 pixels, colour, fitted on its mean colour");
    // The light background stays light: the top band (rows 0 … 9) is the mean colour, the
    // photo's dark shirt stays dark (no inversion).
    EXPECT_GT(img["pixels"][0].get<int>(), 150);
    EXPECT_LT(img["pixels"][(32 * 64 + 32) * 3].get<int>(), 60);
    // Grayscale-only preparation is refused by name; --prepare plain is this model's way
    // already (it was not trained on cut-out photos), and steps need a cut-out.
    EXPECT_HAS(
        cli({"classify", "--model", colourModel(), "--image", photoFile, "--invert", "no"}).err,
        "is a colour model: it reads a photo's colours (docs/model-spec.md 3.12), so "
        "--invert does not apply");
    const Result plain = cli({"classify", "--model", colourModel(), "--image", photoFile,
                              "--prepare", "plain", "--json"});
    ASSERT_EQ(plain.code, 0) << plain.err;
    EXPECT_EQ(json::parse(plain.out)["probabilities"], json::parse(a.out)["probabilities"]);
    EXPECT_HAS(cli({"classify", "--model", colourModel(), "--image", photoFile, "--save-steps",
                    tmp("colour-steps.png")})
                   .err,
               "was trained on photos as they are (clothing-photos), so nothing is cut out");
    // eval: 406 validation photos, predictions matching the confusion matrix.
    const std::string out = tmp("colour-predictions.tsv");
    const Result e = cli({"eval", "--model", colourModel(), "--task", "clothing-photos", "--split",
                          "validation", "--predictions", out});
    ASSERT_EQ(e.code, 0) << e.err;
    const json m = json::parse(e.out)["metrics"];
    std::ifstream in(out);
    std::vector<std::vector<int>> confusion(10, std::vector<int>(10, 0));
    int lines = 0, predicted = 0, label = 0;
    while (in >> predicted >> label) ++lines, ++confusion[size_t(label)][size_t(predicted)];
    EXPECT_EQ(lines, 406);
    EXPECT_EQ(json(confusion), m["confusion"]);
    // Models and tasks that do not fit are refused, naming both shapes.
    EXPECT_HAS(cli({"eval", "--model", vitModel(), "--task", "clothing-photos"}).err,
               "task 'clothing-photos' has 64×64 colour images of 10 classes");
    EXPECT_HAS(cli({"classify", "--model", colourModel(), "--fashion-mnist", "0"}).err,
               "task 'fashion-mnist' has 28×28 grayscale images");
    EXPECT_HAS(cli({"classify", "--model", colourModel(), "--photo", "5000"}).err,
               "--photo 5000: the test split has 406 images");
    EXPECT_HAS(
        cli({"classify", "--model", colourModel(), "--photo", "1", "--image", photoFile}).err,
        "give one of --image, --fashion-mnist and --photo");
    // Over many photos, analyze's and render's distances read each photo whole, its three
    // channels (they read a third of it, and every model failed, before).
    const Result over = cli({"analyze", "--model", colourModel(), "--fashion-mnist-count", "3",
                             "--split", "validation"});
    ASSERT_EQ(over.code, 0) << over.err;
    EXPECT_EQ(json::parse(over.out)["images"], 3);
    EXPECT_EQ(json::parse(over.out)["source"], "clothing-photos validation images 0 … 2");
    const std::string chart = tmp("colour-distances.png");
    const Result r = cli({"render", "--distance-by-layer", "--model", colourModel(),
                          "--fashion-mnist-count", "3", "--out", chart});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(std::filesystem::exists(chart));
}

// classify takes many images (issue 49): files and folders, one JSON object a line in order,
// an unreadable file reported in its place while the others are classified (exit code 1), and
// each line equal to classifying that image alone.
TEST(ImageCli, ClassifyTakesManyImagesAndFolders) {
    const std::string dir = tmp("many-dir");
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    writeBmp(dir + "/b.bmp", 90, 60, photo);
    writeBmp(dir + "/a.bmp", 40, 70, [](int x, int y) { return (x * 5 + y * 3) % 256; });
    std::ofstream(dir + "/c.png") << "not a png";
    std::ofstream(dir + "/notes.txt") << "ignored: not an image file name";
    const std::string single = tmp("many-single.bmp");
    writeBmp(single, 30, 30, [](int x, int) { return x * 8; });
    const Result r = cli({"classify", "--model", colourModel(), "--json", "--image", single, dir});
    EXPECT_EQ(r.code, 1);
    EXPECT_HAS(r.err, "1 of 4 images could not be classified");
    std::istringstream lines(r.out);
    std::vector<json> rows;
    for (std::string line; std::getline(lines, line);) rows.push_back(json::parse(line));
    ASSERT_EQ(rows.size(), 4u);
    const std::vector<std::string> order{single, dir + "/a.bmp", dir + "/b.bmp", dir + "/c.png"};
    for (size_t i = 0; i < 4; ++i) EXPECT_EQ(rows[i]["image"], order[i]);
    EXPECT_TRUE(rows[3].contains("error"));
    for (size_t i = 0; i < 3; ++i) {
        const Result alone =
            cli({"classify", "--model", colourModel(), "--json", "--image", order[i]});
        ASSERT_EQ(alone.code, 0) << alone.err;
        EXPECT_EQ(json::parse(alone.out)["probabilities"], rows[i]["probabilities"]) << order[i];
    }
    // Text: one line per image.
    const Result t =
        cli({"classify", "--model", vitModel(), "--image", dir + "/a.bmp", dir + "/b.bmp"});
    ASSERT_EQ(t.code, 0) << t.err;
    EXPECT_EQ(std::count(t.out.begin(), t.out.end(), '\n'), 2);
    // One image's outputs are refused with many; a folder without images is named.
    EXPECT_HAS(cli({"classify", "--model", vitModel(), "--image", dir, "--save-input",
                    tmp("many-seen.png")})
                   .err,
               "give one --image file");
    const std::string empty = tmp("many-empty");
    std::filesystem::create_directories(empty);
    EXPECT_HAS(cli({"classify", "--model", vitModel(), "--image", empty}).err,
               "the folder holds no image files");
    // Other commands still take one image.
    EXPECT_NE(cli({"attention", "--model", vitModel(), "--image", single, single}).code, 0);
}

// A colour model trained on the cut-out photos (its training record's task, issue 49) reads a
// person's photo as that set was made: the garment cut out on kCutoutPad gray, its steps
// saved on request; --photo reads the cut-out set; --prepare plain fits the photo as it is.
TEST(ImageCli, AModelOfTheCutOutPhotosCutsAPersonsPhotoOut) {
    const std::string model = tmp("cutout-trained.safetensors");
    const Result t = cli({"train", "--init", colourModel(), "--task", "clothing-photos-cutout",
                          "--steps", "1", "--batch-size", "2", "--out", model});
    ASSERT_EQ(t.code, 0) << t.err;
    const Result info = cli({"info", "--model", model, "--json"});
    EXPECT_HAS(info.out, "clothing-photos-cutout");
    // A blue shirt on a beige rug, 120 × 100: no rug is left, the corners are the pad gray.
    const std::string photoFile = tmp("cutout-photo.bmp"), steps = tmp("cutout-steps.png"),
                      seen = tmp("cutout-seen.png");
    writeBmp(photoFile, 120, 100, [](int x, int y) -> std::array<uint8_t, 3> {
        const bool shirt = x > 30 && x < 90 && y > 15 && y < 90;
        return shirt ? std::array<uint8_t, 3>{30, 40, 160} : std::array<uint8_t, 3>{215, 200, 170};
    });
    const Result a = cli({"attention", "--model", model, "--image", photoFile, "--save-steps",
                          steps, "--save-input", seen});
    ASSERT_EQ(a.code, 0) << a.err;
    const json img = json::parse(a.out)["image"];
    EXPECT_HAS(img["source"].get<std::string>(), "120×100 pixels, colour, garment cut out on gray");
    const auto& px = img["pixels"];
    for (int k = 0; k < 3; ++k) EXPECT_EQ(px[k].get<int>(), 128) << "the corner is the pad";
    EXPECT_LT(px[(32 * 64 + 32) * 3].get<int>(), 60) << "the shirt's blue at the centre";
    EXPECT_GT(px[(32 * 64 + 32) * 3 + 2].get<int>(), 130);
    auto magic = [](const std::string& f) {
        std::string b(4, '\0');
        std::ifstream(f, std::ios::binary).read(b.data(), 4);
        return b.substr(1, 3);
    };
    EXPECT_EQ(magic(steps), "PNG");
    EXPECT_EQ(magic(seen), "PNG");
    // --prepare plain: the photo fitted on its mean colour, as a plain model reads it.
    const Result p =
        cli({"attention", "--model", model, "--image", photoFile, "--prepare", "plain"});
    ASSERT_EQ(p.code, 0) << p.err;
    const json plainImg = json::parse(p.out)["image"];
    EXPECT_HAS(plainImg["source"].get<std::string>(), "fitted on its mean colour");
    EXPECT_NE(plainImg["pixels"][0].get<int>(), 128);
    // The bundled photo of an index is the cut-out set's.
    const Result b = cli({"attention", "--model", model, "--photo", "5"});
    ASSERT_EQ(b.code, 0) << b.err;
    EXPECT_EQ(json::parse(b.out)["image"]["source"], "clothing-photos-cutout test image 5");
}
