// SPDX-License-Identifier: GPL-3.0-or-later
#include "garment_cutout.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

#include "error.h"
#include "input_limits.h"

namespace attnviz {
namespace {

void checkColor(const ColorImage& image) {
    if (image.width < 1 || image.height < 1)
        throw Error("the image is empty (" + std::to_string(image.width) + "×" +
                    std::to_string(image.height) + " pixels)");
    if (image.rgb.size() != size_t(image.width) * size_t(image.height) * 3)
        throw Error("the image has " + std::to_string(image.rgb.size()) + " colour values, not " +
                    std::to_string(image.width) + "×" + std::to_string(image.height) + "×3");
}

// `m` (CV_8UC3 or CV_8UC1) copied out as the project's images.
ColorImage colorOf(const cv::Mat& m) {
    ColorImage c{m.cols, m.rows, {}};
    c.rgb.resize(size_t(m.cols) * size_t(m.rows) * 3);
    for (int y = 0; y < m.rows; ++y)
        std::copy_n(m.ptr<uint8_t>(y), size_t(m.cols) * 3, &c.rgb[size_t(y) * m.cols * 3]);
    return c;
}
GrayImage grayOf(const cv::Mat& m) {
    GrayImage g{m.cols, m.rows, {}};
    g.pixels.resize(size_t(m.cols) * size_t(m.rows));
    for (int y = 0; y < m.rows; ++y)
        std::copy_n(m.ptr<uint8_t>(y), size_t(m.cols), &g.pixels[size_t(y) * m.cols]);
    return g;
}
// Views of the project's buffers, no copy (OpenCV does not write through them here).
cv::Mat view(const ColorImage& c) {
    return cv::Mat(c.height, c.width, CV_8UC3, const_cast<uint8_t*>(c.rgb.data()));
}
cv::Mat view(const GrayImage& g) {
    return cv::Mat(g.height, g.width, CV_8UC1, const_cast<uint8_t*>(g.pixels.data()));
}

// The BT.601 luma of each pixel, rounded as render/image_file.cpp rounds it.
cv::Mat luma(const cv::Mat& rgb) {
    cv::Mat g(rgb.rows, rgb.cols, CV_8UC1);
    for (int y = 0; y < rgb.rows; ++y) {
        const uint8_t* s = rgb.ptr<uint8_t>(y);
        uint8_t* d = g.ptr<uint8_t>(y);
        for (int x = 0; x < rgb.cols; ++x, s += 3)
            d[x] = uint8_t((299u * s[0] + 587u * s[1] + 114u * s[2] + 500u) / 1000u);
    }
    return g;
}

// Steps 2–3: GrabCut from the border, the largest part, its holes filled. [h, w] 0 / 255.
cv::Mat garmentMask(const cv::Mat& work) {
    const int bx = std::max(1, work.cols / kCutoutBorder),
              by = std::max(1, work.rows / kCutoutBorder);
    cv::Mat gc(work.size(), CV_8UC1, cv::Scalar(cv::GC_BGD));
    gc(cv::Rect(bx, by, work.cols - 2 * bx, work.rows - 2 * by)).setTo(cv::GC_PR_FGD);
    cv::Mat bgdModel, fgdModel;
    // GrabCut starts its colour models with k-means++, which draws from OpenCV's
    // thread-local generator: seeded here, the same photo gives the same mask.
    cv::theRNG().state = 0x2545F4914F6CDD1DULL;
    cv::grabCut(work, gc, cv::Rect(), bgdModel, fgdModel, kCutoutIterations, cv::GC_INIT_WITH_MASK);
    cv::Mat fg = (gc == cv::GC_FGD) | (gc == cv::GC_PR_FGD);  // 255 / 0
    cv::Mat labels, stats, centroids;
    const int n = cv::connectedComponentsWithStats(fg, labels, stats, centroids, 8, CV_32S);
    int best = 0, bestArea = 0;
    for (int k = 1; k < n; ++k)
        if (stats.at<int>(k, cv::CC_STAT_AREA) > bestArea) {
            best = k;
            bestArea = stats.at<int>(k, cv::CC_STAT_AREA);
        }
    cv::Mat mask = cv::Mat::zeros(work.size(), CV_8UC1);
    if (best == 0) return mask;
    mask.setTo(255, labels == best);
    // Holes: what the background outside cannot reach, on a copy with a 1-pixel frame.
    cv::Mat framed;
    cv::copyMakeBorder(mask, framed, 1, 1, 1, 1, cv::BORDER_CONSTANT, cv::Scalar(0));
    cv::floodFill(framed, cv::Point(0, 0), cv::Scalar(128));
    mask.setTo(255, framed(cv::Rect(1, 1, mask.cols, mask.rows)) == 0);
    return mask;
}

// The mean luma of the photo's outermost rows and columns (what the plain conversion's auto
// inversion decides on), each pixel counted once.
double borderLuma(const ColorImage& p) {
    double sum = 0;
    size_t n = 0;
    for (int y = 0; y < p.height; ++y) {
        const bool edgeRow = y == 0 || y == p.height - 1;
        for (int x = 0; x < p.width; x += edgeRow || p.width == 1 ? 1 : p.width - 1) {
            const uint8_t* s = &p.rgb[(size_t(y) * p.width + x) * 3];
            sum += double((299u * s[0] + 587u * s[1] + 114u * s[2] + 500u) / 1000u);
            ++n;
        }
    }
    return sum / double(n);
}

GarmentCutout plain(GarmentCutout c, const ColorImage& photo, int size, InvertMode invert,
                    std::string note) {
    c.model = prepareModelImage(grayImage(photo), size, invert);
    c.found = false;
    c.note = std::move(note);
    c.mask = {};
    c.crop = {};
    c.box = {};
    return c;
}

}  // namespace

GrayImage grayImage(const ColorImage& image) {
    checkColor(image);
    return grayOf(luma(view(image)));
}

PrepareMode parsePrepareMode(const std::string& text) {
    if (text == "cutout") return PrepareMode::Cutout;
    if (text == "plain") return PrepareMode::Plain;
    throw Error("prepare must be cutout or plain, got '" + excerpt(text) + "'");
}

const char* prepareModeName(PrepareMode mode) {
    return mode == PrepareMode::Cutout ? "cutout" : "plain";
}

GarmentCutout cutOutGarment(const ColorImage& photo, int size, InvertMode invert) {
    if (size < 1) throw Error("the model's image size must be at least 1");
    checkColor(photo);
    GarmentCutout c;
    if (photo.width == size && photo.height == size)
        return plain(std::move(c), photo, size, invert,
                     "the image is already " + std::to_string(size) + "×" + std::to_string(size) +
                         " pixels: used as it is");
    // Step 1: the work copy.
    const int longer = std::max(photo.width, photo.height);
    const double scale = std::min(1.0, double(kCutoutWorkSide) / longer);
    const int ww = std::max(1, int(std::lround(photo.width * scale)));
    const int wh = std::max(1, int(std::lround(photo.height * scale)));
    cv::Mat work;
    if (ww == photo.width && wh == photo.height)
        work = view(photo).clone();
    else
        cv::resize(view(photo), work, cv::Size(ww, wh), 0, 0, cv::INTER_AREA);
    c.work = colorOf(work);
    if (std::min(ww, wh) < kCutoutMinSide)
        return plain(std::move(c), photo, size, invert,
                     "the image is too small to cut out (" + std::to_string(photo.width) + "×" +
                         std::to_string(photo.height) +
                         " pixels; its shorter side must be at least " +
                         std::to_string(kCutoutMinSide) + " once the longer is at most " +
                         std::to_string(kCutoutWorkSide) + ")");
    cv::Scalar mean, sd;
    cv::meanStdDev(work, mean, sd);
    if (std::max({sd[0], sd[1], sd[2]}) < 2)
        return plain(std::move(c), photo, size, invert,
                     "the image has no contrast: there is no garment to cut out");
    // Steps 2–3.
    cv::Mat mask;
    try {
        mask = garmentMask(work);
    } catch (const cv::Exception& e) {
        return plain(std::move(c), photo, size, invert,
                     std::string("the garment could not be separated (OpenCV: ") + e.what() + ")");
    }
    const double area = double(cv::countNonZero(mask)) / (double(ww) * wh);
    if (area < kCutoutMinArea || area > kCutoutMaxArea)
        return plain(std::move(c), photo, size, invert,
                     area < kCutoutMinArea
                         ? "no garment was found (the cut-out is empty)"
                         : "no background was found (the cut-out is the whole image)");
    c.mask = grayOf(mask);
    // Step 4: crop, gray, invert, levels.
    const cv::Rect box = cv::boundingRect(mask);
    c.box = {box.x, box.y, box.x + box.width, box.y + box.height};
    const cv::Mat gray = luma(work(box));
    const cv::Mat inside = mask(box);
    std::vector<uint8_t> values;  // the garment's gray values
    for (int y = 0; y < gray.rows; ++y)
        for (int x = 0; x < gray.cols; ++x)
            if (inside.at<uint8_t>(y, x)) values.push_back(gray.at<uint8_t>(y, x));
    // Fashion-MNIST negates every product photo, a light garment as a dark one.
    c.model.inverted = invert != InvertMode::No;
    if (c.model.inverted)
        for (uint8_t& v : values) v = uint8_t(255 - v);
    std::sort(values.begin(), values.end());
    const double lo = values[values.size() / 100],
                 hi = values[values.size() - 1 - values.size() / 100];
    cv::Mat crop(gray.size(), CV_8UC1, cv::Scalar(0));
    for (int y = 0; y < gray.rows; ++y)
        for (int x = 0; x < gray.cols; ++x) {
            if (!inside.at<uint8_t>(y, x)) continue;
            double v = gray.at<uint8_t>(y, x);
            if (c.model.inverted) v = 255 - v;
            const double t = hi - lo < 1 ? 1.0 : std::clamp((v - lo) / (hi - lo), 0.0, 1.0);
            crop.at<uint8_t>(y, x) = uint8_t(std::lround(kCutoutFloor + (255 - kCutoutFloor) * t));
        }
    c.crop = grayOf(crop);
    // Step 5: the longer side to `size`, centred.
    const double s = double(size) / std::max(box.width, box.height);
    const int tw = std::clamp(int(std::lround(box.width * s)), 1, size);
    const int th = std::clamp(int(std::lround(box.height * s)), 1, size);
    cv::Mat fit;
    cv::resize(crop, fit, cv::Size(tw, th), 0, 0, cv::INTER_AREA);
    cv::Mat out(size, size, CV_8UC1, cv::Scalar(0));
    fit.copyTo(out(cv::Rect((size - tw) / 2, (size - th) / 2, tw, th)));
    c.model.pixels = grayOf(out).pixels;
    c.model.fitted = true;
    c.model.borderMean = borderLuma(photo);
    c.found = true;
    return c;
}

std::vector<uint8_t> cutOutColorGarment(const ColorImage& photo, int size, GarmentCutout* cut) {
    GarmentCutout own = cutOutGarment(photo, size, InvertMode::No);
    GarmentCutout& c = cut ? (*cut = std::move(own)) : own;
    if (!c.found) {
        std::vector<uint8_t> plain = prepareColorModelImage(photo, size);
        if (cut) c.colorModel = {size, size, plain};
        return plain;
    }
    const std::array<uint8_t, 3> pad = {kCutoutPad, kCutoutPad, kCutoutPad};
    const PixelBox& b = c.box;
    ColorImage crop;  // [box height, box width, 3]
    crop.width = b.x1 - b.x0;
    crop.height = b.y1 - b.y0;
    crop.rgb.resize(size_t(crop.width) * size_t(crop.height) * 3);
    for (int y = b.y0; y < b.y1; ++y)
        for (int x = b.x0; x < b.x1; ++x) {
            const size_t from = size_t(y) * size_t(c.work.width) + size_t(x);
            const size_t to = size_t(y - b.y0) * size_t(crop.width) + size_t(x - b.x0);
            const bool garment = c.mask.pixels[from] != 0;
            for (size_t k = 0; k < 3; ++k)
                crop.rgb[3 * to + k] = garment ? c.work.rgb[3 * from + k] : pad[k];
        }
    std::vector<uint8_t> in = prepareColorModelImage(crop, size, &pad);
    if (cut) {
        c.colorModel = {size, size, in};
        c.colorCrop = std::move(crop);
    }
    return in;
}

std::string cutoutSummary(const GarmentCutout& cut) {
    const std::string inverted = cut.model.inverted ? ", inverted" : "";
    if (cut.found) return ", garment cut out" + inverted;
    if (!cut.model.fitted) return inverted;  // already of the model's size: used as it is
    return inverted + ", trimmed and fitted; not cut out: " + cut.note;
}

ColorImage cutoutStepsImage(const GarmentCutout& cut) {
    constexpr int kGap = 4;
    const cv::Scalar canvasColor(160, 160, 160);
    std::vector<cv::Mat> panels;
    cv::Mat work;
    if (!cut.work.rgb.empty()) work = view(cut.work).clone();
    if (cut.found) {
        const cv::Mat mask = view(cut.mask);
        cv::Mat dim;
        work.convertTo(dim, -1, 0.3);
        dim.copyTo(work, mask == 0);
        std::vector<std::vector<cv::Point>> contours;
        cv::findContours(mask.clone(), contours, cv::RETR_EXTERNAL, cv::CHAIN_APPROX_SIMPLE);
        cv::drawContours(work, contours, -1, cv::Scalar(255, 0, 255), std::max(1, work.rows / 160));
        panels.push_back(work);
        cv::Mat crop;
        if (!cut.colorCrop.rgb.empty())
            crop = view(cut.colorCrop).clone();
        else
            cv::cvtColor(view(cut.crop), crop, cv::COLOR_GRAY2RGB);
        panels.push_back(crop);
    } else if (!work.empty()) {
        panels.push_back(work);
    }
    const bool colour = !cut.colorModel.rgb.empty();
    const int side = colour ? cut.colorModel.width
                            : int(std::lround(std::sqrt(double(cut.model.pixels.size()))));
    cv::Mat model3;
    if (colour) {
        model3 = view(cut.colorModel).clone();
    } else {
        cv::Mat model(side, side, CV_8UC1, const_cast<uint8_t*>(cut.model.pixels.data()));
        cv::cvtColor(model, model3, cv::COLOR_GRAY2RGB);
    }
    panels.push_back(model3);
    int height = 0;
    for (const cv::Mat& p : panels) height = std::max(height, p.rows);
    height = std::max(height, side);
    // Each panel scaled to the canvas's height: the model's image by a whole factor, nearest
    // neighbour, so its pixels stay square and sharp.
    std::vector<cv::Mat> scaled;
    for (size_t i = 0; i < panels.size(); ++i) {
        const cv::Mat& p = panels[i];
        const bool last = i + 1 == panels.size();
        cv::Mat s;
        if (last) {
            const int k = std::max(1, height / side);
            cv::resize(p, s, cv::Size(side * k, side * k), 0, 0, cv::INTER_NEAREST);
        } else {
            const double f = double(height) / p.rows;
            cv::resize(p, s, cv::Size(std::max(1, int(std::lround(p.cols * f))), height), 0, 0,
                       f < 1 ? cv::INTER_AREA : cv::INTER_LINEAR);
        }
        scaled.push_back(s);
    }
    int width = kGap;
    for (const cv::Mat& s : scaled) width += s.cols + kGap;
    cv::Mat canvas(height + 2 * kGap, width, CV_8UC3, canvasColor);
    int x = kGap;
    for (const cv::Mat& s : scaled) {
        s.copyTo(canvas(cv::Rect(x, kGap + (height - s.rows) / 2, s.cols, s.rows)));
        x += s.cols + kGap;
    }
    return colorOf(canvas);
}

}  // namespace attnviz
