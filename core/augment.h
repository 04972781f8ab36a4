// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace attnviz {

// Light augmentation of training images (`train --augment`, docs/training.md): what the
// bundled vision models are trained with. Never applied to held-out, validation or test
// images. "none", "flip" (mirror left-right with probability 1/2), "shift" (translate by
// dx, dy drawn uniformly from −maxShift(size) … maxShift(size) pixels) or "flip+shift" (both;
// the flip first). A grayscale image is filled with 0 where the shift uncovers it (the black
// background of Fashion-MNIST); a colour image with its nearest edge pixel (a photo's
// background goes on, as torchvision's padding_mode "edge" does). "crop" and "flip+crop":
// a random resized crop (as torchvision's RandomResizedCrop, for photos): a rectangle of
// kCropMinArea … 1 of the image's area and aspect ratio 3/4 … 4/3 (log-uniform), placed
// uniformly, resampled bilinearly to the whole image.
struct ImageAugment {
    bool flip = false;
    bool shift = false;
    bool crop = false;
    static constexpr double kCropMinArea = 0.35;
    static constexpr int kMaxShift = 2;
    // kMaxShift for Fashion-MNIST's 28 pixels; size / 16 for larger images (4 for 64).
    static int maxShift(int size) { return size / 16 > kMaxShift ? size / 16 : kMaxShift; }

    // Error naming the accepted values when `name` is none of them.
    static ImageAugment parse(const std::string& name);
    // The names parse() accepts: "none", "flip", "shift", "flip+shift", "crop", "flip+crop".
    static const std::vector<std::string>& names();
    std::string name() const;
    bool any() const { return flip || shift || crop; }

    // Augments one size × size image of `channels` values a pixel in place (row-major, a
    // pixel's values together, 0 … 255). The draws come from `seed` alone, so a training step
    // gives every example the same augmentation whatever the thread count (the trainer seeds
    // it from the run's seed, the step and the example's place in the batch).
    void apply(uint8_t* pixels, int size, int channels, uint64_t seed) const;
};

// The seed of example `index` of step `step` in a run seeded with `runSeed`.
uint64_t augmentSeed(uint64_t runSeed, int step, size_t index);

}  // namespace attnviz
