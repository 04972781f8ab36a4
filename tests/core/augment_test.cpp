// SPDX-License-Identifier: GPL-3.0-or-later
// Training-image augmentation (core/augment.h): each draw is one of the transformations the
// option names, every one of them occurs, the draws depend on the seed alone, and a batch
// is augmented the same whatever the thread split.
#include "core/augment.h"

#include <gtest/gtest.h>

#include <set>

#include "core/image_set.h"
#include "core/model.h"
#include "core/network.h"
#include "core/rng.h"
#include "core/trainer.h"
#include "test_util.h"

using namespace attnviz;

namespace {

constexpr int kSize = 6;
using Image = std::vector<uint8_t>;

// Every pixel different and non-zero, so a transformation can be recognised.
Image numbered() {
    Image im(kSize * kSize);
    for (size_t i = 0; i < im.size(); ++i) im[i] = uint8_t(1 + i);
    return im;
}

// The image shifted by (dx, dy) after an optional mirror, computed the obvious way.
Image transformed(const Image& in, bool mirror, int dx, int dy) {
    Image out(in.size(), 0);
    for (int y = 0; y < kSize; ++y)
        for (int x = 0; x < kSize; ++x) {
            const int sy = y - dy, sx = x - dx;
            if (sy < 0 || sy >= kSize || sx < 0 || sx >= kSize) continue;
            out[size_t(y * kSize + x)] = in[size_t(sy * kSize + (mirror ? kSize - 1 - sx : sx))];
        }
    return out;
}

// Which (mirror, dx, dy) gives `out`, as a number; -1 when none does.
int whichTransform(const Image& in, const Image& out) {
    const int m = ImageAugment::kMaxShift;
    for (int f = 0; f < 2; ++f)
        for (int dx = -m; dx <= m; ++dx)
            for (int dy = -m; dy <= m; ++dy)
                if (transformed(in, f == 1, dx, dy) == out)
                    return f * 100 + (dx + m) * 10 + (dy + m);
    return -1;
}

std::set<int> drawsOver(const ImageAugment& a, int seeds) {
    std::set<int> seen;
    for (int s = 0; s < seeds; ++s) {
        Image im = numbered();
        a.apply(im.data(), kSize, augmentSeed(9, s, 3));
        seen.insert(whichTransform(numbered(), im));
    }
    return seen;
}

}  // namespace

TEST(Augment, NamesRoundTripAndBadNamesAreRefused) {
    for (const char* n : {"none", "flip", "shift", "flip+shift"})
        EXPECT_EQ(ImageAugment::parse(n).name(), n);
    const std::string e = test::errorOf([] { ImageAugment::parse("rotate"); });
    EXPECT_NE(e.find("none, flip, shift or flip+shift"), std::string::npos) << e;
    EXPECT_NE(e.find("rotate"), std::string::npos) << e;
    TrainOptions o;
    o.augment = "shift+flip";
    EXPECT_FALSE(test::errorOf([&] { o.validate(); }).empty());
}

TEST(Augment, NoneLeavesTheImageAlone) {
    Image im = numbered();
    ImageAugment{}.apply(im.data(), kSize, 1234);
    EXPECT_EQ(im, numbered());
}

// Flip alone: the image or its mirror, each about half the time.
TEST(Augment, FlipMirrorsAboutHalfTheImages) {
    const ImageAugment a = ImageAugment::parse("flip");
    int mirrored = 0;
    for (int s = 0; s < 2000; ++s) {
        Image im = numbered();
        a.apply(im.data(), kSize, augmentSeed(1, s, 0));
        const int t = whichTransform(numbered(), im);
        ASSERT_TRUE(t == 22 || t == 122) << t;  // no shift: dx = dy = 0
        mirrored += t == 122;
    }
    EXPECT_GT(mirrored, 900);
    EXPECT_LT(mirrored, 1100);
}

// Shift alone: every one of the 25 translations occurs, nothing else; with flip+shift all 50.
TEST(Augment, ShiftsCoverEveryTranslationWithZeroFill) {
    const std::set<int> shifts = drawsOver(ImageAugment::parse("shift"), 3000);
    EXPECT_EQ(shifts.size(), 25u);
    EXPECT_EQ(shifts.count(-1), 0u);
    EXPECT_LT(*shifts.rbegin(), 100);  // never mirrored
    const std::set<int> both = drawsOver(ImageAugment::parse("flip+shift"), 6000);
    EXPECT_EQ(both.size(), 50u);
    EXPECT_EQ(both.count(-1), 0u);
}

// A hand-made case: a single white pixel moves by the drawn shift and nowhere else.
TEST(Augment, ASinglePixelMovesByTheShift) {
    const ImageAugment a = ImageAugment::parse("shift");
    for (int s = 0; s < 50; ++s) {
        Image im(kSize * kSize, 0);
        im[size_t(2 * kSize + 3)] = 255;  // row 2, column 3
        a.apply(im.data(), kSize, uint64_t(s));
        int count = 0;
        for (int y = 0; y < kSize; ++y)
            for (int x = 0; x < kSize; ++x)
                if (im[size_t(y * kSize + x)]) {
                    ++count;
                    EXPECT_LE(std::abs(y - 2), 2);
                    EXPECT_LE(std::abs(x - 3), 2);
                }
        EXPECT_LE(count, 1);  // 0 when shifted out of the image (column 3 + 2 < 6: never)
        EXPECT_EQ(count, 1);
    }
}

TEST(Augment, SameSeedSameDrawOtherStepsOrIndicesDiffer) {
    const ImageAugment a = ImageAugment::parse("flip+shift");
    Image x = numbered(), y = numbered();
    a.apply(x.data(), kSize, augmentSeed(5, 7, 11));
    a.apply(y.data(), kSize, augmentSeed(5, 7, 11));
    EXPECT_EQ(x, y);
    std::set<uint64_t> seeds;
    for (int step = 1; step <= 20; ++step)
        for (size_t i = 0; i < 20; ++i) seeds.insert(augmentSeed(5, step, i));
    EXPECT_EQ(seeds.size(), 400u);
}

// The trainer builds each thread's share of a batch separately: augmenting by the example's
// place in the whole batch makes the split invisible.
TEST(Augment, ABatchIsAugmentedTheSameWhateverTheSplit) {
    const ModelConfig cfg = ModelConfig::fromJsonText(
        R"({"arch": "vit", "d_model": 8, "heads": 2, "d_ff": 16, "enc_layers": 1,
            "image_size": 6, "patch": 2, "classes": 2})");
    const Model m = Model::initializeImages(cfg, {"a", "b"}, 1);
    std::vector<Example> ex(6);
    for (size_t i = 0; i < ex.size(); ++i) {
        ex[i].pixels = numbered();
        ex[i].label = int(i % 2);
    }
    const ImageAugment a = ImageAugment::parse("flip+shift");
    const Batch whole = imageBatch(m, ex, 0, 6, a, 3, 8);
    Image halves = imageBatch(m, ex, 0, 2, a, 3, 8).pixels;
    const Image rest = imageBatch(m, ex, 2, 6, a, 3, 8).pixels;
    halves.insert(halves.end(), rest.begin(), rest.end());
    EXPECT_EQ(whole.pixels, halves);
    EXPECT_NE(whole.pixels, imageBatch(m, ex, 0, 6).pixels);  // augmented at all
}

TEST(Augment, TextModelsRefuseIt) {
    const ModelConfig cfg = ModelConfig::fromJsonText(
        R"({"arch": "seq2seq", "d_model": 8, "heads": 2, "d_ff": 16, "enc_layers": 1,
            "dec_layers": 1, "max_len": 8})");
    const Vocab v({"<pad>", "<unk>", "<bos>", "<eos>", "a"});
    Model m = Model::initialize(cfg, v, v, Tokenizer(true), 1);
    TrainOptions o;
    o.augment = "flip";
    const std::string e = test::errorOf([&] { Trainer t(m, o); });
    EXPECT_NE(e.find("image models"), std::string::npos) << e;
}
