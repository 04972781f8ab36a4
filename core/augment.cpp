// SPDX-License-Identifier: GPL-3.0-or-later
#include "augment.h"

#include <algorithm>
#include <vector>

#include "error.h"
#include "rng.h"

namespace attnviz {

const std::vector<std::string>& ImageAugment::names() {
    static const std::vector<std::string> n = [] {
        std::vector<std::string> all;
        for (bool shift : {false, true})
            for (bool flip : {false, true}) all.push_back(ImageAugment{flip, shift}.name());
        return all;
    }();
    return n;
}

ImageAugment ImageAugment::parse(const std::string& name) {
    for (bool shift : {false, true})
        for (bool flip : {false, true})
            if (ImageAugment a{flip, shift}; a.name() == name) return a;
    throw Error("--augment must be " + alternatives(names()) + " (got '" + name + "')");
}

std::string ImageAugment::name() const {
    if (flip && shift) return "flip+shift";
    if (flip) return "flip";
    if (shift) return "shift";
    return "none";
}

void ImageAugment::apply(uint8_t* pixels, int size, uint64_t seed) const {
    if (!any() || size <= 0) return;
    Rng rng(seed);
    const bool mirror = flip && rng.uniform() < 0.5;
    const int span = 2 * kMaxShift + 1;
    const int dx = shift ? int(rng.below(span)) - kMaxShift : 0;
    const int dy = shift ? int(rng.below(span)) - kMaxShift : 0;
    const size_t n = size_t(size);
    const std::vector<uint8_t> in(pixels, pixels + n * n);
    // out[y][x] = in[y − dy][x' − dx], x' = size − 1 − x when mirrored; 0 outside.
    for (int y = 0; y < size; ++y)
        for (int x = 0; x < size; ++x) {
            const int sy = y - dy, sx0 = x - dx;
            const int sx = mirror ? size - 1 - sx0 : sx0;
            const bool inside = sy >= 0 && sy < size && sx0 >= 0 && sx0 < size;
            pixels[size_t(y) * n + size_t(x)] = inside ? in[size_t(sy) * n + size_t(sx)] : 0;
        }
}

uint64_t augmentSeed(uint64_t runSeed, int step, size_t index) {
    Rng mix(runSeed * 0xD1B54A32D192ED03ULL ^ (uint64_t(step) << 20) ^ uint64_t(index));
    return mix.next();
}

}  // namespace attnviz
