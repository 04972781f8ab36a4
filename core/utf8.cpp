// SPDX-License-Identifier: GPL-3.0-or-later
#include "utf8.h"

#include "error.h"

namespace attnviz {

std::u32string decodeUtf8(std::string_view text) {
    std::u32string out;
    out.reserve(text.size());
    const auto* s = reinterpret_cast<const unsigned char*>(text.data());
    const size_t n = text.size();
    size_t i = 0;
    auto fail = [&](size_t at, const char* what) {
        throw Error("invalid UTF-8 at byte offset " + std::to_string(at) + ": " + what);
    };
    while (i < n) {
        const unsigned char c = s[i];
        if (c < 0x80) {
            out.push_back(c);
            ++i;
            continue;
        }
        int len = 0;
        char32_t cp = 0;
        char32_t minimum = 0;
        if ((c & 0xE0) == 0xC0) {
            len = 2, cp = c & 0x1F, minimum = 0x80;
        } else if ((c & 0xF0) == 0xE0) {
            len = 3, cp = c & 0x0F, minimum = 0x800;
        } else if ((c & 0xF8) == 0xF0) {
            len = 4, cp = c & 0x07, minimum = 0x10000;
        } else if ((c & 0xC0) == 0x80) {
            fail(i, "unexpected continuation byte");
        } else {
            fail(i, "byte is not valid in UTF-8");
        }
        if (i + len > n) fail(i, "sequence truncated at end of text");
        for (int k = 1; k < len; ++k) {
            if ((s[i + k] & 0xC0) != 0x80) fail(i, "invalid continuation byte");
            cp = (cp << 6) | (s[i + k] & 0x3F);
        }
        if (cp < minimum) fail(i, "overlong encoding");
        if (cp >= 0xD800 && cp <= 0xDFFF) fail(i, "encoded surrogate");
        if (cp > 0x10FFFF) fail(i, "code point above U+10FFFF");
        out.push_back(cp);
        i += len;
    }
    return out;
}

void appendUtf8(std::string& out, char32_t cp) {
    if (cp < 0x80) {
        out.push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
        out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
        out.push_back(static_cast<char>(0xF0 | (cp >> 18)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
}

std::string encodeUtf8(const std::u32string& text) {
    std::string out;
    out.reserve(text.size());
    for (char32_t cp : text) appendUtf8(out, cp);
    return out;
}

}  // namespace attnviz
