// SPDX-License-Identifier: GPL-3.0-or-later
// libFuzzer target: arbitrary bytes as a person's image file (render/image_file.h
// readImageFile: QImageReader with the header checked and the allocation limited before
// decoding, a JPEG's segments walked and its scans counted, libjpeg's warnings taken as
// errors), named by the format its first bytes claim so that each decoder sees them. An
// attnviz::Error is the expected answer to bad input; a crash, a hang (scripts/fuzz: 10 s,
// where a scan bomb took minutes), an image larger than the limits or pixels that disagree
// with its size are bugs. Seeds: tests/fuzz/corpus/image (JPEG baseline, progressive, cut,
// a scan bomb; PNG gray, colour, alpha, cut; BMP, GIF, PGM).
#include <QByteArray>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "core/error.h"
#include "core/image_input.h"
#include "fuzz_util.h"
#include "render/image_file.h"

namespace {

// The extension of the format whose signature starts `data` (".png" when none does: the
// reader must then refuse the content).
const char* suffixOf(const uint8_t* data, size_t size) {
    auto starts = [&](const char* magic) {
        const size_t n = std::strlen(magic);
        return size >= n && std::memcmp(data, magic, n) == 0;
    };
    if (starts("\xff\xd8\xff")) return ".jpg";
    if (starts("BM")) return ".bmp";
    if (starts("GIF8")) return ".gif";
    if (starts("RIFF")) return ".webp";
    if (starts("II*") || starts("MM\x00*")) return ".tiff";
    if (starts("P5") || starts("P2")) return ".pgm";
    if (starts("P6") || starts("P3")) return ".ppm";
    if (starts("P4") || starts("P1")) return ".pbm";
    return ".png";
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string& path = attnviz::fuzz::writeInput(data, size, suffixOf(data, size));
    try {
        const attnviz::GrayImage im = attnviz::render::readImageFile(path);
        if (im.width < 1 || im.height < 1 ||
            uint64_t(im.width) * uint64_t(im.height) > attnviz::kMaxImagePixels ||
            im.pixels.size() != size_t(im.width) * size_t(im.height))
            attnviz::fuzz::fail("an image of " + std::to_string(im.width) + "×" +
                                std::to_string(im.height) + " with " +
                                std::to_string(im.pixels.size()) + " pixels");
    } catch (const attnviz::Error& e) {
        if (std::strlen(e.what()) > attnviz::fuzz::kMaxMessageBytes)
            attnviz::fuzz::fail("a message of " + std::to_string(std::strlen(e.what())) + " bytes");
    }
    return 0;
}
