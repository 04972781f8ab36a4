// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A person's own image files, read and written with QtGui (no widgets, no display): the
// decoding half of the road from a photo to an image model; the pixel arithmetic that makes
// the model's input is in the core (core/image_input.h).
//
// Reading takes the road of every input file (core/input_limits.h: a regular file of at most
// kMaxImageFileBytes, opened without blocking) and then checks, before decoding, each
// refused with a message naming the file and the rule (docs/limits.md, "Images"):
//   - the content is one of the formats below (decided from the bytes, not the name), and the
//     name's extension says the same format (.jpg for JPEG content, …);
//   - the header's dimensions (Qt's, or for BMP our own reading of its header) are at least
//     1 and at most kMaxImagePixels pixels together; the decoder's own allocation limit is
//     set as well, for formats whose size is known only once decoded;
//   - PNG files end as their format says (the IEND chunk) and an uncompressed BMP holds every
//     row its header declares, since the decoders fill a truncated image in silently;
//   - a JPEG's marker segments are walked (ITU T.81 B.1: each segment's length, each scan's
//     entropy-coded data up to the next marker, past stuffed 0xFF00 and restart markers) to
//     the end-of-image marker: a file that ends early, or has other bytes where a marker
//     belongs, is refused naming the byte and the segment or scan; and its scans are counted:
//     at most kMaxJpegScans, and at most kMaxJpegScanPixels pixels × scans (a "scan bomb", a
//     small progressive JPEG of thousands of scans, keeps a decoder busy for minutes);
//   - while a JPEG decodes, the decoder's warnings (libjpeg's "Corrupt JPEG data: …",
//     "Premature end of JPEG file", which Qt prints and then fills the image in grey) are
//     errors: the file is refused with the decoder's words and about where it broke.
// The decoded image is turned upright (EXIF orientation), laid over white where it is
// transparent, and made grayscale with the luma weights of ITU-R BT.601
// (0.299 R + 0.587 G + 0.114 B, rounded): a gray pixel keeps its value exactly.
#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "core/garment_cutout.h"
#include "core/image_input.h"

class QImage;

namespace attnviz::render {

// Scans a JPEG may have: a progressive JPEG has about 10 (libjpeg's default script: 10 for
// colour, 6 for gray); libjpeg-turbo's tools take a limit (djpeg -maxscans) for the same reason.
constexpr int kMaxJpegScans = 100;
// Pixels × scans a JPEG may ask of the decoder (each scan walks every block of the image):
// 16 scans of the largest image (8192 × 8192), 100 scans of 3.3 megapixels.
constexpr uint64_t kMaxJpegScanPixels = 16 * kMaxImagePixels;

// Formats read, by Qt's name: png, jpeg, bmp, gif, webp, tiff, pbm, pgm, ppm (those that
// the installed Qt image plugins provide).
std::vector<std::string> imageFileFormats();
// Whether `path`'s extension names one of those formats (".jpg", ".JPEG", ".tif", …): how a
// folder's image files are told from its other files.
bool isImageFileName(const std::string& path);

// Reads `path` as above. Error naming the path and what is wrong. `cancel` (may be null)
// gives up by throwing Cancelled once it is true: checked before decoding and at each read of
// the decoder (every 4 KiB), so a decoder still reading stops at once; one that has read all
// it needs finishes its work (bounded by the limits above) first.
GrayImage readImageFile(const std::string& path, const std::atomic<bool>* cancel = nullptr);

// Image bytes held in memory (a pasted image kept in a workspace, as grayPng made them;
// a pasted file's bytes), checked and decoded as readImageFile does a file's, `name` in
// every message.
GrayImage readImageBytes(const std::string& bytes, const std::string& name,
                         const std::atomic<bool>* cancel = nullptr);

// An image already decoded (a pasted one: the clipboard's) as readImageFile makes a file's:
// its size checked (`name` in the message), laid over white, in BT.601 luma. Error when it is
// null or larger than kMaxImagePixels.
GrayImage grayImage(const QImage& image, const std::string& name);

// The same in colour, for the garment cut-out (core/garment_cutout.h): RGB laid over white,
// each channel rounded as the gray is, so an opaque image's core::grayImage is the gray that
// readImageFile gives.
// `cancel` as for readImageFile.
ColorImage readColorImageFile(const std::string& path, const std::atomic<bool>* cancel = nullptr);
ColorImage readColorImageBytes(const std::string& bytes, const std::string& name,
                               const std::atomic<bool>* cancel = nullptr);
ColorImage colorImage(const QImage& image, const std::string& name);
// `image` as the bytes of an 8-bit RGB PNG (lossless: readColorImageBytes gives it back), and
// written to a file atomically (Error naming the path).
std::string colorPng(const ColorImage& image);
// `image` as a QImage (RGB888) for showing; a null QImage when it is empty.
QImage qImage(const ColorImage& image);
void writeColorPng(const std::string& path, const ColorImage& image);

// `image` as the bytes of an 8-bit grayscale PNG (lossless: readImageBytes gives it back).
std::string grayPng(const GrayImage& image);
// Writes `image` as an 8-bit grayscale PNG, atomically (core/file_io.h). Error naming the path.
void writeGrayPng(const std::string& path, const GrayImage& image);

}  // namespace attnviz::render
