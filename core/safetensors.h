// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// safetensors, as attnviz reads and writes it (docs/model-spec.md, "Checkpoint file"):
//
//   bytes 0..7   N, the header size, unsigned 64-bit little-endian
//   bytes 8..8+N JSON object: {"__metadata__": {string: string},
//                              "<name>": {"dtype": "F32", "shape": [..],
//                                         "data_offsets": [begin, end]}, ...}
//                (the writer pads it with spaces to a multiple of 8 bytes)
//   the rest     the data buffer; tensor bytes are [begin, end) relative to its start,
//                little-endian, row-major
//
// The reader trusts nothing. It rejects, with a message naming the problem: a file shorter
// than 8 bytes; a header size above kMaxHeaderBytes or past the end of the file; a header
// that is not a JSON object; an entry without dtype/shape/data_offsets or with wrong types;
// any dtype but F32; negative dimensions or an element count that overflows; offsets that
// are reversed, run past the buffer, disagree with the shape, overlap another tensor or
// leave bytes of the buffer unused; metadata values that are not strings.
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "tensor.h"

namespace attnviz {

class SafeTensorsFile {
public:
    static constexpr uint64_t kMaxHeaderBytes = 64ull << 20;
    static constexpr uint64_t kMaxFileBytes = 4ull << 30;

    std::map<std::string, Tensor> tensors;
    std::map<std::string, std::string> metadata;

    // Called by read() with the metadata and the tensor shapes once the header has passed its
    // checks and before any data is read; it throws Error to refuse the file.
    using HeaderCheck =
        std::function<void(const std::map<std::string, std::string>& metadata,
                           const std::map<std::string, std::vector<int64_t>>& shapes)>;

    static SafeTensorsFile parse(const uint8_t* data, size_t size);
    // Reads the 8-byte size and the header first and checks them (offsets included, then
    // `check`): a bad header is refused without reading the data, in any file size.
    static SafeTensorsFile read(const std::string& path, const HeaderCheck& check = {});
    std::string serialize() const;
    // Atomic: writes a temporary file next to `path`, flushes it, then renames it over `path`.
    void write(const std::string& path) const;
};

}  // namespace attnviz
