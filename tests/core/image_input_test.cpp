// SPDX-License-Identifier: GPL-3.0-or-later
// A person's image made into a model's input (core/image_input.h): inversion, trimming,
// aspect-keeping fit, levels and centring, on hand-made images with hand-computed pixels.
#include "core/image_input.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "test_util.h"

using namespace attnviz;

namespace {

GrayImage filled(int w, int h, uint8_t v) {
    return {w, h, std::vector<uint8_t>(size_t(w) * size_t(h), v)};
}

void paint(GrayImage& im, int x0, int y0, int w, int h, uint8_t v) {
    for (int y = y0; y < y0 + h; ++y)
        for (int x = x0; x < x0 + w; ++x) im.pixels[size_t(y) * im.width + x] = v;
}

// Rows of a size × size result, for readable failures.
std::vector<std::vector<int>> rows(const ModelImage& m, int size) {
    std::vector<std::vector<int>> r(static_cast<size_t>(size));
    for (int y = 0; y < size; ++y)
        for (int x = 0; x < size; ++x) r[size_t(y)].push_back(m.pixels[size_t(y * size + x)]);
    return r;
}

}  // namespace

TEST(ImageInput, ModelSizedImagePassesThroughUnchanged) {
    GrayImage im{3, 3, {0, 10, 0, 20, 255, 30, 0, 40, 0}};
    const ModelImage m = prepareModelImage(im, 3, InvertMode::Auto);
    EXPECT_EQ(m.pixels, im.pixels);
    EXPECT_FALSE(m.inverted);
    EXPECT_FALSE(m.fitted);
    EXPECT_DOUBLE_EQ(m.borderMean, 100.0 / 8);  // 8 border pixels, the centre excluded
}

TEST(ImageInput, AutoInvertsALightBorderOnly) {
    GrayImage light{3, 3, {200, 200, 200, 200, 0, 200, 200, 200, 128}};
    ModelImage m = prepareModelImage(light, 3, InvertMode::Auto);
    EXPECT_TRUE(m.inverted);
    EXPECT_EQ(m.pixels, std::vector<uint8_t>({55, 55, 55, 55, 255, 55, 55, 55, 127}));
    EXPECT_FALSE(prepareModelImage(light, 3, InvertMode::No).inverted);
    EXPECT_EQ(prepareModelImage(light, 3, InvertMode::No).pixels, light.pixels);
    // A border of mean exactly 128 counts as light, one of 127.5 as dark.
    EXPECT_TRUE(prepareModelImage(filled(2, 2, 128), 2, InvertMode::Auto).inverted);
    GrayImage half{2, 1, {127, 128}};
    EXPECT_FALSE(prepareModelImage(half, 2, InvertMode::Auto).inverted);
    // Forced on a dark border.
    m = prepareModelImage(filled(2, 2, 0), 2, InvertMode::Yes);
    EXPECT_TRUE(m.inverted);
    EXPECT_EQ(m.pixels, std::vector<uint8_t>(4, 255));
}

TEST(ImageInput, TrimsFitsLevelsAndCentresExactly) {
    // An 8×6 black image with a 4×2 object at (2, 2); into 4×4: no scaling (the longer side
    // is already 4), levels v · 255 / 240 rounded, centred one row down.
    GrayImage im = filled(8, 6, 0);
    const uint8_t obj[2][4] = {{60, 120, 180, 240}, {240, 180, 120, 60}};
    for (int y = 0; y < 2; ++y)
        for (int x = 0; x < 4; ++x) im.pixels[size_t((2 + y) * 8 + 2 + x)] = obj[y][x];
    const ModelImage m = prepareModelImage(im, 4, InvertMode::Auto);
    EXPECT_FALSE(m.inverted);
    EXPECT_TRUE(m.fitted);
    EXPECT_EQ(rows(m, 4),
              (std::vector<std::vector<int>>{
                  {0, 0, 0, 0}, {64, 128, 191, 255}, {255, 191, 128, 64}, {0, 0, 0, 0}}));
}

TEST(ImageInput, AreaAveragesWhenShrinking) {
    // A 4×2 object in a black frame into 2×1: each output pixel the mean of a 2×2 block,
    // (40+80+200+240)/4 = 140 and (120+160+40+80)/4 = 100; levels v · 255 / 140: 255 and
    // 182.14 → 182.
    GrayImage framed = filled(8, 6, 0);
    const uint8_t obj[8] = {40, 80, 120, 160, 200, 240, 40, 80};
    for (int y = 0; y < 2; ++y)
        for (int x = 0; x < 4; ++x) framed.pixels[size_t((2 + y) * 8 + 2 + x)] = obj[y * 4 + x];
    EXPECT_EQ(rows(prepareModelImage(framed, 2, InvertMode::No), 2),
              (std::vector<std::vector<int>>{{255, 182}, {0, 0}}));
}

TEST(ImageInput, NoiseIsNotAnObject) {
    // Isolated specks 40 levels off a light background would each stretch the box to the
    // whole image; on the smoothed copy (112 × 56) they are ~13 levels off and the box is
    // the dark bar's (100 × 20, a row of background either side): it spans all 28 columns.
    GrayImage im = filled(200, 100, 220);
    for (size_t i = 0; i < im.pixels.size(); i += 97) im.pixels[i] = 180;
    paint(im, 50, 40, 100, 20, 30);
    const ModelImage m = prepareModelImage(im, 28, InvertMode::Auto);
    EXPECT_TRUE(m.inverted);
    int top = 28, bottom = -1;
    for (int y = 0; y < 28; ++y)
        for (int x = 0; x < 28; ++x)
            if (m.pixels[size_t(y * 28 + x)] > 0)
                top = std::min(top, y), bottom = std::max(bottom, y);
    EXPECT_LE(bottom - top + 1, 8);
    EXPECT_GT(m.pixels[size_t(14 * 28 + 0)], 200);
    EXPECT_GT(m.pixels[size_t(14 * 28 + 27)], 200);
}

TEST(ImageInput, AnUnevenBackgroundBecomesBlack) {
    // A background shading from 190 (top) to 230 (bottom), two dark bars: between the bars
    // the inverted background is up to 12 levels above its mean, which the black point
    // (mean + min(2σ of the border, 32)) takes to 0.
    GrayImage im = filled(100, 100, 0);
    for (int y = 0; y < 100; ++y) paint(im, 0, y, 100, 1, uint8_t(190 + 40 * y / 99));
    paint(im, 20, 20, 10, 60, 40);
    paint(im, 70, 20, 10, 60, 40);
    const ModelImage m = prepareModelImage(im, 28, InvertMode::Auto);
    for (int y = 0; y < 28; ++y)
        for (int x = 7; x <= 20; ++x) EXPECT_EQ(m.pixels[size_t(y * 28 + x)], 0) << x << "," << y;
    EXPECT_EQ(m.pixels[size_t(14 * 28 + 1)], 255);
    EXPECT_EQ(m.pixels[size_t(14 * 28 + 26)], 255);
}

TEST(ImageInput, KeepsTheAspectRatioAndCentres) {
    // A dark 30×10 bar on a light 60×20 photo: inverted, trimmed to the bar, fitted to 28×9
    // (28 · 10 / 30 = 9.33 → 9), centred at rows 9 … 17.
    GrayImage wide = filled(60, 20, 230);
    paint(wide, 15, 5, 30, 10, 20);
    ModelImage m = prepareModelImage(wide, 28, InvertMode::Auto);
    EXPECT_TRUE(m.inverted);
    for (int y = 0; y < 28; ++y)
        for (int x = 0; x < 28; ++x)
            EXPECT_EQ(m.pixels[size_t(y * 28 + x)], y >= 9 && y < 18 ? 255 : 0) << x << "," << y;
    // The same bar standing: columns 9 … 17.
    GrayImage tall = filled(20, 60, 230);
    paint(tall, 5, 15, 10, 30, 20);
    m = prepareModelImage(tall, 28, InvertMode::Auto);
    for (int y = 0; y < 28; ++y)
        for (int x = 0; x < 28; ++x)
            EXPECT_EQ(m.pixels[size_t(y * 28 + x)], x >= 9 && x < 18 ? 255 : 0) << x << "," << y;
}

TEST(ImageInput, EnlargesASmallObject) {
    GrayImage im = filled(5, 3, 0);
    im.pixels[7] = 200;  // (2, 1)
    const ModelImage m = prepareModelImage(im, 4, InvertMode::Auto);
    EXPECT_EQ(m.pixels, std::vector<uint8_t>(16, 255));
}

TEST(ImageInput, TheSwitchDecidesWhatIsTheObject) {
    // A white square on a light grey background: auto inverts (the square becomes darker than
    // the background: nothing left), "no" keeps the square as the object.
    GrayImage im = filled(10, 10, 150);
    paint(im, 3, 3, 4, 4, 255);
    ModelImage m = prepareModelImage(im, 28, InvertMode::Auto);
    EXPECT_TRUE(m.inverted);
    EXPECT_EQ(m.pixels, std::vector<uint8_t>(784, 0));
    m = prepareModelImage(im, 28, InvertMode::No);
    EXPECT_FALSE(m.inverted);
    EXPECT_EQ(m.pixels, std::vector<uint8_t>(784, 255));
}

TEST(ImageInput, UniformAndDegenerateImages) {
    // No object: the whole image, all background: black.
    EXPECT_EQ(prepareModelImage(filled(40, 30, 255), 28, InvertMode::Auto).pixels,
              std::vector<uint8_t>(784, 0));
    EXPECT_EQ(prepareModelImage(filled(1, 1, 7), 28, InvertMode::Auto).pixels,
              std::vector<uint8_t>(784, 0));
    // A one-pixel-high line: one row (28 · 1 / 100 rounds to 0), centred at row 13.
    GrayImage line = filled(100, 3, 0);
    paint(line, 0, 1, 100, 1, 255);
    const ModelImage m = prepareModelImage(line, 28, InvertMode::Auto);
    for (int y = 0; y < 28; ++y)
        for (int x = 0; x < 28; ++x)
            EXPECT_EQ(m.pixels[size_t(y * 28 + x)], y == 13 ? 255 : 0) << x << "," << y;
}

TEST(ImageInput, AnExtremeShapeIsAColumn) {
    // 1 × 300,000 pixels: one column of 28 (28 / 300,000 rounds to 0), centred at column 13,
    // bright over its lower half.
    GrayImage im = filled(1, 300000, 0);
    paint(im, 0, 150000, 1, 150000, 255);
    im.pixels.back() = 0;  // a dark border pixel at each end
    const ModelImage m = prepareModelImage(im, 28, InvertMode::No);
    for (int y = 0; y < 28; ++y)
        for (int x = 0; x < 28; ++x)
            EXPECT_EQ(m.pixels[size_t(y * 28 + x)], x == 13 && y >= 14 ? 255 : 0) << x << "," << y;
}

TEST(ImageInput, RefusesBadBuffers) {
    EXPECT_NE(test::errorOf([] {
                  prepareModelImage({0, 5, {}}, 28, InvertMode::Auto);
              }).find("empty (0×5 pixels)"),
              std::string::npos);
    EXPECT_NE(test::errorOf([] {
                  prepareModelImage({2, 2, {1, 2, 3}}, 28, InvertMode::Auto);
              }).find("3 pixels, not 2×2"),
              std::string::npos);
    EXPECT_NE(test::errorOf([] { parseInvertMode("maybe"); }).find("auto, yes or no"),
              std::string::npos);
    EXPECT_EQ(parseInvertMode("yes"), InvertMode::Yes);
}

// A colour model's photo (docs/model-spec.md 3.12): area-averaged in whole numbers, rounded
// half up, centred on the photo's mean colour; hand-computed.
TEST(ColorModelImage, FitsByExactAreaAndPadsWithTheMeanColour) {
    // 4 × 2 → 2 × 1: each output pixel the mean of a 2 × 2 block; the second row is padding.
    ColorImage photo{4, 2, {}};
    const int red[8] = {10, 20, 30, 40, 50, 60, 70, 82};
    for (int r : red) photo.rgb.insert(photo.rgb.end(), {uint8_t(r), 0, 255});
    const std::vector<uint8_t> out = prepareColorModelImage(photo, 2);
    // (10+20+50+60)/4 = 35; (30+40+70+82)/4 = 55.5 → 56; mean red 362/8 = 45.25 → 45.
    EXPECT_EQ(out, (std::vector<uint8_t>{35, 0, 255, 56, 0, 255, 45, 0, 255, 45, 0, 255}));
    // 3 × 1 → 2 × 1 (round(2/3) = 1 row): overlaps of 2 and 1 thirds.
    ColorImage strip{3, 1, {0, 3, 6, 30, 3, 6, 90, 3, 6}};
    const std::vector<uint8_t> s = prepareColorModelImage(strip, 2);
    // (2·0 + 30)/3 = 10, (30 + 2·90)/3 = 70; mean 40; the other channels constant.
    EXPECT_EQ(s, (std::vector<uint8_t>{10, 3, 6, 70, 3, 6, 40, 3, 6, 40, 3, 6}));
    // An image of the model's size is used as it is.
    ColorImage same{2, 2, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}};
    EXPECT_EQ(prepareColorModelImage(same, 2), same.rgb);
    // A portrait photo keeps its aspect ratio: 48 × 64 of 64 × 64, bands of 8 on each side.
    ColorImage portrait{120, 160, std::vector<uint8_t>(120 * 160 * 3, 200)};
    for (size_t i = 0; i < portrait.rgb.size(); i += 3) portrait.rgb[i] = 0;
    const std::vector<uint8_t> p = prepareColorModelImage(portrait, 64);
    EXPECT_EQ(p.size(), 64u * 64u * 3u);
    EXPECT_EQ(p[(10 * 64 + 7) * 3], 0);  // the band: the mean colour (red 0)
    EXPECT_EQ(p[(10 * 64 + 8) * 3], 0);  // the photo: red 0
    EXPECT_EQ(p[(10 * 64 + 8) * 3 + 1], 200);
    EXPECT_FALSE(test::errorOf([] { prepareColorModelImage({2, 2, {1, 2, 3}}, 4); }).empty());
    EXPECT_FALSE(test::errorOf([] { prepareColorModelImage({0, 0, {}}, 4); }).empty());
    EXPECT_FALSE(test::errorOf([&] { prepareColorModelImage(same, 0); }).empty());
}
