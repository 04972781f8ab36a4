// SPDX-License-Identifier: GPL-3.0-or-later
// The bundled real-photo image set (resources/data/clothing-photos, issue 49 part 2), read as
// the engine reads it (core/idx.h): each split's images are [N, 64, 64, 3] with N labels of
// the ten classes; the counts per split and per class are those of the set's README; the split
// is by contributor (no contributor in two splits, every row traced to its contributor by
// images.tsv); and the images are in colour.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/idx.h"

using namespace attnviz;
namespace fs = std::filesystem;

namespace {

const fs::path kDir = fs::path(ATTNVIZ_DATA_DIR) / "clothing-photos";
const std::array<std::string, 3> kSplits = {"train", "validation", "test"};
constexpr int kClasses = 10;
constexpr uint32_t kSide = 64;

std::vector<std::string> lines(const fs::path& path) {
    std::ifstream in(path);
    EXPECT_TRUE(in) << path;
    std::vector<std::string> out;
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

std::vector<std::string> cells(const std::string& line, char sep) {
    std::vector<std::string> out;
    std::string cell;
    std::istringstream in(line);
    while (std::getline(in, cell, sep)) out.push_back(cell);
    return out;
}

std::string trim(const std::string& s) {
    const size_t a = s.find_first_not_of(' '), b = s.find_last_not_of(' ');
    return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

// The README's two tables: per split (contributors, photos) and per class (name, a count per
// split). Rows are recognised by their first cell.
struct ReadmeTables {
    std::map<std::string, std::pair<int, int>> splits;  // split or "all" → contributors, photos
    std::vector<std::string> classNames;
    std::vector<std::array<int, 4>> perClass;  // train, validation, test, all
};

ReadmeTables readme() {
    ReadmeTables t;
    for (const std::string& line : lines(kDir / "README.md")) {
        if (line.rfind("| ", 0) != 0) continue;
        std::vector<std::string> c;
        for (const std::string& x : cells(line.substr(1), '|')) c.push_back(trim(x));
        if (c.size() == 3 &&
            (c[0] == "all" || c[0] == "train" || c[0] == "validation" || c[0] == "test"))
            t.splits[c[0]] = {std::stoi(c[1]), std::stoi(c[2])};
        if (c.size() == 6 && !c[0].empty() && std::isdigit(static_cast<unsigned char>(c[0][0]))) {
            EXPECT_EQ(std::stoi(c[0]), int(t.classNames.size())) << line;
            t.classNames.push_back(c[1]);
            t.perClass.push_back(
                {std::stoi(c[2]), std::stoi(c[3]), std::stoi(c[4]), std::stoi(c[5])});
        }
    }
    return t;
}

}  // namespace

TEST(ClothingPhotos, ShapesClassesAndCountsAreThoseOfTheReadme) {
    const ReadmeTables t = readme();
    ASSERT_EQ(t.splits.size(), 4u) << "the README's split table";
    ASSERT_EQ(t.classNames.size(), size_t(kClasses)) << "the README's class table";
    EXPECT_EQ(lines(kDir / "classes.txt"), t.classNames);

    int total = 0;
    std::array<int, kClasses> allPerClass{};
    for (size_t s = 0; s < kSplits.size(); ++s) {
        const std::string& split = kSplits[s];
        const IdxArray images = readIdx((kDir / (split + "-images-idx4-ubyte.gz")).string());
        const IdxArray labels = readIdx((kDir / (split + "-labels-idx1-ubyte.gz")).string());
        const uint32_t n = uint32_t(t.splits.at(split).second);
        EXPECT_EQ(images.dims, (std::vector<uint32_t>{n, kSide, kSide, 3})) << split;
        EXPECT_EQ(labels.dims, (std::vector<uint32_t>{n})) << split;
        ASSERT_EQ(labels.data.size(), size_t(n)) << split;
        std::array<int, kClasses> perClass{};
        for (uint8_t l : labels.data) {
            ASSERT_LT(l, kClasses) << split;
            ++perClass[l];
        }
        for (int k = 0; k < kClasses; ++k) {
            EXPECT_EQ(perClass[size_t(k)], t.perClass[size_t(k)][s])
                << split << " " << t.classNames[size_t(k)];
            allPerClass[size_t(k)] += perClass[size_t(k)];
        }
        total += int(n);

        // Colour photos, not gray copies: most images have pixels whose channels differ.
        int colour = 0;
        for (uint32_t i = 0; i < n; ++i) {
            const uint8_t* p = images.data.data() + size_t(i) * kSide * kSide * 3;
            int differing = 0;
            for (uint32_t j = 0; j < kSide * kSide; ++j)
                differing += std::abs(p[3 * j] - p[3 * j + 1]) > 8 ||
                             std::abs(p[3 * j + 1] - p[3 * j + 2]) > 8;
            colour += differing > int(kSide * kSide / 10);
        }
        EXPECT_GT(colour, int(n) * 8 / 10) << split;
    }
    EXPECT_EQ(total, t.splits.at("all").second);
    for (int k = 0; k < kClasses; ++k) EXPECT_EQ(allPerClass[size_t(k)], t.perClass[size_t(k)][3]);
}

TEST(ClothingPhotos, EachContributorIsInOneSplitAndEveryRowIsTraced) {
    const ReadmeTables t = readme();
    const auto contributors = lines(kDir / "contributors.tsv");
    ASSERT_FALSE(contributors.empty());
    EXPECT_EQ(contributors[0], "contributor\tsplit\tphotos");
    std::map<std::string, std::string> splitOf;
    std::map<std::string, int> photosOf, contributorsIn;
    for (size_t i = 1; i < contributors.size(); ++i) {
        const auto c = cells(contributors[i], '\t');
        ASSERT_EQ(c.size(), 3u) << contributors[i];
        EXPECT_TRUE(splitOf.emplace(c[0], c[1]).second) << "contributor " << c[0] << " twice";
        photosOf[c[0]] = std::stoi(c[2]);
        ++contributorsIn[c[1]];
    }
    for (const std::string& split : kSplits)
        EXPECT_EQ(contributorsIn[split], t.splits.at(split).first) << split;
    EXPECT_EQ(int(splitOf.size()), t.splits.at("all").first);

    // images.tsv: each split's rows in order, each photo once, its label that of the label
    // file and its contributor one of its split's.
    std::map<std::string, std::vector<uint8_t>> labels;
    for (const std::string& split : kSplits)
        labels[split] = readIdx((kDir / (split + "-labels-idx1-ubyte.gz")).string()).data;
    const auto classes = lines(kDir / "classes.txt");
    const auto rows = lines(kDir / "images.tsv");
    ASSERT_FALSE(rows.empty());
    EXPECT_EQ(rows[0], "split\trow\timage\tcontributor\tlabel\tkids");
    std::map<std::string, size_t> next;
    std::set<std::string> images;
    std::map<std::string, int> photosSeen;
    for (size_t i = 1; i < rows.size(); ++i) {
        const auto c = cells(rows[i], '\t');
        ASSERT_EQ(c.size(), 6u) << rows[i];
        const std::string& split = c[0];
        ASSERT_TRUE(labels.count(split)) << rows[i];
        const size_t row = std::stoul(c[1]);
        EXPECT_EQ(row, next[split]++) << rows[i];
        ASSERT_LT(row, labels[split].size()) << rows[i];
        EXPECT_EQ(classes.at(labels[split][row]), c[4]) << rows[i];
        EXPECT_TRUE(images.insert(c[2]).second) << "image " << c[2] << " twice";
        ASSERT_TRUE(splitOf.count(c[3])) << "contributor " << c[3] << " not in contributors.tsv";
        EXPECT_EQ(splitOf[c[3]], split)
            << "contributor " << c[3] << " in " << splitOf[c[3]] << " has a photo in " << split;
        ++photosSeen[c[3]];
    }
    for (const std::string& split : kSplits) EXPECT_EQ(next[split], labels[split].size()) << split;
    EXPECT_EQ(photosSeen, photosOf);
}

// The cut-out set (resources/data/clothing-photos-cutout): the same rows, labels, splits and
// contributors as the plain set, each image [64, 64, 3]; as its README says, 2,666 of the
// 2,710 were cut out (nearly all with their four corners exactly mid-gray, the pad), and the
// other 44 are the plain set's image itself (GrabCut found no garment).
TEST(ClothingPhotos, TheCutOutSetIsThePlainSetsRowsWithTheBackgroundGray) {
    const fs::path cutDir = fs::path(ATTNVIZ_DATA_DIR) / "clothing-photos-cutout";
    for (const char* f : {"images.tsv", "contributors.tsv", "classes.txt"})
        EXPECT_EQ(lines(cutDir / f), lines(kDir / f)) << f;
    int cutOut = 0, grayCornered = 0, plain = 0, all = 0;
    for (const std::string& split : kSplits) {
        const IdxArray labels = readIdx((cutDir / (split + "-labels-idx1-ubyte.gz")).string());
        EXPECT_EQ(labels.data, readIdx((kDir / (split + "-labels-idx1-ubyte.gz")).string()).data);
        const IdxArray cut = readIdx((cutDir / (split + "-images-idx4-ubyte.gz")).string());
        const IdxArray own = readIdx((kDir / (split + "-images-idx4-ubyte.gz")).string());
        ASSERT_EQ(cut.dims, own.dims) << split;
        ASSERT_EQ(cut.dims, (std::vector<uint32_t>{uint32_t(labels.data.size()), kSide, kSide, 3}));
        const size_t bytes = size_t(kSide) * kSide * 3;
        for (size_t i = 0; i < labels.data.size(); ++i, ++all) {
            const uint8_t* c = cut.data.data() + i * bytes;
            const uint8_t* o = own.data.data() + i * bytes;
            if (std::equal(c, c + bytes, o)) {
                ++plain;
                continue;
            }
            bool grayCorners = true;
            for (size_t p : {size_t(0), size_t(kSide - 1), size_t(kSide) * (kSide - 1),
                             size_t(kSide) * kSide - 1})
                for (size_t k = 0; k < 3; ++k) grayCorners &= c[3 * p + k] == 128;
            cutOut += 1;
            grayCornered += grayCorners;
        }
    }
    EXPECT_EQ(all, 2710);
    EXPECT_EQ(cutOut, 2666);
    EXPECT_EQ(plain, 44);
    // A garment whose mask reaches a corner of its own box keeps that corner (7 of them).
    EXPECT_GE(grayCornered, 2650);
}
