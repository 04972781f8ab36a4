// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A person's photo of a garment made into the input of an image model by cutting the garment
// out of its background (issue 49), the default preparation of a photo: the steps of
// docs/training.md "A person's own photo". The segmentation is OpenCV's GrabCut (colour
// models of garment and background and the edges between them, not brightness alone); this
// header hides OpenCV, so its users see pixels only. Example:
//
//   ColorImage photo = render::readColorImageFile("coat.jpg");    // 400×533, on a rug
//   GarmentCutout c = cutOutGarment(photo, 28, InvertMode::Auto);
//   ImageAnalysis a = model.analyzeImage(c.model.pixels);          // c.found == true
//
// The steps, each kept for showing (the CLI's --save-steps, the app's previews):
//  1. the photo is area-averaged to at most kCutoutWorkSide pixels on its longer side (the
//     work copy; a 6000 × 4000 photo costs its decoding and this copy, not a GrabCut of 24
//     megapixels);
//  2. GrabCut (kCutoutIterations iterations, its random generator seeded with a constant, so
//     the same photo gives the same mask) starts from the work copy's outer band, a
//     kCutoutBorder-th of each side wide (at least 1 pixel), as background and everything
//     inside as probable garment;
//  3. the garment is the largest connected part of what GrabCut calls garment, its holes
//     filled (a print or a logo is garment too);
//  4. it is cropped to the mask's bounding box, made gray (BT.601) and inverted as
//     Fashion-MNIST's items are (auto: always, since they are negated product photos; yes;
//     no), its values stretched so that the darkest 1 % of the garment is kCutoutFloor and the
//     brightest 1 % 255, the background exactly 0;
//  5. the longer side is area-averaged to `size` and the result centred on a size × size
//     black image (Fashion-MNIST's items fill the frame: the longer side of 98 % of the test
//     images' bounding boxes is 27 or 28 pixels, measured in docs/results.md).
// When there is no garment to cut out — an image already size × size (a Fashion-MNIST image
// written to a file), a work copy shorter than kCutoutMinSide, a photo without contrast, or
// a mask of less than kCutoutMinArea of the photo or nearly all of it — the plain conversion
// (core/image_input.h) is used instead and `note` says why: never a crash, always an image.
#include <cstdint>
#include <string>
#include <vector>

#include "image_input.h"

namespace attnviz {

// The ITU-R BT.601 luma of `image`, g = round(0.299 R + 0.587 G + 0.114 B), as
// render/image_file.h decodes a file to gray: an opaque image gives the same pixels either
// way. Error when the buffer is not width × height × 3.
GrayImage grayImage(const ColorImage& image);

// How a person's photo is prepared: cut out (this file) or the plain conversion
// (core/image_input.h, docs/model-spec.md 3.11).
enum class PrepareMode { Cutout, Plain };
// "cutout" or "plain"; Error naming the value otherwise.
PrepareMode parsePrepareMode(const std::string& text);
const char* prepareModeName(PrepareMode mode);

constexpr int kCutoutWorkSide = 320;     // the work copy's longer side at most, pixels
constexpr int kCutoutIterations = 5;     // GrabCut's iterations, fixed
constexpr int kCutoutBorder = 20;        // the background band: a 20th of each side
constexpr int kCutoutMinSide = 16;       // a shorter work copy is not cut out
constexpr double kCutoutMinArea = 0.01;  // a mask smaller than 1 % of the photo: no garment
constexpr double kCutoutMaxArea = 0.98;  // nor one of (nearly) all of it
constexpr int kCutoutFloor = 64;         // the garment's darkest values, 0 … 255

// A rectangle [x0, x1) × [y0, y1) of the work copy.
struct PixelBox {
    int x0 = 0, y0 = 0, x1 = 0, y1 = 0;
};

struct GarmentCutout {
    ModelImage model;    // what the model sees (ModelImage::fitted: not size × size before)
    bool found = false;  // the garment was cut out; false: the plain conversion, see note
    std::string note;    // why there is no cut-out ("" when found)
    ColorImage work;     // step 1: the photo at most kCutoutWorkSide long (empty: not made)
    GrayImage mask;      // steps 2–3: [work], 255 garment, 0 background (empty: not found)
    PixelBox box;        // step 4: the mask's bounding box in the work copy
    GrayImage crop;      // step 4: the box, gray, inverted, levelled, background 0
    // A colour model's (cutOutColorGarment; empty otherwise): the box in colour with the
    // background kCutoutPad gray, and the [size, size, 3] input made of it.
    ColorImage colorCrop, colorModel;
};

// `photo` prepared for a model of `size` × `size` images as above. Error when the photo is
// empty or its buffer is not width × height × 3, or `size` < 1.
GarmentCutout cutOutGarment(const ColorImage& photo, int size, InvertMode invert);

// The background of a colour model's cut-out input: mid-gray, as far from a black garment as
// from a white one.
constexpr uint8_t kCutoutPad = 128;

// A colour model's `size` × `size` RGB input with the garment cut out of its background
// (resources/data/clothing-photos-cutout/README.md): steps 1–3 above, then the mask's box of
// the work copy in colour, every pixel of it outside the mask kCutoutPad gray, its longer side
// scaled to `size` and centred on kCutoutPad gray (prepareColorModelImage with that pad). When
// nothing is cut out, prepareColorModelImage of the photo itself, and `cut->note` says why.
// `cut` (may be null) receives the steps, colorCrop and colorModel included. Result
// [size, size, 3]; errors as cutOutGarment's.
std::vector<uint8_t> cutOutColorGarment(const ColorImage& photo, int size,
                                        GarmentCutout* cut = nullptr);

// What was done to the photo, as a model's source line says it: ", garment cut out" and
// ", inverted" when so; when nothing was cut out, ", trimmed and fitted; not cut out: " and
// the note (nothing for an image used as it is, already of the model's size).
std::string cutoutSummary(const GarmentCutout& cut);

// The steps side by side for a person to look at: the work copy with the background darkened
// and the garment's outline drawn | the crop | the model's image, each scaled to the work
// copy's height (the model's image with square pixels), on a gray canvas with a 4-pixel gap.
// When nothing was found: the work copy (or the photo's plain gray) | the model's image. A
// colour cut-out (cutOutColorGarment) shows its crop and the model's image in colour.
ColorImage cutoutStepsImage(const GarmentCutout& cut);

}  // namespace attnviz
