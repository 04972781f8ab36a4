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
//   - PNG and JPEG files end as their format says (the IEND chunk; the end-of-image marker
//     after the last scan) and an uncompressed BMP holds every row its header declares,
//     since the decoders fill a truncated image in silently.
// The decoded image is turned upright (EXIF orientation), laid over white where it is
// transparent, and made grayscale with the luma weights of ITU-R BT.601
// (0.299 R + 0.587 G + 0.114 B, rounded): a gray pixel keeps its value exactly.
#include <string>
#include <vector>

#include "core/image_input.h"

class QImage;

namespace attnviz::render {

// Formats read, by Qt's name: png, jpeg, bmp, gif, webp, tiff, pbm, pgm, ppm (those that
// the installed Qt image plugins provide).
std::vector<std::string> imageFileFormats();

// Reads `path` as above. Error naming the path and what is wrong.
GrayImage readImageFile(const std::string& path);

// Image bytes held in memory (a pasted image kept in a workspace, as grayPng made them),
// checked and decoded as readImageFile does a file's, `name` in every message.
GrayImage readImageBytes(const std::string& bytes, const std::string& name);

// An image already decoded (a pasted one: the clipboard's) as readImageFile makes a file's:
// its size checked (`name` in the message), laid over white, in BT.601 luma. Error when it is
// null or larger than kMaxImagePixels.
GrayImage grayImage(const QImage& image, const std::string& name);

// `image` as the bytes of an 8-bit grayscale PNG (lossless: readImageBytes gives it back).
std::string grayPng(const GrayImage& image);
// Writes `image` as an 8-bit grayscale PNG, atomically (core/file_io.h). Error naming the path.
void writeGrayPng(const std::string& path, const GrayImage& image);

}  // namespace attnviz::render
