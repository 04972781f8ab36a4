// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace attnviz {

// Light augmentation of training images (`train --augment`, docs/training.md): what the
// bundled vision models are trained with. Never applied to held-out, validation or test
// images. "none", "flip" (mirror left-right with probability 1/2), "shift" (translate by
// dx, dy drawn uniformly from −kMaxShift … kMaxShift pixels, filling with 0 = the black
// background of Fashion-MNIST) or "flip+shift" (both; the flip first).
struct ImageAugment {
    bool flip = false;
    bool shift = false;
    static constexpr int kMaxShift = 2;

    // Error naming the accepted values when `name` is none of them.
    static ImageAugment parse(const std::string& name);
    // The names parse() accepts: "none", "flip", "shift", "flip+shift".
    static const std::vector<std::string>& names();
    std::string name() const;
    bool any() const { return flip || shift; }

    // Augments one size × size image in place (row-major, 0 … 255). The draws come from
    // `seed` alone, so a training step gives every example the same augmentation whatever
    // the thread count (the trainer seeds it from the run's seed, the step and the
    // example's place in the batch).
    void apply(uint8_t* pixels, int size, uint64_t seed) const;
};

// The seed of example `index` of step `step` in a run seeded with `runSeed`.
uint64_t augmentSeed(uint64_t runSeed, int step, size_t index);

}  // namespace attnviz
