// SPDX-License-Identifier: GPL-3.0-or-later
// A person's image files (render/image_file.h): decoded to gray as documented, and every
// hostile file refused by name with what is wrong, without a crash or a hang.
#include "render/image_file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <QBuffer>
#include <QElapsedTimer>
#include <QImage>
#include <QImageWriter>
#include <filesystem>
#include <fstream>

#include "../core/test_util.h"
#include "core/error.h"
#include "jpeg_maker.h"
#include "png_maker.h"
#include "tests/expect.h"

using namespace attnviz;

namespace {

std::string tmp(const std::string& name) {
    return test::tempPath("image_" + name);
}

void writeBytes(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

std::string encode(const QImage& im, const char* format, int quality = -1) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    EXPECT_TRUE(im.save(&buffer, format, quality));
    return bytes.toStdString();
}

std::string readError(const std::string& path) {
    return test::errorWithin(
        "readImageFile", [](const std::string& p) { render::readImageFile(p); }, path, path);
}

// A 48 × 40 colour pattern as JPEG, baseline or progressive (Qt's encoder, libjpeg's script).
std::string patternJpeg(bool progressive) {
    QImage im(48, 40, QImage::Format_RGB32);
    for (int y = 0; y < im.height(); ++y)
        for (int x = 0; x < im.width(); ++x) im.setPixel(x, y, qRgb(x * 5, y * 6, (x * y) % 256));
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QImageWriter w(&buffer, "jpeg");
    w.setProgressiveScanWrite(progressive);
    EXPECT_TRUE(w.write(im));
    return bytes.toStdString();
}

std::string le32(uint32_t v) {
    return {char(v), char(v >> 8), char(v >> 16), char(v >> 24)};
}

using test::pngHeader;

}  // namespace

TEST(ImageFile, ColourBecomesBt601LumaOverWhite) {
    QImage im(4, 1, QImage::Format_ARGB32);
    im.setPixel(0, 0, qRgba(255, 0, 0, 255));    // 0.299 · 255 = 76.2 → 76
    im.setPixel(1, 0, qRgba(0, 255, 0, 255));    // 149.7 → 150
    im.setPixel(2, 0, qRgba(10, 200, 30, 255));  // 2.99 + 117.4 + 3.42 = 123.81 → 124
    im.setPixel(3, 0, qRgba(0, 0, 0, 0));        // transparent: white
    writeBytes(tmp("colour.png"), encode(im, "PNG"));
    const GrayImage g = render::readImageFile(tmp("colour.png"));
    EXPECT_EQ(g.width, 4);
    EXPECT_EQ(g.height, 1);
    EXPECT_EQ(g.pixels, std::vector<uint8_t>({76, 150, 124, 255}));
}

// A pasted image takes the same conversion as a file's, and the same refusals.
TEST(ImageFile, PastedImagesBecomeGrayAsFilesDo) {
    QImage im(3, 1, QImage::Format_ARGB32);
    im.setPixel(0, 0, qRgba(255, 0, 0, 255));  // 76, as in a file
    im.setPixel(1, 0, qRgba(0, 0, 0, 0));      // transparent: white
    im.setPixel(2, 0, qRgba(0, 0, 0, 128));    // half black over white: 255 · 127 / 255 = 127
    const GrayImage g = render::grayImage(im, "the pasted image");
    EXPECT_EQ(g.width, 3);
    EXPECT_EQ(g.height, 1);
    EXPECT_EQ(g.pixels, std::vector<uint8_t>({76, 255, 127}));
    EXPECT_EQ(test::errorOf([] { render::grayImage(QImage(), "the pasted image"); }),
              "the pasted image holds no image");
}

TEST(ImageFile, GrayPngRoundTripsExactly) {
    GrayImage g{5, 3, {}};
    for (int i = 0; i < 15; ++i) g.pixels.push_back(uint8_t(i * 17));
    render::writeGrayPng(tmp("gray.png"), g);
    const GrayImage back = render::readImageFile(tmp("gray.png"));
    EXPECT_EQ(back.width, 5);
    EXPECT_EQ(back.height, 3);
    EXPECT_EQ(back.pixels, g.pixels);
}

// The bytes a workspace keeps of a pasted image: the same PNG, read back exactly, and bytes
// that are no image, truncated or huge refused as a file's are, naming what they were.
TEST(ImageFile, GrayPngBytesRoundTripAndBadBytesAreRefused) {
    GrayImage g{4, 2, {0, 10, 200, 255, 1, 2, 3, 4}};
    const std::string png = render::grayPng(g);
    const GrayImage back = render::readImageBytes(png, "the pasted image");
    EXPECT_EQ(back.width, 4);
    EXPECT_EQ(back.height, 2);
    EXPECT_EQ(back.pixels, g.pixels);
    const auto bad = [](const std::string& bytes) {
        return test::errorOf([&] { render::readImageBytes(bytes, "the kept image"); });
    };
    EXPECT_HAS(bad(""), "the kept image is empty (0 bytes), not an image");
    EXPECT_HAS(bad("hello, world"), "the kept image is not an image attnviz reads");
    EXPECT_HAS(bad(png.substr(0, png.size() - 5)), "the kept image is truncated");
    EXPECT_HAS(bad(pngHeader(100000, 100000)),
               "the kept image declares an image of 100000×100000 pixels");
    EXPECT_HAS(test::errorOf([] { render::grayPng(GrayImage{}); }), "no image to write");
}

TEST(ImageFile, ReadsJpegAndBmp) {
    QImage im(40, 30, QImage::Format_RGB32);
    im.fill(qRgb(128, 128, 128));
    writeBytes(tmp("gray.jpg"), encode(im, "JPEG", 95));
    writeBytes(tmp("gray.bmp"), encode(im, "BMP"));
    for (const char* name : {"gray.jpg", "gray.bmp"}) {
        const GrayImage g = render::readImageFile(tmp(name));
        EXPECT_EQ(g.width, 40) << name;
        EXPECT_EQ(g.height, 30) << name;
        for (uint8_t p : g.pixels) EXPECT_NEAR(p, 128, 2) << name;
    }
    // ".jpeg" and upper case name the same format.
    writeBytes(tmp("GRAY.JPEG"), encode(im, "JPEG"));
    EXPECT_EQ(render::readImageFile(tmp("GRAY.JPEG")).width, 40);
}

TEST(ImageFile, RefusesTruncatedFiles) {
    QImage im(64, 64, QImage::Format_RGB32);
    for (int y = 0; y < 64; ++y)
        for (int x = 0; x < 64; ++x) im.setPixel(x, y, qRgb(x * 4, y * 4, (x ^ y) * 4));
    const std::string png = encode(im, "PNG"), jpeg = encode(im, "JPEG");
    writeBytes(tmp("cut.png"), png.substr(0, png.size() / 2));
    EXPECT_HAS(readError(tmp("cut.png")), "'" + tmp("cut.png") + "' is truncated");
    writeBytes(tmp("cut.jpg"), jpeg.substr(0, jpeg.size() / 2));
    EXPECT_HAS(readError(tmp("cut.jpg")), "'" + tmp("cut.jpg") + "' is truncated");
    writeBytes(tmp("header.png"), png.substr(0, 20));
    EXPECT_HAS(readError(tmp("header.png")), tmp("header.png"));
    const std::string bmp = encode(im, "BMP");
    writeBytes(tmp("cut.bmp"), bmp.substr(0, bmp.size() / 2));
    EXPECT_HAS(readError(tmp("cut.bmp")), "'" + tmp("cut.bmp") + "' is truncated: the BMP holds");
}

TEST(ImageFile, RefusesHugeDeclaredSizesBeforeDecoding) {
    writeBytes(tmp("huge.png"), pngHeader(100000, 100000));
    EXPECT_HAS(readError(tmp("huge.png")), "'" + tmp("huge.png") +
                                               "' declares an image of 100000×100000 pixels; "
                                               "the limit is 67108864 pixels");
    // A BMP header of 100000 × 100000 24-bit pixels and no pixels.
    const std::string dib = le32(40) + le32(100000) + le32(100000) +
                            std::string("\x01\x00\x18\x00", 4) + le32(0) + le32(0) + le32(2835) +
                            le32(2835) + le32(0) + le32(0);
    writeBytes(tmp("huge.bmp"), "BM" + le32(54) + le32(0) + le32(54) + dib);
    EXPECT_HAS(readError(tmp("huge.bmp")),
               "'" + tmp("huge.bmp") + "' declares an image of 100000×100000");
    // Just over the limit in one dimension: 8193 × 8192.
    writeBytes(tmp("over.png"), pngHeader(8193, 8192));
    EXPECT_HAS(readError(tmp("over.png")), "declares an image of 8193×8192 pixels");
}

TEST(ImageFile, RefusesEmptyAndWrongFiles) {
    writeBytes(tmp("empty.png"), "");
    EXPECT_HAS(readError(tmp("empty.png")), "'" + tmp("empty.png") + "' is empty (0 bytes)");
    writeBytes(tmp("text.png"), "hello, not an image\n");
    EXPECT_HAS(readError(tmp("text.png")),
               "'" + tmp("text.png") + "' is not an image attnviz reads");
    QImage im(8, 8, QImage::Format_RGB32);
    im.fill(Qt::white);
    const std::string png = encode(im, "PNG");
    writeBytes(tmp("png.jpg"), png);
    EXPECT_HAS(readError(tmp("png.jpg")),
               "'" + tmp("png.jpg") + "' holds a PNG image, but its name says JPEG");
    writeBytes(tmp("png.txt"), png);
    EXPECT_HAS(readError(tmp("png.txt")), "holds a PNG image, but its name ends in '.txt'");
    writeBytes(tmp("noext"), png);
    EXPECT_HAS(readError(tmp("noext")), "holds a PNG image, but its name has no extension");
    // Formats Qt reads but attnviz does not take (a vector drawing, an icon).
    writeBytes(tmp("pic.svg"), "<svg xmlns='http://www.w3.org/2000/svg' width='10' height='10'/>");
    EXPECT_HAS(readError(tmp("pic.svg")), "is not an image attnviz reads");
}

TEST(ImageFile, RefusesWhatIsNotARegularFile) {
    const std::string dir = tmp("dir.png");
    std::filesystem::create_directories(dir);
    EXPECT_HAS(readError(dir), "'" + dir + "' is a directory, not a file");
    const std::string fifo = tmp("fifo.png");
    ::unlink(fifo.c_str());
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    EXPECT_HAS(readError(fifo), "'" + fifo + "' is a FIFO (named pipe), not a file");
    ::unlink(fifo.c_str());
    EXPECT_HAS(readError("/dev/zero"), "'/dev/zero' is a character device, not a file");
    EXPECT_HAS(readError(tmp("missing.png")), tmp("missing.png"));
}

// A progressive "scan bomb" (issue 48, item 5): a small file whose thousands of scans each
// walk every block. Refused before decoding by its scan count, or by pixels × scans, at once;
// a JPEG within both limits is read.
TEST(ImageFile, RefusesJpegsOfTooManyScansBeforeDecoding) {
    const std::string bomb = test::progressiveJpeg(1024, 1024, 882 * 3, 3);  // 2,649 scans
    EXPECT_LT(bomb.size(), 200000u);
    writeBytes(tmp("bomb.jpg"), bomb);
    QElapsedTimer t;
    t.start();
    EXPECT_HAS(readError(tmp("bomb.jpg")),
               "'" + tmp("bomb.jpg") + "' is a JPEG of 2649 scans; the limit is 100 scans");
    EXPECT_LT(t.elapsed(), 500);
    // 20 scans of 8192 × 8192: few scans, but 16 passes over the largest image is the limit.
    writeBytes(tmp("wide.jpg"), test::progressiveJpeg(8192, 8192, 19));
    t.restart();
    EXPECT_HAS(readError(tmp("wide.jpg")),
               "'" + tmp("wide.jpg") +
                   "' is a JPEG of 8192×8192 pixels in 20 scans: "
                   "1342177280 pixels × scans; the limit is 1073741824");
    EXPECT_LT(t.elapsed(), 500);
    // Exactly 100 scans, and a progressive JPEG as encoders write it: read.
    writeBytes(tmp("hundred.jpg"), test::progressiveJpeg(40, 24, 99));
    const GrayImage g = render::readImageFile(tmp("hundred.jpg"));
    EXPECT_EQ(g.width, 40);
    EXPECT_EQ(g.pixels, std::vector<uint8_t>(40 * 24, 128));
    writeBytes(tmp("progressive.jpg"), patternJpeg(true));
    EXPECT_EQ(render::readImageFile(tmp("progressive.jpg")).width, 48);
    // The bytes a workspace keeps take the same limit.
    EXPECT_HAS(test::errorOf([&] { render::readImageBytes(bomb, "the kept image"); }),
               "the kept image is a JPEG of 2649 scans");
}

// Every cut of a JPEG (baseline, progressive; with the end-of-image marker put back after
// the cut, as a repair tool would) is refused with the place it broke, or, where the cut
// leaves a whole image (a progressive JPEG cut between scans is one of fewer scans), gives
// exactly the pixels that image decodes to: never a picture filled in grey taken as whole.
TEST(ImageFile, RefusesEveryCutOfAJpegSayingWhere) {
    for (const bool progressive : {false, true}) {
        const std::string whole = patternJpeg(progressive);
        const GrayImage full = render::readImageBytes(whole, "whole");
        int refused = 0, cuts = 0;
        for (size_t cut = 2; cut + 2 < whole.size(); ++cut) {
            const std::string part = whole.substr(0, cut);
            ++cuts;
            const std::string e = test::errorOf([&] { render::readImageBytes(part, "the cut"); });
            EXPECT_HAS(e,
                       "the cut is truncated: the JPEG data ends at byte " + std::to_string(cut));
            const std::string mended = part + "\xFF\xD9";
            try {
                const GrayImage g = render::readImageBytes(mended, "the mended");
                // Only a progressive JPEG cut between its segments (at a marker, or after the
                // marker's 0xFF, which then reads as a fill byte) is a whole image.
                const auto code = [&](size_t at) {
                    const uint8_t c = uint8_t(whole[at]);
                    return c != 0x00 && c != 0xFF && (c < 0xD0 || c > 0xD7);
                };
                const bool between = (uint8_t(whole[cut]) == 0xFF && code(cut + 1)) ||
                                     (uint8_t(whole[cut - 1]) == 0xFF && code(cut));
                EXPECT_TRUE(progressive && between)
                    << "cut at " << cut << " of " << whole.size() << " read as whole";
                EXPECT_EQ(g.width, full.width);
            } catch (const Error& ex) {
                ++refused;
                EXPECT_HAS(std::string(ex.what()), "the mended");
            }
        }
        EXPECT_GT(refused, cuts * 9 / 10) << (progressive ? "progressive" : "baseline");
    }
    // The messages say where: inside a segment, inside a scan's data.
    const std::string jpeg = patternJpeg(false);
    const size_t sos = jpeg.find("\xFF\xDA");
    EXPECT_HAS(test::errorOf([&] { render::readImageBytes(jpeg.substr(0, 30), "x"); }),
               "x is truncated: the JPEG data ends at byte 30, inside its");
    EXPECT_HAS(test::errorOf([&] { render::readImageBytes(jpeg.substr(0, sos + 40), "x"); }),
               "x is truncated: the JPEG data ends at byte " + std::to_string(sos + 40) +
                   ", inside the data of scan 1 (of 1)");
}

// Damaged scan data (a run of bits that is no Huffman code) or other bytes where a marker
// belongs: the decoder's warning is an error here, naming the file and about where.
TEST(ImageFile, RefusesADamagedJpegWithTheDecodersWords) {
    for (const bool progressive : {false, true}) {
        std::string jpeg = patternJpeg(progressive);
        const size_t data = jpeg.find("\xFF\xDA") + 20;
        for (size_t k = 0; k < 40; k += 2) jpeg.replace(data + k, 2, "\xFF\x00", 2);
        writeBytes(tmp("damaged.jpg"), jpeg);
        const std::string e = readError(tmp("damaged.jpg"));
        EXPECT_HAS(e, "'" + tmp("damaged.jpg") + "' is damaged near byte");
        EXPECT_HAS(e, "Corrupt JPEG data");
    }
    std::string jpeg = patternJpeg(false);
    const size_t dqt = jpeg.find("\xFF\xDB");
    jpeg.insert(dqt, "junk");
    EXPECT_HAS(test::errorOf([&] { render::readImageBytes(jpeg, "x"); }),
               "x is damaged: byte " + std::to_string(dqt) +
                   " should begin a JPEG marker (0xFF), it is 0x6A");
}

// A truncated PNG whose end chunk is put back after the cut: refused, not filled in.
TEST(ImageFile, RefusesAPngCutAndMended) {
    QImage im(64, 64, QImage::Format_RGB32);
    for (int y = 0; y < 64; ++y)
        for (int x = 0; x < 64; ++x) im.setPixel(x, y, qRgb(x * 4, y * 4, (x ^ y) * 4));
    const std::string png = encode(im, "PNG");
    const std::string iend = png.substr(png.size() - 12);
    for (size_t cut = 8; cut + 12 < png.size(); cut += 7) {
        const std::string e =
            test::errorOf([&] { render::readImageBytes(png.substr(0, cut) + iend, "the cut"); });
        EXPECT_HAS(e, "the cut") << "cut at " << cut;
    }
}

// A read given up: Cancelled, before the decoder starts or at its next read.
TEST(ImageFile, ACancelledReadThrowsCancelled) {
    const std::atomic<bool> cancel{true};
    writeBytes(tmp("c.jpg"), patternJpeg(true));
    EXPECT_THROW(render::readImageFile(tmp("c.jpg"), &cancel), Cancelled);
    EXPECT_THROW(render::readImageBytes(patternJpeg(false), "x", &cancel), Cancelled);
}
