// SPDX-License-Identifier: GPL-3.0-or-later
#include "image_file.h"

#include <QBuffer>
#include <QIODevice>
#include <QImage>
#include <QImageReader>
#include <QImageWriter>
#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <optional>

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

// PNG ends with its IEND chunk.
void checkComplete(const std::string& bytes, const std::string& format, const std::string& name) {
    if (format == "png" &&
        bytes.find(std::string("\0\0\0\0IEND\xAE\x42\x60\x82", 12)) == std::string::npos)
        throw Error(name + " is truncated: the PNG data has no end (IEND chunk)");
}

// A JPEG's layout as walkJpeg finds it.
struct JpegLayout {
    int width = 0, height = 0;  // the frame header's (SOFn)
    std::vector<size_t> scans;  // where each scan's header (its SOS marker) begins
    // The scan whose header or data holds byte `at` (1-based), 0 before the first.
    size_t scanAt(size_t at) const {
        return size_t(std::upper_bound(scans.begin(), scans.end(), at) - scans.begin());
    }
};

std::string hexByte(uint8_t b) {
    char s[8];
    std::snprintf(s, sizeof s, "0x%02X", b);
    return s;
}

// What a marker's segment is, for messages: "its frame header (SOF2, marker at byte 158)".
std::string segmentName(uint8_t m, size_t at) {
    std::string what;
    if (m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC)
        what = "frame header (SOF" + std::to_string(m - 0xC0) + ")";
    else if (m == 0xC4)
        what = "Huffman table (DHT)";
    else if (m == 0xDB)
        what = "quantization table (DQT)";
    else if (m == 0xDA)
        what = "scan header (SOS)";
    else if (m == 0xDD)
        what = "restart interval (DRI)";
    else if (m >= 0xE0 && m <= 0xEF)
        what = "APP" + std::to_string(m - 0xE0) + " segment";
    else if (m == 0xFE)
        what = "comment (COM)";
    else
        what = "segment " + hexByte(m);
    return "its " + what + ", marker at byte " + std::to_string(at);
}

// Walks the JPEG `b` (ITU T.81 B.1) from its start-of-image marker to its end-of-image
// marker: each marker (0xFF, fill bytes 0xFF, a code), each segment's length, and after each
// scan header the entropy-coded data up to the next marker (0xFF 0x00 is a stuffed 0xFF,
// 0xFF 0xD0…0xD7 a restart marker; neither ends it). Error naming `name` and the byte where
// the data ends early or holds something else where a marker belongs. Cheap: no decoding.
JpegLayout walkJpeg(const std::string& b, const std::string& name) {
    JpegLayout j;
    const size_t n = b.size();
    const auto u8 = [&](size_t at) { return uint8_t(b[at]); };
    const auto ended = [&](const std::string& where) {
        return Error(name + " is truncated: the JPEG data ends at byte " + std::to_string(n) +
                     ", " + where + " (no end-of-image marker)");
    };
    size_t at = 2;  // after the start-of-image marker, which decided the format
    for (;;) {
        if (at >= n)
            throw ended(j.scans.empty() ? "before any scan"
                                        : "after scan " + std::to_string(j.scans.size()));
        if (u8(at) != 0xFF)
            throw Error(name + " is damaged: byte " + std::to_string(at) +
                        " should begin a JPEG marker (0xFF), it is " + hexByte(u8(at)));
        const size_t markerAt = at;
        while (at < n && u8(at) == 0xFF) ++at;  // fill bytes
        if (at >= n) throw ended("inside a marker");
        const uint8_t m = u8(at++);
        if (m == 0xD9) {
            if (j.scans.empty())
                throw Error(name + " holds no image: its end-of-image marker (byte " +
                            std::to_string(markerAt) + ") comes before any scan");
            return j;
        }
        if ((m >= 0xD0 && m <= 0xD7) || m == 0x01) continue;  // RSTn, TEM: no segment
        if (m == 0x00 || m == 0xD8)
            throw Error(name + " is damaged: byte " + std::to_string(markerAt) + " holds 0xFF " +
                        hexByte(m) + " where a JPEG marker belongs");
        if (at + 2 > n) throw ended("inside " + segmentName(m, markerAt));
        const size_t length = size_t(u8(at)) << 8 | u8(at + 1);
        if (length < 2)
            throw Error(name + " is damaged: " + segmentName(m, markerAt).substr(4) +
                        " declares a length of " + std::to_string(length));
        if (at + length > n) throw ended("inside " + segmentName(m, markerAt));
        const bool frame = m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC;
        if (frame && length >= 7) {
            j.height = int(size_t(u8(at + 3)) << 8 | u8(at + 4));
            j.width = int(size_t(u8(at + 5)) << 8 | u8(at + 6));
        }
        at += length;
        if (m != 0xDA) continue;
        j.scans.push_back(markerAt);
        for (;;) {  // the scan's entropy-coded data
            const size_t ff = b.find('\xFF', at);
            if (ff == std::string::npos || ff + 1 >= n)
                throw ended("inside the data of scan " + std::to_string(j.scans.size()) + " (of " +
                            std::to_string(j.scans.size()) + ")");
            const uint8_t next = u8(ff + 1);
            if (next == 0x00 || (next >= 0xD0 && next <= 0xD7)) {
                at = ff + 2;
            } else if (next == 0xFF) {
                at = ff + 1;  // a fill byte: the marker code follows later
            } else {
                at = ff;
                break;
            }
        }
    }
}

// The limits on a JPEG's scans (image_file.h): the decoder walks every block once per scan.
void checkScans(const JpegLayout& j, const std::string& name) {
    const uint64_t scans = j.scans.size();
    if (scans > uint64_t(kMaxJpegScans))
        throw Error(name + " is a JPEG of " + std::to_string(scans) + " scans; the limit is " +
                    std::to_string(kMaxJpegScans) +
                    " scans (a progressive JPEG has about 10; more only make decoding slow)");
    const uint64_t work = uint64_t(j.width) * uint64_t(j.height) * scans;
    if (work > kMaxJpegScanPixels)
        throw Error(name + " is a JPEG of " + std::to_string(j.width) + "×" +
                    std::to_string(j.height) + " pixels in " + std::to_string(scans) +
                    " scans: " + std::to_string(work) + " pixels × scans; the limit is " +
                    std::to_string(kMaxJpegScanPixels) + " (16 scans of 8192×8192)");
}

// The bytes a decoder reads, given up when `cancel` turns true (the decoder sees a read
// error and stops), and how far it has read: where a decoder's warning came from.
class DecoderInput : public QIODevice {
public:
    DecoderInput(const std::string& bytes, const std::atomic<bool>* cancel)
        : m_bytes(bytes), m_cancel(cancel) {
        open(QIODevice::ReadOnly | QIODevice::Unbuffered);
    }
    bool isSequential() const override { return false; }
    qint64 size() const override { return qint64(m_bytes.size()); }
    bool cancelled() const { return m_cancel && m_cancel->load(); }

protected:
    qint64 readData(char* data, qint64 maxSize) override {
        if (cancelled()) return -1;
        const qint64 n = std::min<qint64>(maxSize, size() - pos());
        if (n <= 0) return 0;
        std::copy_n(m_bytes.data() + pos(), size_t(n), data);
        return n;
    }
    qint64 writeData(const char*, qint64) override { return -1; }

private:
    const std::string& m_bytes;
    const std::atomic<bool>* m_cancel;
};

// The first warning Qt's decoders print (qWarning) on this thread while a Capture of it
// lives, and how far the decoder had read then; other threads' messages, and this thread's
// outside a capture, go on to the handler there was before. Qt's JPEG plugin prints
// libjpeg's warnings so ("Corrupt JPEG data: …", "Premature end of JPEG file").
class WarningCapture {
public:
    explicit WarningCapture(const DecoderInput& input) : m_input(input) {
        static std::once_flag installed;
        std::call_once(installed, [] { s_previous = qInstallMessageHandler(&handle); });
        m_outer = std::exchange(t_current, this);
    }
    ~WarningCapture() { t_current = m_outer; }
    WarningCapture(const WarningCapture&) = delete;
    WarningCapture& operator=(const WarningCapture&) = delete;
    const std::string& first() const { return m_first; }
    qint64 at() const { return m_at; }

private:
    static void handle(QtMsgType type, const QMessageLogContext& context, const QString& text) {
        if (WarningCapture* c = t_current; c && type == QtWarningMsg) {
            if (c->m_first.empty()) {
                c->m_first = text.trimmed().toStdString();
                c->m_at = c->m_input.pos();
            }
            return;
        }
        if (s_previous) s_previous(type, context, text);
    }
    static inline QtMessageHandler s_previous = nullptr;
    static inline thread_local WarningCapture* t_current = nullptr;
    const DecoderInput& m_input;
    WarningCapture* m_outer;
    std::string m_first;
    qint64 m_at = 0;
};

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

// Over white, in RGB: [h, w, 3], a strip of rows at a time as toGray. Each channel is laid
// over white with toGray's rounding, so an opaque pixel's luma (core grayImage) is toGray's.
ColorImage toColor(const QImage& decoded) {
    ColorImage c{decoded.width(), decoded.height(), {}};
    c.rgb.resize(size_t(c.width) * size_t(c.height) * 3);
    constexpr int kStrip = 256;
    for (int y0 = 0; y0 < c.height; y0 += kStrip) {
        const QImage strip = decoded.copy(0, y0, c.width, std::min(kStrip, c.height - y0))
                                 .convertToFormat(QImage::Format_ARGB32);
        for (int y = 0; y < strip.height(); ++y) {
            const auto* row = reinterpret_cast<const QRgb*>(strip.constScanLine(y));
            uint8_t* out = c.rgb.data() + size_t(y0 + y) * c.width * 3;
            for (int x = 0; x < c.width; ++x) {
                const uint32_t a = uint32_t(qAlpha(row[x]));
                const int ch[3] = {qRed(row[x]), qGreen(row[x]), qBlue(row[x])};
                for (int k = 0; k < 3; ++k)
                    out[3 * x + k] =
                        uint8_t((uint32_t(ch[k]) * a + 255u * (255u - a) + 127u) / 255u);
            }
        }
    }
    return c;
}

}  // namespace

std::vector<std::string> imageFileFormats() {
    const auto supported = QImageReader::supportedImageFormats();
    std::vector<std::string> out;
    for (const char* f : {"png", "jpeg", "bmp", "gif", "webp", "tiff", "pbm", "pgm", "ppm"})
        if (supported.contains(f)) out.push_back(f);
    return out;
}

bool isImageFileName(const std::string& path) {
    const std::string format = formatOfName(path);
    const auto formats = imageFileFormats();
    return !format.empty() && std::find(formats.begin(), formats.end(), format) != formats.end();
}

namespace {

// `bytes` decoded as above; `path`, when the bytes are a file's, has its name checked against
// the format. Error naming `name`; Cancelled once `cancel` (may be null) is true.
QImage decodeImage(const std::string& bytes, const std::string& name, const std::string& path,
                   const std::atomic<bool>* cancel = nullptr) {
    if (cancel && cancel->load()) throw Cancelled();
    if (bytes.empty()) throw Error(name + " is empty (0 bytes), not an image");
    DecoderInput input(bytes, cancel);
    const std::string format = QImageReader::imageFormat(&input).toStdString();
    const auto formats = imageFileFormats();
    if (std::find(formats.begin(), formats.end(), format) == formats.end())
        throw Error(name + " is not an image attnviz reads" +
                    (format.empty() ? std::string() : " (it holds " + upper(format) + ")") +
                    ": give a " + formatList() + " file");
    if (!path.empty()) checkName(path, format, name);
    if (format == "bmp") checkBmp(bytes, name);
    checkComplete(bytes, format, name);
    JpegLayout jpeg;
    if (format == "jpeg") {
        jpeg = walkJpeg(bytes, name);
        checkScans(jpeg, name);
    }
    if (input.cancelled()) throw Cancelled();
    input.seek(0);
    std::optional<WarningCapture> warnings;  // JPEG's: PNG's are notes (an sRGB profile's, …)
    if (format == "jpeg") warnings.emplace(input);
    QImageReader reader(&input, QByteArray::fromStdString(format));
    reader.setAllocationLimit(kAllocationLimitMiB);
    reader.setAutoTransform(true);
    const QSize declared = reader.size();
    if (declared.isValid()) checkSize(declared.width(), declared.height(), name, "declares");
    const QImage image = reader.read();
    if (input.cancelled()) throw Cancelled();
    // libjpeg warns, fills in what it could not decode with grey and goes on: refused here.
    // It reads 4 KiB at a time, so the place is where it had read to.
    if (warnings && !warnings->first().empty()) {
        const size_t at = size_t(warnings->at()), scan = jpeg.scanAt(at > 0 ? at - 1 : 0);
        throw Error(name + " is damaged near byte " + std::to_string(at) + " of " +
                    std::to_string(bytes.size()) +
                    (scan > 0 ? " (scan " + std::to_string(scan) + " of " +
                                    std::to_string(jpeg.scans.size()) + ")"
                              : std::string()) +
                    ": " + excerpt(std::string_view(warnings->first())));
    }
    if (image.isNull())
        throw Error(name + " could not be decoded as " + upper(format) + ": " +
                    reader.errorString().toStdString());
    checkSize(image.width(), image.height(), name, "is");
    return image;
}

}  // namespace

GrayImage readImageFile(const std::string& path, const std::atomic<bool>* cancel) {
    if (cancel && *cancel) throw Cancelled();
    return toGray(decodeImage(readTextFile(path, kMaxImageFileBytes, "picture"), "'" + path + "'",
                              path, cancel));
}

GrayImage readImageBytes(const std::string& bytes, const std::string& name,
                         const std::atomic<bool>* cancel) {
    if (bytes.size() > kMaxImageFileBytes)
        throw Error(name + " holds " + std::to_string(bytes.size()) +
                    " bytes; the limit for a picture is " + std::to_string(kMaxImageFileBytes));
    return toGray(decodeImage(bytes, name, {}, cancel));
}

GrayImage grayImage(const QImage& image, const std::string& name) {
    if (image.isNull()) throw Error(name + " holds no image");
    checkSize(image.width(), image.height(), name, "is");
    return toGray(image);
}

ColorImage readColorImageFile(const std::string& path, const std::atomic<bool>* cancel) {
    if (cancel && *cancel) throw Cancelled();
    return toColor(decodeImage(readTextFile(path, kMaxImageFileBytes, "picture"), "'" + path + "'",
                               path, cancel));
}

ColorImage readColorImageBytes(const std::string& bytes, const std::string& name,
                               const std::atomic<bool>* cancel) {
    if (bytes.size() > kMaxImageFileBytes)
        throw Error(name + " holds " + std::to_string(bytes.size()) +
                    " bytes; the limit for a picture is " + std::to_string(kMaxImageFileBytes));
    return toColor(decodeImage(bytes, name, {}, cancel));
}

ColorImage colorImage(const QImage& image, const std::string& name) {
    if (image.isNull()) throw Error(name + " holds no image");
    checkSize(image.width(), image.height(), name, "is");
    return toColor(image);
}

QImage qImage(const ColorImage& image) {
    if (image.width < 1 || image.height < 1 ||
        image.rgb.size() != size_t(image.width) * size_t(image.height) * 3)
        return {};
    QImage im(image.width, image.height, QImage::Format_RGB888);
    for (int y = 0; y < image.height; ++y)
        std::copy_n(image.rgb.data() + size_t(y) * image.width * 3, size_t(image.width) * 3,
                    im.scanLine(y));
    return im;
}

namespace {

// An image as the bytes of a PNG file.
std::string pngBytes(const QImage& im) {
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    if (!im.save(&buffer, "PNG")) throw Error("could not encode the PNG");
    return png.toStdString();
}

// `encode()`'s bytes written atomically to `path`; its error names the file.
template <class Encode>
void writePngFile(const std::string& path, Encode encode) {
    std::string png;
    try {
        png = encode();
    } catch (const std::exception& e) {
        throw Error("'" + path + "': " + e.what());
    }
    writeFileAtomically(path, png);
}

}  // namespace

std::string colorPng(const ColorImage& image) {
    const QImage im = qImage(image);
    if (im.isNull()) throw Error("no image to write");
    return pngBytes(im);
}

void writeColorPng(const std::string& path, const ColorImage& image) {
    writePngFile(path, [&] { return colorPng(image); });
}

std::string grayPng(const GrayImage& image) {
    if (image.width < 1 || image.height < 1 ||
        image.pixels.size() != size_t(image.width) * size_t(image.height))
        throw Error("no image to write");
    QImage im(image.width, image.height, QImage::Format_Grayscale8);
    for (int y = 0; y < image.height; ++y)
        std::copy_n(image.pixels.data() + size_t(y) * image.width, image.width, im.scanLine(y));
    return pngBytes(im);
}

void writeGrayPng(const std::string& path, const GrayImage& image) {
    writePngFile(path, [&] { return grayPng(image); });
}

}  // namespace attnviz::render
