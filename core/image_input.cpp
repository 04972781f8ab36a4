// SPDX-License-Identifier: GPL-3.0-or-later
#include "image_input.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

#include "error.h"
#include "input_limits.h"

namespace attnviz {
namespace {

// Mean and standard deviation of the outermost rows and columns, each pixel counted once.
struct Border {
    double mean = 0, sd = 0;
};
template <class T>
Border border(const T* px, int width, int height) {
    double sum = 0, sq = 0;
    size_t n = 0;
    for (int y = 0; y < height; ++y) {
        const bool edgeRow = y == 0 || y == height - 1;
        for (int x = 0; x < width; x += edgeRow || width == 1 ? 1 : width - 1) {
            const double v = double(px[size_t(y) * width + x]);
            sum += v;
            sq += v * v;
            ++n;
        }
    }
    const double mean = sum / double(n);
    return {mean, std::sqrt(std::max(0.0, sq / double(n) - mean * mean))};
}

struct Box {
    int x0, y0, x1, y1;  // [x0, x1) × [y0, y1)
};

// The box of the pixels of `det` [dh, dw] farther than kImageObjectThreshold from `bg`; the
// whole image if none.
Box objectBox(const std::vector<double>& det, int dw, int dh, double bg) {
    Box b{dw, dh, 0, 0};
    for (int y = 0; y < dh; ++y)
        for (int x = 0; x < dw; ++x)
            if (std::abs(det[size_t(y) * dw + x] - bg) > kImageObjectThreshold) {
                b.x0 = std::min(b.x0, x);
                b.y0 = std::min(b.y0, y);
                b.x1 = std::max(b.x1, x + 1);
                b.y1 = std::max(b.y1, y + 1);
            }
    if (b.x0 >= b.x1) return {0, 0, dw, dh};
    return b;
}

// Area averaging from `src` samples to `dst`: output j covers [j, j + 1) · src / dst of the
// input and takes each input sample i in proportion to the overlap: f(i, weight) for each,
// the weights summing to 1. Computed on the fly, so memory does not grow with the image.
template <class F>
void forEachTap(int src, int dst, int j, F f) {
    const double step = double(src) / double(dst);
    const double a = j * step, b = (j + 1) * step;
    for (int i = int(std::floor(a)); i < src && i < b; ++i) {
        const double w = std::min(double(i + 1), b) - std::max(double(i), a);
        if (w > 0) f(i, w / step);
    }
}

// The box of `im` resampled to tw × th: [th, tw] values 0 … 255. Each input row is averaged
// across when an output row needs it (at most twice when shrinking), so memory is
// O(tw · th) whatever the image's shape.
std::vector<double> resample(const GrayImage& im, const Box& box, int tw, int th) {
    const int w = box.x1 - box.x0, h = box.y1 - box.y0;
    std::vector<double> out(size_t(th) * size_t(tw));  // [th, tw]
    for (int i = 0; i < th; ++i)
        forEachTap(h, th, i, [&](int r, double rowWeight) {
            const uint8_t* src = im.pixels.data() + size_t(box.y0 + r) * im.width + box.x0;
            for (int j = 0; j < tw; ++j) {
                double v = 0;
                forEachTap(w, tw, j, [&](int c, double weight) { v += weight * src[c]; });
                out[size_t(i) * tw + j] += rowWeight * v;
            }
        });
    return out;
}

}  // namespace

InvertMode parseInvertMode(const std::string& text) {
    if (text == "auto") return InvertMode::Auto;
    if (text == "yes") return InvertMode::Yes;
    if (text == "no") return InvertMode::No;
    throw Error("invert must be auto, yes or no, got '" + excerpt(text) + "'");
}

ModelImage prepareModelImage(const GrayImage& image, int size, InvertMode invert) {
    if (size < 1) throw Error("the model's image size must be at least 1");
    if (image.width < 1 || image.height < 1)
        throw Error("the image is empty (" + std::to_string(image.width) + "×" +
                    std::to_string(image.height) + " pixels)");
    if (image.pixels.size() != size_t(image.width) * size_t(image.height))
        throw Error("the image has " + std::to_string(image.pixels.size()) + " pixels, not " +
                    std::to_string(image.width) + "×" + std::to_string(image.height));
    ModelImage out;
    out.borderMean = border(image.pixels.data(), image.width, image.height).mean;
    out.inverted =
        invert == InvertMode::Yes || (invert == InvertMode::Auto && out.borderMean >= 128);
    GrayImage im = image;
    if (out.inverted)
        for (uint8_t& p : im.pixels) p = uint8_t(255 - p);
    if (im.width == size && im.height == size) {
        out.pixels = std::move(im.pixels);
        return out;
    }
    out.fitted = true;
    const double bg = out.inverted ? 255 - out.borderMean : out.borderMean;
    // Trimming and the black point look at a smoothed copy, so that noise is not an object.
    const Box whole{0, 0, im.width, im.height};
    const int longer = std::max(im.width, im.height);
    const int detect = std::min(longer, kImageDetectionScale * size);
    const int dw = std::max(1, int(std::lround(double(im.width) * detect / longer)));
    const int dh = std::max(1, int(std::lround(double(im.height) * detect / longer)));
    const std::vector<double> det = resample(im, whole, dw, dh);
    const Box d = objectBox(det, dw, dh, bg);
    const Box box{int(std::floor(double(d.x0) * im.width / dw)),
                  int(std::floor(double(d.y0) * im.height / dh)),
                  std::min(im.width, int(std::ceil(double(d.x1) * im.width / dw))),
                  std::min(im.height, int(std::ceil(double(d.y1) * im.height / dh)))};
    const double black =
        bg + std::min(2 * border(det.data(), dw, dh).sd, double(kImageObjectThreshold));
    const int w = box.x1 - box.x0, h = box.y1 - box.y0;
    const double scale = double(size) / double(std::max(w, h));
    const int tw = std::clamp(int(std::lround(w * scale)), 1, size);
    const int th = std::clamp(int(std::lround(h * scale)), 1, size);
    const std::vector<double> fit = resample(im, box, tw, th);
    const double hi = *std::max_element(fit.begin(), fit.end());
    out.pixels.assign(size_t(size) * size_t(size), 0);
    if (hi - black < 1) return out;  // nothing brighter than the background: black
    const int ox = (size - tw) / 2, oy = (size - th) / 2;
    for (int y = 0; y < th; ++y)
        for (int x = 0; x < tw; ++x) {
            const double v = (fit[size_t(y) * tw + x] - black) * 255.0 / (hi - black);
            out.pixels[size_t(oy + y) * size + ox + x] =
                uint8_t(std::clamp(std::lround(v), 0L, 255L));
        }
    return out;
}

}  // namespace attnviz

namespace attnviz {
namespace {

// The overlap, in whole units, of input sample i with output sample j when `src` samples
// become `dst`: input i covers [i·dst, (i+1)·dst), output j covers [j·src, (j+1)·src); the
// overlaps of one output sum to `src`.
struct Tap {
    int index, weight;
};
std::vector<std::vector<Tap>> taps(int src, int dst) {
    std::vector<std::vector<Tap>> out(static_cast<size_t>(dst));
    for (int j = 0; j < dst; ++j) {
        const int64_t a = int64_t(j) * src, b = int64_t(j + 1) * src;
        for (int i = int(a / dst); i < src && int64_t(i) * dst < b; ++i) {
            const int64_t w = std::min(b, int64_t(i + 1) * dst) - std::max(a, int64_t(i) * dst);
            if (w > 0) out[size_t(j)].push_back({i, int(w)});
        }
    }
    return out;
}

}  // namespace

std::vector<uint8_t> prepareColorModelImage(const ColorImage& photo, int size,
                                            const std::array<uint8_t, 3>* pad) {
    if (size < 1) throw Error("the model's image size must be at least 1");
    const int w = photo.width, h = photo.height;
    if (w < 1 || h < 1) throw Error("the image is empty");
    if (photo.rgb.size() != size_t(w) * size_t(h) * 3)
        throw Error("the colour image's buffer does not hold " + std::to_string(w) + "×" +
                    std::to_string(h) + " RGB pixels");
    if (w == size && h == size) return photo.rgb;
    const int longer = std::max(w, h);
    auto scaled = [&](int side) {
        return std::clamp(int((int64_t(side) * size * 2 + longer) / (2 * int64_t(longer))), 1,
                          size);
    };
    const int tw = scaled(w), th = scaled(h);
    std::array<uint64_t, 3> sum{};
    for (size_t i = 0; i < photo.rgb.size(); ++i) sum[i % 3] += photo.rgb[i];
    const uint64_t area = uint64_t(w) * uint64_t(h);
    std::vector<uint8_t> out(size_t(size) * size_t(size) * 3);
    for (size_t i = 0; i < out.size(); ++i)
        out[i] = pad ? (*pad)[i % 3] : uint8_t((2 * sum[i % 3] + area) / (2 * area));
    const auto tx = taps(w, tw), ty = taps(h, th);
    // The weights of one output pixel sum to w · h (at most 64 Mi: kMaxImagePixels), times 255
    // and 2 well inside 64 bits.
    const int64_t den = int64_t(w) * int64_t(h);
    const int ox = (size - tw) / 2, oy = (size - th) / 2;
    for (int y = 0; y < th; ++y)
        for (int x = 0; x < tw; ++x)
            for (int k = 0; k < 3; ++k) {
                int64_t v = 0;
                for (const Tap& r : ty[size_t(y)])
                    for (const Tap& c : tx[size_t(x)])
                        v += int64_t(r.weight) * c.weight *
                             photo.rgb[(size_t(r.index) * size_t(w) + size_t(c.index)) * 3 +
                                       size_t(k)];
                out[(size_t(oy + y) * size_t(size) + size_t(ox + x)) * 3 + size_t(k)] =
                    uint8_t((2 * v + den) / (2 * den));
            }
    return out;
}

}  // namespace attnviz
