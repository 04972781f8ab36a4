// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What ui/image_chooser.cpp (the test images' strip) and ui/image_chooser_own.cpp (a person's
// own image) share: sizes and the pixels-to-image conversion.
#include <QImage>
#include <cstdint>
#include <cstring>

namespace attnviz::ui::chooser {

constexpr int kStripMax = 400;  // thumbnails in the strip (the filter narrows them)
constexpr int kThumb = 48;      // a thumbnail's side, pixels
constexpr int kPreview = 84;    // the previews' side

// Pixels [h, w, channels] (1: gray, 3: RGB) as an image.
inline QImage pixelsQImage(const uint8_t* px, int w, int h, int channels) {
    QImage img(w, h, channels == 3 ? QImage::Format_RGB888 : QImage::Format_Grayscale8);
    const size_t row = size_t(w) * size_t(channels);
    for (int y = 0; y < h; ++y) std::memcpy(img.scanLine(y), px + size_t(y) * row, row);
    return img;
}

}  // namespace attnviz::ui::chooser
