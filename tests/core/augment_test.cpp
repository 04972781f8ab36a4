// SPDX-License-Identifier: GPL-3.0-or-later
// Training-image augmentation (core/augment.h): each draw is one of the transformations the
// option names, every one of them occurs, the draws depend on the seed alone, and a batch
// is augmented the same whatever the thread split.
#include "core/augment.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
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
        a.apply(im.data(), kSize, 1, augmentSeed(9, s, 3));
        seen.insert(whichTransform(numbered(), im));
    }
    return seen;
}

}  // namespace

TEST(Augment, NamesRoundTripAndBadNamesAreRefused) {
    for (const char* n : {"none", "flip", "shift", "flip+shift", "crop", "flip+crop"})
        EXPECT_EQ(ImageAugment::parse(n).name(), n);
    const std::string e = test::errorOf([] { ImageAugment::parse("rotate"); });
    EXPECT_NE(e.find("none, flip, shift, flip+shift, crop or flip+crop"), std::string::npos) << e;
    EXPECT_NE(e.find("rotate"), std::string::npos) << e;
    TrainOptions o;
    o.augment = "shift+flip";
    EXPECT_FALSE(test::errorOf([&] { o.validate(); }).empty());
}

TEST(Augment, NoneLeavesTheImageAlone) {
    Image im = numbered();
    ImageAugment{}.apply(im.data(), kSize, 1, 1234);
    EXPECT_EQ(im, numbered());
}

// Flip alone: the image or its mirror, each about half the time.
TEST(Augment, FlipMirrorsAboutHalfTheImages) {
    const ImageAugment a = ImageAugment::parse("flip");
    int mirrored = 0;
    for (int s = 0; s < 2000; ++s) {
        Image im = numbered();
        a.apply(im.data(), kSize, 1, augmentSeed(1, s, 0));
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
        a.apply(im.data(), kSize, 1, uint64_t(s));
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
    a.apply(x.data(), kSize, 1, augmentSeed(5, 7, 11));
    a.apply(y.data(), kSize, 1, augmentSeed(5, 7, 11));
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

// Colour (issue 49): a pixel's three values move together, uncovered pixels take the nearest
// edge pixel's colour (not black: a photo's background goes on), and a 64-pixel image shifts
// by up to 4 pixels, every one of the 81 translations occurring. The expected image is
// computed here the obvious way, one channel at a time.
TEST(Augment, AColourImageShiftsItsPixelsWholeAndFillsFromTheEdge) {
    constexpr int n = 64, k = 3, m = 4;
    EXPECT_EQ(ImageAugment::maxShift(n), m);
    EXPECT_EQ(ImageAugment::maxShift(28), ImageAugment::kMaxShift);
    Image in(size_t(n) * n * k);
    for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x)
            for (int c = 0; c < k; ++c)
                in[size_t((y * n + x) * k + c)] = uint8_t(c == 0 ? 3 * y : c == 1 ? 3 * x : 7 + c);
    auto expected = [&](bool mirror, int dx, int dy) {
        Image out(in.size());
        for (int y = 0; y < n; ++y)
            for (int x = 0; x < n; ++x) {
                const int sy = std::clamp(y - dy, 0, n - 1);
                int sx = std::clamp(x - dx, 0, n - 1);
                if (mirror) sx = n - 1 - sx;
                for (int c = 0; c < k; ++c)
                    out[size_t((y * n + x) * k + c)] = in[size_t((sy * n + sx) * k + c)];
            }
        return out;
    };
    const ImageAugment a = ImageAugment::parse("flip+shift");
    std::map<int, Image> all;  // every transformation's image, made once
    for (int f = 0; f < 2; ++f)
        for (int dx = -m; dx <= m; ++dx)
            for (int dy = -m; dy <= m; ++dy)
                all[f * 100 + (dx + m) * 10 + (dy + m)] = expected(f == 1, dx, dy);
    std::set<int> seen;
    for (int s = 0; s < 4000; ++s) {
        Image im = in;
        a.apply(im.data(), n, k, augmentSeed(3, s, 1));
        int found = -1;
        for (const auto& [key, image] : all)
            if (image == im) {
                found = key;
                break;
            }
        ASSERT_GE(found, 0) << "seed " << s;
        seen.insert(found);
    }
    EXPECT_EQ(seen.size(), 162u);  // 2 × 9 × 9
}

// The random resized crop (for photos): a constant image stays constant, values stay within
// the input's range, a left-to-right ramp stays monotonic in every row (increasing, or
// decreasing when mirrored, both occurring), the draws depend on the seed alone, and the crop
// varies: a zoom shows fewer distinct columns of the ramp than the image has.
TEST(Augment, TheResizedCropZoomsIntoTheImageWithoutNewValues) {
    constexpr int n = 32, k = 3;
    const ImageAugment a = ImageAugment::parse("flip+crop");
    Image flat(size_t(n) * n * k, 77);
    Image f = flat;
    a.apply(f.data(), n, k, 5);
    EXPECT_EQ(f, flat);
    Image ramp(size_t(n) * n * k);
    for (int y = 0; y < n; ++y)
        for (int x = 0; x < n; ++x)
            for (int c = 0; c < k; ++c) ramp[size_t((y * n + x) * k + c)] = uint8_t(8 * x + c);
    int increasing = 0, decreasing = 0, zoomed = 0;
    for (int s = 0; s < 300; ++s) {
        Image im = ramp, again = ramp;
        a.apply(im.data(), n, k, augmentSeed(2, s, 0));
        a.apply(again.data(), n, k, augmentSeed(2, s, 0));
        ASSERT_EQ(im, again);
        const int first = im[0], last = im[size_t((n - 1) * k)];
        for (int y = 0; y < n; ++y)
            for (int x = 1; x < n; ++x) {
                const int d = im[size_t((y * n + x) * k)] - im[size_t((y * n + x - 1) * k)];
                ASSERT_TRUE(first <= last ? d >= 0 : d <= 0) << "seed " << s;
            }
        for (size_t i = 0; i < im.size(); i += k)  // a pixel's values move together
            ASSERT_TRUE(im[i + 1] == im[i] + 1 && im[i + 2] == im[i] + 2) << "seed " << s;
        increasing += first < last;
        decreasing += first > last;
        zoomed += std::abs(last - first) < 8 * (n - 1) - 16;
    }
    EXPECT_GT(increasing, 100);
    EXPECT_GT(decreasing, 100);
    EXPECT_GT(zoomed, 200);
}
