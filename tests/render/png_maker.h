// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Hostile PNG bytes made in the test, not committed: a header that declares a huge image
// with no pixels behind it (issue 48: the pixel limit must be stated before any decoding, on
// every road — a file, dropped bytes, pasted bytes, a workspace).
//
//   std::string huge = test::pngHeader(100000, 100000);  // 57 bytes
#include <cstdint>
#include <string>

namespace attnviz::test {

namespace png_detail {

inline uint32_t crc32(const std::string& s) {
    uint32_t c = 0xFFFFFFFFu;
    for (unsigned char b : s) {
        c ^= b;
        for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
    }
    return ~c;
}

inline std::string be32(uint32_t v) {
    return {char(v >> 24), char(v >> 16), char(v >> 8), char(v)};
}

inline std::string chunk(const std::string& type, const std::string& data) {
    return be32(uint32_t(data.size())) + type + data + be32(crc32(type + data));
}

}  // namespace png_detail

// A PNG whose header declares w × h 8-bit gray pixels, with a token IDAT and a proper end.
inline std::string pngHeader(uint32_t w, uint32_t h) {
    using namespace png_detail;
    const std::string ihdr = be32(w) + be32(h) + std::string("\x08\x00\x00\x00\x00", 5);
    return std::string("\x89PNG\r\n\x1a\n", 8) + chunk("IHDR", ihdr) +
           chunk("IDAT", std::string("\x78\x9c\x63\x00\x00\x00\x01\x00\x01", 9)) +
           chunk("IEND", "");
}

}  // namespace attnviz::test
