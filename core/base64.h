// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Standard base64 (RFC 4648, with padding), for binary blobs in JSON metadata such as a
// SentencePiece model inside a checkpoint.
#include <string>
#include <string_view>

namespace attnviz {

std::string base64Encode(std::string_view bytes);
// Error on a character outside the alphabet, bad padding or a length not a multiple of 4.
std::string base64Decode(std::string_view text);

}  // namespace attnviz
