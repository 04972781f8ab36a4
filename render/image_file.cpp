// SPDX-License-Identifier: GPL-3.0-or-later
#include "image_file.h"

#include <QBuffer>
#include <QImage>
#include <QImageReader>
#include <QImageWriter>
#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdint>

#include "core/error.h"
#include "core/file_io.h"
#include "core/input_limits.h"

namespace attnviz::render {
namespace {

// The largest decoded image Qt may allocate, in MiB: kMaxImagePixels of 8 bytes (RGBA64).
constexpr int kAllocationLimitMiB = int(kMaxImagePixels * 8 >> 20);

// Qt's format name for a file name's extension ("jpg" → "jpeg"), "" for none.
std::string formatOfName(const std::string& path) {
    const size_t slash = path.find_last_of('/');
    const std::string name = path.substr(slash == std::string::npos ? 0 : slash + 1);
    const size_t dot = name.find_last_of('.');
    if (dot == std::string::npos || dot == 0) return "";
    std::string ext = name.substr(dot + 1);
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    if (ext == "jpg" || ext == "jpe") return "jpeg";
    if (ext == "tif") return "tiff";
    return ext;
}

std::string upper(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return char(std::toupper(c)); });
    return s;
}

std::string formatList() {
    std::string list;
    for (const std::string& f : imageFileFormats()) list += (list.empty() ? "" : ", ") + upper(f);
    return list;
}

// PNG ends with its IEND chunk; JPEG has an end-of-image marker after its last scan (0xFF is
// never followed by 0xD9 inside scan data, which stuffs every 0xFF with 0x00).
void checkComplete(const std::string& bytes, const std::string& format, const std::string& name) {
    if (format == "png" &&
        bytes.find(std::string("\0\0\0\0IEND\xAE\x42\x60\x82", 12)) == std::string::npos)
        throw Error(name + " is truncated: the PNG data has no end (IEND chunk)");
    if (format == "jpeg") {
        const size_t scan = bytes.rfind("\xFF\xDA");
        if (scan == std::string::npos || bytes.find("\xFF\xD9", scan) == std::string::npos)
            throw Error(name + " is truncated: the JPEG data has no end-of-image marker");
    }
}

void checkSize(int w, int h, const std::string& name, const char* what) {
    if (w < 1 || h < 1)
        throw Error(name + " " + what + " an empty image (" + std::to_string(w) + "×" +
                    std::to_string(h) + " pixels)");
    if (uint64_t(w) * uint64_t(h) > kMaxImagePixels)
        throw Error(name + " " + what + " an image of " + std::to_string(w) + "×" +
                    std::to_string(h) + " pixels; the limit is " + std::to_string(kMaxImagePixels) +
                    " pixels (8192×8192)");
}

uint32_t le(const std::string& b, size_t at, int bytes) {
    uint32_t v = 0;
    for (int k = bytes - 1; k >= 0; --k) v = v << 8 | uint8_t(b[at + size_t(k)]);
    return v;
}

// A BMP's header, which Qt does not report before decoding: its dimensions are checked as
// any other's, and an uncompressed BMP must hold all the rows they declare (Qt's decoder
// fills missing rows in silently). Other header kinds are left to the decoder.
void checkBmp(const std::string& b, const std::string& name) {
    if (b.size() < 26) throw Error(name + " is truncated: the BMP header is incomplete");
    const uint64_t offset = le(b, 10, 4), header = le(b, 14, 4);
    int64_t w = 0, h = 0;
    uint32_t bpp = 0, compression = 0;
    if (header == 12) {
        w = le(b, 18, 2), h = le(b, 20, 2);
        bpp = le(b, 24, 2);
    } else if (header >= 40 && b.size() >= 34) {
        w = int32_t(le(b, 18, 4)), h = int32_t(le(b, 22, 4));
        bpp = le(b, 28, 2), compression = le(b, 30, 4);
    } else {
        return;
    }
    h = h < 0 ? -h : h;
    if (w < 1 || h < 1 || uint64_t(w) * uint64_t(h) > kMaxImagePixels)
        checkSize(int(std::min<int64_t>(w, INT32_MAX)), int(std::min<int64_t>(h, INT32_MAX)), name,
                  "declares");
    const bool plain = compression == 0 || compression == 3 || compression == 6;
    const uint64_t stride = (uint64_t(w) * bpp + 31) / 32 * 4;
    if (plain && bpp > 0 && b.size() < offset + stride * uint64_t(h))
        throw Error(name + " is truncated: the BMP holds " + std::to_string(b.size()) +
                    " bytes; its header asks for " + std::to_string(offset + stride * uint64_t(h)));
}

// `format` and the name's extension say the same.
void checkName(const std::string& path, const std::string& format, const std::string& name) {
    const std::string byName = formatOfName(path);
    if (byName == format) return;
    const auto formats = imageFileFormats();
    const bool known = std::find(formats.begin(), formats.end(), byName) != formats.end();
    throw Error(name + " holds a " + upper(format) + " image, but its name " +
                (byName.empty() ? std::string("has no extension")
                 : known        ? "says " + upper(byName)
                         : "ends in '." + excerpt(path.substr(path.find_last_of('.') + 1)) + "'") +
                ": name it for what it holds (." + (format == "jpeg" ? "jpg" : format) + ")");
}

// Over white, in BT.601 luma: [h, w]. Converted to 32-bit colour a strip of rows at a time,
// so a large image costs its decoded size and the gray result, not a 32-bit copy as well.
GrayImage toGray(const QImage& decoded) {
    GrayImage g{decoded.width(), decoded.height(), {}};
    g.pixels.resize(size_t(g.width) * size_t(g.height));
    constexpr int kStrip = 256;
    for (int y0 = 0; y0 < g.height; y0 += kStrip) {
        const QImage strip = decoded.copy(0, y0, g.width, std::min(kStrip, g.height - y0))
                                 .convertToFormat(QImage::Format_ARGB32);
        for (int y = 0; y < strip.height(); ++y) {
            const auto* row = reinterpret_cast<const QRgb*>(strip.constScanLine(y));
            uint8_t* out = g.pixels.data() + size_t(y0 + y) * g.width;
            for (int x = 0; x < g.width; ++x) {
                const uint64_t a = uint64_t(qAlpha(row[x]));
                const uint64_t luma = 299 * uint64_t(qRed(row[x])) +
                                      587 * uint64_t(qGreen(row[x])) +
                                      114 * uint64_t(qBlue(row[x]));  // 0 … 255,000
                const uint64_t over = luma * a + 255000 * (255 - a);  // 0 … 255,000 · 255
                out[x] = uint8_t((over + 127500) / 255000);
            }
        }
    }
    return g;
}

}  // namespace

std::vector<std::string> imageFileFormats() {
    const auto supported = QImageReader::supportedImageFormats();
    std::vector<std::string> out;
    for (const char* f : {"png", "jpeg", "bmp", "gif", "webp", "tiff", "pbm", "pgm", "ppm"})
        if (supported.contains(f)) out.push_back(f);
    return out;
}

namespace {

// `bytes` decoded as above; `path`, when the bytes are a file's, has its name checked against
// the format. Error naming `name`.
GrayImage decodeImage(const std::string& bytes, const std::string& name, const std::string& path) {
    if (bytes.empty()) throw Error(name + " is empty (0 bytes), not an image");
    QByteArray data = QByteArray::fromRawData(bytes.data(), qsizetype(bytes.size()));
    QBuffer buffer(&data);
    buffer.open(QIODevice::ReadOnly);
    const std::string format = QImageReader::imageFormat(&buffer).toStdString();
    const auto formats = imageFileFormats();
    if (std::find(formats.begin(), formats.end(), format) == formats.end())
        throw Error(name + " is not an image attnviz reads" +
                    (format.empty() ? std::string() : " (it holds " + upper(format) + ")") +
                    ": give a " + formatList() + " file");
    if (!path.empty()) checkName(path, format, name);
    if (format == "bmp") checkBmp(bytes, name);
    checkComplete(bytes, format, name);
    buffer.seek(0);
    QImageReader reader(&buffer, QByteArray::fromStdString(format));
    reader.setAllocationLimit(kAllocationLimitMiB);
    reader.setAutoTransform(true);
    const QSize declared = reader.size();
    if (declared.isValid()) checkSize(declared.width(), declared.height(), name, "declares");
    const QImage image = reader.read();
    if (image.isNull())
        throw Error(name + " could not be decoded as " + upper(format) + ": " +
                    reader.errorString().toStdString());
    checkSize(image.width(), image.height(), name, "is");
    return toGray(image);
}

}  // namespace

GrayImage readImageFile(const std::string& path) {
    return decodeImage(readTextFile(path, kMaxImageFileBytes, "picture"), "'" + path + "'", path);
}

GrayImage readImageBytes(const std::string& bytes, const std::string& name) {
    if (bytes.size() > kMaxImageFileBytes)
        throw Error(name + " holds " + std::to_string(bytes.size()) +
                    " bytes; the limit for a picture is " + std::to_string(kMaxImageFileBytes));
    return decodeImage(bytes, name, {});
}

GrayImage grayImage(const QImage& image, const std::string& name) {
    if (image.isNull()) throw Error(name + " holds no image");
    checkSize(image.width(), image.height(), name, "is");
    return toGray(image);
}

std::string grayPng(const GrayImage& image) {
    if (image.width < 1 || image.height < 1 ||
        image.pixels.size() != size_t(image.width) * size_t(image.height))
        throw Error("no image to write");
    QImage im(image.width, image.height, QImage::Format_Grayscale8);
    for (int y = 0; y < image.height; ++y)
        std::copy_n(image.pixels.data() + size_t(y) * image.width, image.width, im.scanLine(y));
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    if (!im.save(&buffer, "PNG")) throw Error("could not encode the PNG");
    return png.toStdString();
}

void writeGrayPng(const std::string& path, const GrayImage& image) {
    std::string png;
    try {
        png = grayPng(image);
    } catch (const std::exception& e) {
        throw Error("'" + path + "': " + e.what());
    }
    writeFileAtomically(path, png);
}

}  // namespace attnviz::render
