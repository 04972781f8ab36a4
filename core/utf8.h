// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace attnviz {

// Decodes UTF-8 into code points. Rejects, with an Error naming the byte offset, any
// invalid sequence: stray continuation bytes, truncated sequences, overlong encodings,
// surrogates (U+D800..U+DFFF) and values above U+10FFFF.
std::u32string decodeUtf8(std::string_view text);

// Encodes one code point as UTF-8 (the code point must be valid).
void appendUtf8(std::string& out, char32_t cp);
std::string encodeUtf8(const std::u32string& text);

}  // namespace attnviz
