// SPDX-License-Identifier: GPL-3.0-or-later
// Every command that reads a person's image (classify, analyze, attention, render --image)
// against broken and hostile JPEG and PNG files (issue 48, items 5 and 9): a JPEG cut short,
// one cut and mended with its end-of-image marker, one with damaged scan data, a PNG cut
// short and a progressive "scan bomb" are each refused at once, naming the file and what is
// wrong; none is decoded with grey fill and classified as if whole.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>

#include "cli_run.h"
#include "tests/render/jpeg_maker.h"

namespace {

using attnviz::test::cli;
using Result = attnviz::test::CliResult;

std::string tmp(const std::string& n) {
    return ::testing::TempDir() + "attnviz_image_readers_" + n;
}

void writeBytes(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

std::string readBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

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

// The image files, by name, with the words each refusal must hold.
std::vector<std::pair<std::string, std::string>> brokenImages() {
    // A gray progressive JPEG of 64 × 48 and its 28 × 28 PNG (--save-input) to cut.
    const std::string jpeg = attnviz::test::progressiveJpeg(64, 48, 20);
    writeBytes(tmp("whole.jpg"), jpeg);
    const Result saved = cli({"classify", "--model", vitModel(), "--image", tmp("whole.jpg"),
                              "--save-input", tmp("whole.png")});
    EXPECT_EQ(saved.code, 0) << saved.err;
    const std::string png = readBytes(tmp("whole.png"));
    EXPECT_GT(png.size(), 50u);
    std::string damaged = jpeg;
    const size_t data = damaged.find("\xFF\xDA") + 12;  // inside the first scan's data
    damaged.replace(data, 8, std::string("\xFF\x00\xFF\x00\xFF\x00\xFF\x00", 8));
    const std::vector<std::tuple<std::string, std::string, std::string>> files = {
        {"cut.jpg", jpeg.substr(0, jpeg.size() / 2), "is truncated: the JPEG data ends at byte"},
        {"mended.jpg", jpeg.substr(0, jpeg.find("\xFF\xDA") + 14) + "\xFF\xD9", "is damaged"},
        {"damaged.jpg", damaged, "is damaged"},
        {"cut.png", png.substr(0, png.size() / 2), "is truncated"},
        {"bomb.jpg", attnviz::test::progressiveJpeg(1024, 1024, 882 * 3, 3),
         "is a JPEG of 2649 scans; the limit is 100 scans"},
    };
    std::vector<std::pair<std::string, std::string>> out;
    for (const auto& [name, bytes, why] : files) {
        writeBytes(tmp(name), bytes);
        out.emplace_back(tmp(name), why);
    }
    return out;
}

}  // namespace

TEST(ImageReaders, EveryCommandRefusesBrokenAndHostileImages) {
    for (const auto& [path, why] : brokenImages()) {
        for (const std::vector<std::string>& command : std::vector<std::vector<std::string>>{
                 {"classify", "--model", vitModel(), "--image", path},
                 {"analyze", "--model", vitModel(), "--image", path},
                 {"attention", "--model", vitModel(), "--image", path},
                 {"render", "--model", vitModel(), "--image", path, "--out", tmp("out.png")}}) {
            const auto start = std::chrono::steady_clock::now();
            const Result r = cli(command);
            const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                                std::chrono::steady_clock::now() - start)
                                .count();
            EXPECT_EQ(r.code, 1) << command[0] << " " << path << ": " << r.out;
            EXPECT_HAS(r.err, "'" + path + "' " + why) << command[0];
            EXPECT_LT(ms, 2000) << command[0] << " " << path;
        }
    }
}
