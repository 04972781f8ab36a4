// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Hostile JPEG files made in the test, not committed: a progressive "scan bomb" (issue 48,
// item 5), a small file that asks the decoder for hundreds or thousands of passes over every
// block of a large image.
//
//   std::string bomb = test::progressiveJpeg(8192, 8192, 882);  // ~60 KB, 883 scans
//
// The file is a valid progressive JPEG (ITU T.81 G.1.2, which libjpeg decodes without a
// warning): one frame of `components` components (1: gray, 3: colour, no subsampling), a
// quantization table of ones, one DC scan per component (every block's DC difference 0: mid
// gray), then AC scans, component by component and coefficient by coefficient (k = 1 … 63):
// a first scan with successive approximation Al = 13, then its 13 refinements down to Al = 0,
// 14 scans per coefficient (so at most 882 AC scans per component). Every AC scan is coded
// as end-of-band runs of up to 32,767 blocks (a few bytes for a whole image), which is what
// makes the bomb small.
#include <cstdint>
#include <string>

namespace attnviz::test {

namespace jpeg_detail {

inline std::string be16(int v) {
    return {char((v >> 8) & 0xFF), char(v & 0xFF)};
}

inline std::string segment(uint8_t marker, const std::string& body) {
    return std::string{char(0xFF), char(marker)} + be16(int(body.size()) + 2) + body;
}

// Entropy-coded bits, most significant first, with every 0xFF byte stuffed (0xFF 0x00) and
// the last byte padded with ones.
class Bits {
public:
    void put(uint32_t code, int length) {
        for (int k = length - 1; k >= 0; --k) {
            m_byte = uint8_t(m_byte << 1 | ((code >> k) & 1));
            if (++m_count == 8) flushByte();
        }
    }
    std::string finish() {
        while (m_count != 0) put(1, 1);
        return std::move(m_out);
    }

private:
    void flushByte() {
        m_out += char(m_byte);
        if (m_byte == 0xFF) m_out += char(0);
        m_byte = 0, m_count = 0;
    }
    std::string m_out;
    uint8_t m_byte = 0;
    int m_count = 0;
};

// A scan of `blocks` blocks that are all end-of-band: EOBn symbols (n << 4, coded in the
// AC table below as 4 bits: n) each followed by n bits, run = 2^n + those bits.
inline std::string endOfBandRuns(uint64_t blocks) {
    Bits bits;
    while (blocks > 0) {
        const uint32_t run = uint32_t(blocks < 32767 ? blocks : 32767);
        int n = 0;
        while ((run >> (n + 1)) != 0) ++n;
        bits.put(uint32_t(n), 4);
        bits.put(run - (1u << n), n);
        blocks -= run;
    }
    return bits.finish();
}

inline std::string scanHeader(int component, int ss, int se, int ah, int al) {
    return segment(0xDA,
                   std::string{1, char(component), 0x00, char(ss), char(se), char(ah << 4 | al)});
}

}  // namespace jpeg_detail

// A progressive JPEG of w × h mid-gray pixels with one DC scan per component and the first
// `acScans` AC scans of the script above (at most 882 × components). See the top of the file.
inline std::string progressiveJpeg(int w, int h, int acScans, int components = 1) {
    using namespace jpeg_detail;
    std::string f{char(0xFF), char(0xD8)};
    f += segment(0xDB, std::string(1, 0) + std::string(64, 1));  // table 0, 8-bit, all ones
    std::string sof{8};
    sof += be16(h) + be16(w) + char(components);
    for (int c = 1; c <= components; ++c) sof += std::string{char(c), 0x11, 0x00};
    f += segment(0xC2, sof);
    // DC table 0: one symbol, 0 (no difference), coded as the 1-bit code 0.
    std::string dc{0x00, 1};
    dc += std::string(15, 0) + std::string(1, 0);
    f += segment(0xC4, dc);
    // AC table 0: the 15 end-of-band symbols EOB0 … EOB14 (0x00, 0x10, …, 0xE0), 4 bits each.
    std::string ac{0x10, 0, 0, 0, 15};
    ac += std::string(12, 0);
    for (int n = 0; n < 15; ++n) ac += char(n << 4);
    f += segment(0xC4, ac);
    const uint64_t blocks = uint64_t((w + 7) / 8) * uint64_t((h + 7) / 8);
    for (int c = 1; c <= components; ++c) {
        f += scanHeader(c, 0, 0, 0, 0);
        Bits bits;
        for (uint64_t b = 0; b < blocks; ++b) bits.put(0, 1);
        f += bits.finish();
    }
    const std::string runs = endOfBandRuns(blocks);
    int made = 0;
    for (int c = 1; c <= components; ++c)
        for (int k = 1; k <= 63; ++k)
            for (int al = 13; al >= 0; --al) {
                if (made++ == acScans) return f + std::string{char(0xFF), char(0xD9)};
                f += scanHeader(c, k, k, al == 13 ? 0 : al + 1, al) + runs;
            }
    return f + std::string{char(0xFF), char(0xD9)};
}

}  // namespace attnviz::test
