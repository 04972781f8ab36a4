// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The IDX format of MNIST and Fashion-MNIST (LeCun et al.; the files under
// /usr/share/datasets/fashion-mnist/), read strictly, plain or gzip-compressed.
//
//   bytes 0, 1      0x00 0x00
//   byte 2          the element type: 0x08 unsigned byte (the only one attnviz reads;
//                   0x09 signed byte, 0x0B int16, 0x0C int32, 0x0D float32, 0x0E float64
//                   are named and refused)
//   byte 3          the number of dimensions n, 1 … kMaxIdxDims
//   bytes 4 … 4n+3  each dimension's size, unsigned 32-bit big-endian, each ≥ 1
//   the rest        the elements, row-major: exactly the product of the sizes, no more
//
// A file that starts with the gzip magic (0x1F 0x8B) is one gzip member that must
// decompress to such an array. Checks, each refused with a message naming the file and the
// rule: regular file of at most kMaxIdxFileBytes (the input road, core/input_limits.h);
// valid, complete gzip with nothing after the member; at most kMaxIdxBytes once
// decompressed (a gzip bomb is stopped there, before it is inflated further); the magic;
// the type; the dimension count; zero sizes; sizes whose product exceeds the limit;
// truncated data; bytes after the data.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace attnviz {

constexpr uint64_t kMaxIdxFileBytes = 256ull << 20;  // the file as stored
constexpr uint64_t kMaxIdxBytes = 256ull << 20;      // the array once decompressed
constexpr int kMaxIdxDims = 4;

struct IdxArray {
    std::vector<uint32_t> dims;  // sizes, outermost first
    std::vector<uint8_t> data;   // product(dims) elements, row-major
    uint64_t elements() const;
};

// Reads and checks `path`. Error naming the path and the rule.
IdxArray readIdx(const std::string& path, uint64_t maxBytes = kMaxIdxBytes);

// The same checks on bytes already read (plain or gzip); `what` names them in messages.
IdxArray parseIdx(std::string_view bytes, const std::string& what,
                  uint64_t maxBytes = kMaxIdxBytes);

// Decompresses one gzip member of at most `maxBytes` output; Error when the stream is not
// gzip, is corrupt or truncated, has bytes after the member, or inflates past the limit.
std::string gunzip(std::string_view bytes, const std::string& what, uint64_t maxBytes);

}  // namespace attnviz
