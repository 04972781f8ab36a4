// SPDX-License-Identifier: GPL-3.0-or-later
// The garment cut-out of a person's photo (core/garment_cutout.h): on synthetic photos of a
// coloured garment on a textured background — darker than the garment, lighter, and of the same
// brightness in another colour — the mask matches the known shape (IoU ≥ 0.9) and the model's
// image is the garment bright on exactly 0, filling the frame; Fashion-MNIST's own images pass
// unchanged; hostile images give the plain conversion with a reason, never a crash.
#include "core/garment_cutout.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "core/error.h"
#include "core/image_set.h"

using namespace attnviz;

namespace {

struct Rgb {
    int r, g, b;
};

// A T-shirt: a body and two sleeves, in a w × h photo.
bool tshirt(int x, int y, int w, int h) {
    const int cx = w / 2, top = h / 5, bottom = h - h / 6;
    const bool body = y >= top && y < bottom && std::abs(x - cx) < w / 6;
    const bool sleeves = y >= top && y < top + h / 5 && std::abs(x - cx) < w / 3;
    return body || sleeves;
}

// Deterministic noise in −n … n.
int noise(uint32_t& s, int n) {
    s = s * 1664525u + 1013904223u;
    return int((s >> 8) % uint32_t(2 * n + 1)) - n;
}

// The garment in `garment` (±6 of noise) on a background of 8-pixel checks of `a` and `b`
// (±12 of noise: a rug's texture).
ColorImage photo(int w, int h, Rgb garment, Rgb a, Rgb b) {
    ColorImage p{w, h, std::vector<uint8_t>(size_t(w) * size_t(h) * 3)};
    uint32_t s = 7;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const bool in = tshirt(x, y, w, h);
            const Rgb c = in ? garment : ((x / 8 + y / 8) % 2 ? a : b);
            const int n = in ? 6 : 12;
            uint8_t* px = &p.rgb[(size_t(y) * w + x) * 3];
            px[0] = uint8_t(std::clamp(c.r + noise(s, n), 0, 255));
            px[1] = uint8_t(std::clamp(c.g + noise(s, n), 0, 255));
            px[2] = uint8_t(std::clamp(c.b + noise(s, n), 0, 255));
        }
    return p;
}

double iou(const GrayImage& mask, int w, int h) {
    int both = 0, either = 0;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const bool m = mask.pixels[size_t(y) * w + x] != 0, t = tshirt(x, y, w, h);
            both += m && t;
            either += m || t;
        }
    return double(both) / double(either);
}

// The bounding box of the non-zero pixels of a size × size image.
struct Box {
    int x0 = 1 << 20, y0 = 1 << 20, x1 = -1, y1 = -1;
};
Box nonZero(const std::vector<uint8_t>& px, int size) {
    Box b;
    for (int y = 0; y < size; ++y)
        for (int x = 0; x < size; ++x)
            if (px[size_t(y) * size + x]) {
                b.x0 = std::min(b.x0, x), b.y0 = std::min(b.y0, y);
                b.x1 = std::max(b.x1, x), b.y1 = std::max(b.y1, y);
            }
    return b;
}

ColorImage fromGray(int w, int h, const uint8_t* g) {
    ColorImage c{w, h, std::vector<uint8_t>(size_t(w) * size_t(h) * 3)};
    for (size_t i = 0; i < size_t(w) * size_t(h); ++i)
        c.rgb[3 * i] = c.rgb[3 * i + 1] = c.rgb[3 * i + 2] = g[i];
    return c;
}

}  // namespace

struct CutoutCase {
    const char* name;
    Rgb garment, a, b;
};

class GarmentCutoutShapes : public ::testing::TestWithParam<CutoutCase> {};

TEST_P(GarmentCutoutShapes, MaskMatchesTheGarmentAndTheModelSeesItBrightOnBlack) {
    const CutoutCase& c = GetParam();
    const int w = 240, h = 200;  // below kCutoutWorkSide: the work copy is the photo
    const ColorImage p = photo(w, h, c.garment, c.a, c.b);
    const GarmentCutout cut = cutOutGarment(p, 28, InvertMode::Auto);
    ASSERT_TRUE(cut.found) << cut.note;
    ASSERT_EQ(cut.mask.width, w);
    ASSERT_EQ(cut.mask.height, h);
    EXPECT_GE(iou(cut.mask, w, h), 0.9);
    EXPECT_TRUE(cut.model.inverted);
    EXPECT_TRUE(cut.model.fitted);
    // Filling the frame as Fashion-MNIST's items do: the longer side 27 or 28 pixels, centred.
    const Box b = nonZero(cut.model.pixels, 28);
    const int bw = b.x1 - b.x0 + 1, bh = b.y1 - b.y0 + 1;
    EXPECT_GE(std::max(bw, bh), 27);
    EXPECT_LE(std::abs((b.x0 + b.x1) - 27), 2);
    EXPECT_LE(std::abs((b.y0 + b.y1) - 27), 2);
    // The corners beside the sleeves, under them, are background: exactly 0.
    EXPECT_EQ(cut.model.pixels[size_t(27 * 28 + 0)], 0);
    EXPECT_EQ(cut.model.pixels[size_t(27 * 28 + 27)], 0);
    // The garment's middle is bright.
    EXPECT_GE(cut.model.pixels[size_t(14 * 28 + 14)], 64);
    // The same photo, the same mask and image (GrabCut's k-means is seeded).
    const GarmentCutout again = cutOutGarment(p, 28, InvertMode::Auto);
    EXPECT_EQ(again.mask.pixels, cut.mask.pixels);
    EXPECT_EQ(again.model.pixels, cut.model.pixels);
    // The steps image: three panels on a canvas of the work copy's height and a 4-pixel frame.
    const ColorImage steps = cutoutStepsImage(cut);
    EXPECT_EQ(steps.height, h + 8);
    EXPECT_GT(steps.width, w + h);
}

INSTANTIATE_TEST_SUITE_P(
    Backgrounds, GarmentCutoutShapes,
    ::testing::Values(
        // A light red shirt on a dark brown rug: the background darker than the garment.
        CutoutCase{"LighterGarment", {225, 110, 100}, {70, 50, 35}, {95, 70, 50}},
        // A navy shirt on a beige blanket: the background lighter.
        CutoutCase{"DarkerGarment", {30, 40, 90}, {215, 200, 170}, {190, 175, 150}},
        // A green shirt on a magenta-grey check of the same brightness (luma ≈ 120): only
        // colour tells them apart.
        CutoutCase{"SameBrightness", {60, 160, 60}, {170, 90, 150}, {150, 100, 140}}),
    [](const ::testing::TestParamInfo<CutoutCase>& i) { return std::string(i.param.name); });

// A large photo is cut out on its work copy: the mask is the work copy's, the same shape.
TEST(GarmentCutout, ALargePhotoIsCutOutOnAWorkCopy) {
    const int w = 1200, h = 1000;
    const ColorImage p = photo(w, h, {30, 40, 90}, {215, 200, 170}, {190, 175, 150});
    const GarmentCutout cut = cutOutGarment(p, 28, InvertMode::Auto);
    ASSERT_TRUE(cut.found) << cut.note;
    EXPECT_EQ(cut.work.width, kCutoutWorkSide);
    EXPECT_EQ(cut.work.height, 267);  // 1000 · 320 / 1200, rounded
    EXPECT_GE(iou(cut.mask, cut.work.width, cut.work.height), 0.9);
}

// --invert no keeps the garment's own gray; yes and auto negate it, as Fashion-MNIST does.
TEST(GarmentCutout, TheSwitchDecidesTheGarmentsGray) {
    const ColorImage p = photo(240, 200, {30, 40, 90}, {215, 200, 170}, {190, 175, 150});
    const GarmentCutout no = cutOutGarment(p, 28, InvertMode::No);
    const GarmentCutout yes = cutOutGarment(p, 28, InvertMode::Yes);
    ASSERT_TRUE(no.found && yes.found);
    EXPECT_FALSE(no.model.inverted);
    EXPECT_TRUE(yes.model.inverted);
    EXPECT_EQ(no.mask.pixels, yes.mask.pixels);
}

// Fashion-MNIST's own images (28 × 28) pass through the default path unchanged, every one of
// the test split: they are used as they are, as the plain conversion uses them.
TEST(GarmentCutout, FashionMnistImagesAreUnchanged) {
    const std::string dir = fashionMnistDir();
    if (!std::filesystem::exists(dir + "/t10k-images-idx3-ubyte.gz") &&
        !std::filesystem::exists(dir + "/t10k-images-idx3-ubyte"))
        GTEST_SKIP() << "no Fashion-MNIST in " << dir;
    const ImageSet set = loadFashionMnist(dir, "test");
    for (size_t i = 0; i < set.size(); ++i) {
        const uint8_t* px = set.image(i);
        const GarmentCutout cut = cutOutGarment(fromGray(28, 28, px), 28, InvertMode::Auto);
        ASSERT_FALSE(cut.found) << i;
        ASSERT_FALSE(cut.model.inverted) << i;
        ASSERT_EQ(cut.model.pixels, std::vector<uint8_t>(px, px + 784)) << "test image " << i;
    }
}

// Hostile images: the plain conversion with a reason, never a crash; broken buffers refused.
TEST(GarmentCutout, HostileImagesGiveThePlainConversionWithAReason) {
    struct Case {
        ColorImage image;
        const char* says;
    };
    ColorImage noisy{16, 15, std::vector<uint8_t>(16 * 15 * 3)};
    uint32_t s = 3;
    for (uint8_t& v : noisy.rgb) v = uint8_t(128 + noise(s, 100));
    const Case cases[] = {
        {{1, 1, {10, 200, 30}}, "too small to cut out (1×1 pixels"},
        {{2, 2, std::vector<uint8_t>(12, 90)}, "too small to cut out (2×2 pixels"},
        {{300, 5, std::vector<uint8_t>(4500, 90)}, "too small to cut out (300×5 pixels"},
        {noisy, "too small to cut out (16×15 pixels"},
        {{200, 150, std::vector<uint8_t>(200 * 150 * 3, 128)}, "no contrast"},
        {{28, 28, std::vector<uint8_t>(28 * 28 * 3, 200)}, "already 28×28 pixels"},
    };
    for (const Case& c : cases) {
        const GarmentCutout cut = cutOutGarment(c.image, 28, InvertMode::Auto);
        EXPECT_FALSE(cut.found);
        EXPECT_NE(cut.note.find(c.says), std::string::npos) << cut.note;
        EXPECT_EQ(cut.model.pixels.size(), 784u);
        EXPECT_EQ(cut.model.pixels,
                  prepareModelImage(grayImage(c.image), 28, InvertMode::Auto).pixels);
        const ColorImage steps = cutoutStepsImage(cut);  // shown as well, without a crash
        EXPECT_GT(steps.width, 0);
    }
    // Random noise everywhere (no garment, no background): whatever GrabCut finds, an image.
    ColorImage static_{120, 100, std::vector<uint8_t>(120 * 100 * 3)};
    for (uint8_t& v : static_.rgb) v = uint8_t(128 + noise(s, 127));
    EXPECT_EQ(cutOutGarment(static_, 28, InvertMode::Auto).model.pixels.size(), 784u);

    EXPECT_THROW(cutOutGarment({0, 0, {}}, 28, InvertMode::Auto), Error);
    EXPECT_THROW(cutOutGarment({2, 2, std::vector<uint8_t>(11)}, 28, InvertMode::Auto), Error);
    EXPECT_THROW(cutOutGarment({2, 2, std::vector<uint8_t>(12)}, 0, InvertMode::Auto), Error);
    EXPECT_THROW(parsePrepareMode("grabcut"), Error);
    EXPECT_EQ(parsePrepareMode("plain"), PrepareMode::Plain);
    EXPECT_EQ(parsePrepareMode("cutout"), PrepareMode::Cutout);
}

// The gray of a colour image is render/image_file.h's: BT.601, rounded; gray stays gray.
TEST(GarmentCutout, GrayIsBt601) {
    const ColorImage c{3, 1, {255, 0, 0, 0, 255, 0, 77, 77, 77}};
    EXPECT_EQ(grayImage(c).pixels, std::vector<uint8_t>({76, 150, 77}));
}

// A colour model's cut-out input (the cut-out clothing photos): the garment's own colour in
// the middle, mid-gray where the rug was, the garment filling the longer side; a photo with
// nothing to cut out is the plain colour input, background and all.
TEST(GarmentCutout, AColourCutOutKeepsTheGarmentsColourOnGray) {
    const ColorImage p = photo(240, 200, {30, 40, 160}, {215, 200, 170}, {190, 175, 150});
    GarmentCutout cut;
    const std::vector<uint8_t> im = cutOutColorGarment(p, 64, &cut);
    ASSERT_TRUE(cut.found) << cut.note;
    ASSERT_EQ(im.size(), size_t(64 * 64 * 3));
    auto at = [&](int x, int y) { return &im[(size_t(y) * 64 + size_t(x)) * 3]; };
    for (const auto& [x, y] : {std::pair{0, 0}, {63, 0}, {0, 63}, {63, 63}})
        for (int k = 0; k < 3; ++k) EXPECT_EQ(at(x, y)[k], kCutoutPad) << x << "," << y;
    // The body's centre: the garment's blue (±6 of noise, averaged).
    const uint8_t* mid = at(32, 40);
    EXPECT_NEAR(mid[0], 30, 8);
    EXPECT_NEAR(mid[1], 40, 8);
    EXPECT_NEAR(mid[2], 160, 8);
    // Wider than tall (the sleeves): the width fills the 64 pixels; nothing of the rug's beige
    // is left (a pixel is the garment's blue, the gray or a mix of the two at the edge).
    int garmentColumns = 0, beige = 0;
    for (int x = 0; x < 64; ++x) garmentColumns += at(x, 20)[2] > 140;
    for (size_t i = 0; i < im.size(); i += 3) beige += im[i] > 170 && im[i + 1] > 160;
    EXPECT_GE(garmentColumns, 58);
    EXPECT_EQ(beige, 0);
    // Without the steps asked for: the same pixels.
    EXPECT_EQ(cutOutColorGarment(p, 64), im);
    // The steps keep the colour: the crop is the box in colour (its corners outside the
    // garment gray), the model's image the result; the steps image shows both in colour.
    EXPECT_EQ(cut.colorModel.rgb, im);
    EXPECT_EQ(cut.colorModel.width, 64);
    EXPECT_EQ(cut.colorCrop.width, cut.box.x1 - cut.box.x0);
    EXPECT_EQ(cut.colorCrop.height, cut.box.y1 - cut.box.y0);
    const ColorImage steps = cutoutStepsImage(cut);
    int blue = 0;
    for (size_t i = 0; i < steps.rgb.size(); i += 3)
        blue += steps.rgb[i + 2] > 120 && steps.rgb[i] < 70 && steps.rgb[i + 1] < 80;
    EXPECT_GT(blue, int(steps.rgb.size() / 3 / 10)) << "the crop and the model's image in colour";
    GarmentCutout grayCut = cutOutGarment(p, 64, InvertMode::No);
    const ColorImage graySteps = cutoutStepsImage(grayCut);
    int grayBlue = 0;
    for (size_t i = 0; i < graySteps.rgb.size(); i += 3)
        grayBlue += graySteps.rgb[i + 2] > 120 && graySteps.rgb[i] < 70;
    EXPECT_LT(grayBlue, blue) << "a gray model's steps show its crop in gray";

    ColorImage flat{120, 100, std::vector<uint8_t>(120 * 100 * 3, 90)};
    GarmentCutout none;
    EXPECT_EQ(cutOutColorGarment(flat, 64, &none), prepareColorModelImage(flat, 64));
    EXPECT_EQ(none.colorModel.rgb, prepareColorModelImage(flat, 64));
    EXPECT_FALSE(none.found);
    EXPECT_FALSE(none.note.empty());
}
