// SPDX-License-Identifier: GPL-3.0-or-later
#include "base64.h"

#include <array>

#include "error.h"

namespace attnviz {
namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// The value of each character, -1 outside the alphabet.
std::array<int, 256> decodeTable() {
    std::array<int, 256> t{};
    t.fill(-1);
    for (int i = 0; i < 64; ++i) t[static_cast<unsigned char>(kAlphabet[i])] = i;
    return t;
}

}  // namespace

std::string base64Encode(std::string_view bytes) {
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    for (size_t i = 0; i < bytes.size(); i += 3) {
        const size_t n = std::min<size_t>(3, bytes.size() - i);
        uint32_t v = 0;
        for (size_t k = 0; k < 3; ++k)
            v = (v << 8) | (k < n ? static_cast<unsigned char>(bytes[i + k]) : 0u);
        for (size_t k = 0; k < 4; ++k) out += k <= n ? kAlphabet[(v >> (18 - 6 * k)) & 63] : '=';
    }
    return out;
}

std::string base64Decode(std::string_view text) {
    static const std::array<int, 256> table = decodeTable();
    if (text.size() % 4 != 0) throw Error("base64 text has a length that is not a multiple of 4");
    std::string out;
    out.reserve(text.size() / 4 * 3);
    for (size_t i = 0; i < text.size(); i += 4) {
        const bool last = i + 4 == text.size();
        const int pad = last ? (text[i + 3] == '=') + (text[i + 2] == '=') : 0;
        uint32_t v = 0;
        for (size_t k = 0; k < 4; ++k) {
            const int x = k >= 4u - pad ? 0 : table[static_cast<unsigned char>(text[i + k])];
            if (x < 0)
                throw Error("base64 text has an invalid character at offset " +
                            std::to_string(i + k));
            v = (v << 6) | static_cast<uint32_t>(x);
        }
        for (int k = 0; k < 3 - pad; ++k) out += static_cast<char>((v >> (16 - 8 * k)) & 255);
    }
    return out;
}

}  // namespace attnviz
