// SPDX-License-Identifier: GPL-3.0-or-later
#include "augment.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "error.h"
#include "rng.h"

namespace attnviz {

namespace {

// Every accepted combination, in the order names() lists them.
const ImageAugment kAll[] = {{false, false, false}, {true, false, false}, {false, true, false},
                             {true, true, false},   {false, false, true}, {true, false, true}};

// A random resized crop of the size × size image (K values a pixel) in place, mirrored
// after when `mirror`: area fraction a ~ U[kCropMinArea, 1], log aspect ~ U[log 3/4, log 4/3],
// w = min(size, round(size·sqrt(a·r))), h likewise with a / r, the corner uniform; output
// pixel (y, x) samples the crop at ((y + ½)·h / size − ½, (x + ½)·w / size − ½), bilinearly
// between the clamped neighbours, rounded half up.
void cropResized(uint8_t* pixels, int size, int channels, bool mirror, Rng& rng) {
    const double area =
        ImageAugment::kCropMinArea + (1 - ImageAugment::kCropMinArea) * rng.uniform();
    const double logR =
        std::log(3.0 / 4.0) + (std::log(4.0 / 3.0) - std::log(3.0 / 4.0)) * rng.uniform();
    const double r = std::exp(logR);
    const int w = std::clamp(int(std::lround(size * std::sqrt(area * r))), 1, size);
    const int h = std::clamp(int(std::lround(size * std::sqrt(area / r))), 1, size);
    const int x0 = int(rng.below(uint64_t(size - w + 1))),
              y0 = int(rng.below(uint64_t(size - h + 1)));
    const size_t n = size_t(size), k = size_t(channels);
    const std::vector<uint8_t> in(pixels, pixels + n * n * k);
    for (int y = 0; y < size; ++y) {
        const double sy = std::clamp((y + 0.5) * h / size - 0.5, 0.0, double(h - 1));
        const int ya = int(sy), yb = std::min(ya + 1, h - 1);
        const double fy = sy - ya;
        for (int x = 0; x < size; ++x) {
            const double sx = std::clamp((x + 0.5) * w / size - 0.5, 0.0, double(w - 1));
            const int xa = int(sx), xb = std::min(xa + 1, w - 1);
            const double fx = sx - xa;
            const int ox = mirror ? size - 1 - x : x;
            uint8_t* out = pixels + (size_t(y) * n + size_t(ox)) * k;
            auto at = [&](int yy, int xx, size_t c) {
                return double(in[(size_t(y0 + yy) * n + size_t(x0 + xx)) * k + c]);
            };
            for (size_t c = 0; c < k; ++c) {
                const double v = (1 - fy) * ((1 - fx) * at(ya, xa, c) + fx * at(ya, xb, c)) +
                                 fy * ((1 - fx) * at(yb, xa, c) + fx * at(yb, xb, c));
                out[c] = uint8_t(std::clamp(std::floor(v + 0.5), 0.0, 255.0));
            }
        }
    }
}

}  // namespace

const std::vector<std::string>& ImageAugment::names() {
    static const std::vector<std::string> n = [] {
        std::vector<std::string> all;
        for (const ImageAugment& a : kAll) all.push_back(a.name());
        return all;
    }();
    return n;
}

ImageAugment ImageAugment::parse(const std::string& name) {
    for (const ImageAugment& a : kAll)
        if (a.name() == name) return a;
    throw Error("--augment must be " + alternatives(names()) + " (got '" + name + "')");
}

std::string ImageAugment::name() const {
    const std::string what = shift ? "shift" : crop ? "crop" : "";
    if (flip) return what.empty() ? "flip" : "flip+" + what;
    return what.empty() ? "none" : what;
}

void ImageAugment::apply(uint8_t* pixels, int size, int channels, uint64_t seed) const {
    if (!any() || size <= 0 || channels <= 0) return;
    Rng rng(seed);
    const bool mirror = flip && rng.uniform() < 0.5;
    if (crop) return cropResized(pixels, size, channels, mirror, rng);
    const int m = maxShift(size), span = 2 * m + 1;
    const int dx = shift ? int(rng.below(uint64_t(span))) - m : 0;
    const int dy = shift ? int(rng.below(uint64_t(span))) - m : 0;
    const size_t n = size_t(size), k = size_t(channels);
    const std::vector<uint8_t> in(pixels, pixels + n * n * k);
    const bool edge = channels > 1;
    // out[y][x] = in[y − dy][x' − dx], x' = size − 1 − x when mirrored; outside: 0
    // (grayscale) or the nearest edge pixel (colour).
    for (int y = 0; y < size; ++y)
        for (int x = 0; x < size; ++x) {
            int sy = y - dy, sx0 = x - dx;
            const bool inside = sy >= 0 && sy < size && sx0 >= 0 && sx0 < size;
            uint8_t* out = pixels + (size_t(y) * n + size_t(x)) * k;
            if (!inside && !edge) {
                std::fill(out, out + k, uint8_t(0));
                continue;
            }
            sy = std::clamp(sy, 0, size - 1);
            sx0 = std::clamp(sx0, 0, size - 1);
            const int sx = mirror ? size - 1 - sx0 : sx0;
            const uint8_t* src = in.data() + (size_t(sy) * n + size_t(sx)) * k;
            std::copy(src, src + k, out);
        }
}

uint64_t augmentSeed(uint64_t runSeed, int step, size_t index) {
    Rng mix(runSeed * 0xD1B54A32D192ED03ULL ^ (uint64_t(step) << 20) ^ uint64_t(index));
    return mix.next();
}

}  // namespace attnviz
