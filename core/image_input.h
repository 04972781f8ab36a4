// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A person's own image (a photo, a drawing) made into the input of an image model
// (docs/model-spec.md 3.11): the pixel arithmetic only, on a grayscale buffer that a decoder
// gives (render/image_file.h decodes PNG, JPEG, BMP, … with QtGui; the core never sees a file
// format). Example:
//
//   GrayImage photo = render::readImageFile("shoe.jpg");        // 600×400, dark on light
//   ModelImage in = prepareModelImage(photo, 28, InvertMode::Auto);
//   ImageAnalysis a = model.analyzeImage(in.pixels);             // in.inverted == true
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace attnviz {

// A grayscale image of any size: 0 (black) … 255 (white), row-major.
struct GrayImage {
    int width = 0, height = 0;
    std::vector<uint8_t> pixels;  // [height, width]
};

// A colour image of any size: [height, width, 3] RGB, 0 … 255, laid over white where it
// was transparent.
struct ColorImage {
    int width = 0, height = 0;
    std::vector<uint8_t> rgb;  // [height, width, 3]
};

// Whether to invert (v → 255 − v): Auto inverts when the image's border is light (its mean
// is 128 or more), since Fashion-MNIST's items are light on a dark background.
enum class InvertMode { Auto, Yes, No };
// "auto", "yes" or "no"; Error naming the value otherwise.
InvertMode parseInvertMode(const std::string& text);

// A person's own image file (render/image_file.h, docs/limits.md "Images"): the file as
// stored, and the pixels its header may declare (8192 × 8192), refused before decoding.
constexpr uint64_t kMaxImageFileBytes = 64ull << 20;
constexpr uint64_t kMaxImagePixels = 64ull << 20;

// Pixels whose difference from the background is larger than this are the object (trimming);
// the black point lies at most this far above the background.
constexpr int kImageObjectThreshold = 32;
// Trimming looks at the image area-averaged to at most this many times the model's size on
// its longer side (112 pixels for 28), so that noise and texture are not taken for an object.
constexpr int kImageDetectionScale = 4;

// What the model sees, and how it was made.
struct ModelImage {
    std::vector<uint8_t> pixels;  // [size, size], 0 … 255, light object on a black background
    bool inverted = false;
    bool fitted = false;    // trimmed, resampled and levelled (false: already size × size)
    double borderMean = 0;  // the original border's mean, 0 … 255 (what Auto decides on)
};

// The model's `size` × `size` input from `image` (docs/model-spec.md 3.11):
//  1. invert as `invert` says (Auto: when the mean of the outermost rows and columns ≥ 128);
//  2. an image already of size × size is then used as it is (a Fashion-MNIST image written
//     to a file reads back unchanged); any other size is
//  3. trimmed to the box of pixels differing from the background β (the border's mean after
//     step 1) by more than kImageObjectThreshold, found on a copy area-averaged to at most
//     kImageDetectionScale · size pixels on its longer side (the whole image when none does),
//  4. resampled by area averaging so that its longer side is `size`, keeping the aspect
//     ratio (the shorter side rounded, at least 1),
//  5. levelled: the black point κ = β + min(2σ, kImageObjectThreshold), σ the standard
//     deviation of that copy's border, → 0, the brightest resampled pixel → 255, linearly,
//     clamped (black when nothing is brighter than κ),
//  6. centred (offsets rounded down) on a size × size image of 0.
// Error when the image is empty, its buffer is not width × height, or `size` < 1.
ModelImage prepareModelImage(const GrayImage& image, int size, InvertMode invert);

// A colour model's `size` × `size` RGB input from a photo (docs/model-spec.md 3.12), made as
// the clothing photos were (resources/data/clothing-photos/README.md): nothing cut, trimmed,
// levelled or inverted;
//  1. the longer side scaled to `size` by exact area averaging (each output pixel the mean of
//     the input area it covers, weighted by the overlaps in whole numbers, rounded half up),
//     the shorter side round(shorter · size / longer), at least 1;
//  2. centred (offsets rounded down) on a size × size image of the photo's mean colour (each
//     channel's mean over the photo, rounded half up).
// Integer arithmetic only: the same photo gives the same bytes on every machine. An image of
// exactly size × size comes back unchanged. Result [size, size, 3]. Error when the image is
// empty, its buffer is not width × height × 3, or `size` < 1. `pad`, when given, is the colour
// of step 2 instead of the mean (a garment cut out of its background: the background's colour).
std::vector<uint8_t> prepareColorModelImage(const ColorImage& image, int size,
                                            const std::array<uint8_t, 3>* pad = nullptr);

}  // namespace attnviz
