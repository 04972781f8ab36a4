// SPDX-License-Identifier: GPL-3.0-or-later
#include "idx.h"

#include <zlib.h>

#include <algorithm>

#include "error.h"
#include "input_limits.h"

namespace attnviz {
namespace {

std::string typeName(unsigned char t) {
    switch (t) {
        case 0x08:
            return "unsigned byte";
        case 0x09:
            return "signed byte";
        case 0x0B:
            return "16-bit integer";
        case 0x0C:
            return "32-bit integer";
        case 0x0D:
            return "32-bit float";
        case 0x0E:
            return "64-bit float";
        default:
            return "unknown";
    }
}

std::string hex(unsigned v) {
    static const char* digits = "0123456789ABCDEF";
    std::string s = "0x";
    s += digits[(v >> 4) & 15];
    s += digits[v & 15];
    return s;
}

}  // namespace

uint64_t IdxArray::elements() const {
    uint64_t n = 1;
    for (uint32_t d : dims) n *= d;
    return dims.empty() ? 0 : n;
}

std::string gunzip(std::string_view bytes, const std::string& what, uint64_t maxBytes) {
    z_stream z{};
    // 16 + MAX_WBITS: a gzip wrapper only (no zlib or raw deflate), its CRC and size checked.
    if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) throw Error(what + ": cannot start zlib");
    std::string out;
    const size_t chunk = 1 << 16;
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
    size_t fed = 0;
    int rc = Z_OK;
    auto fail = [&](const std::string& m) {
        inflateEnd(&z);
        throw Error(what + ": " + m);
    };
    while (rc != Z_STREAM_END) {
        if (z.avail_in == 0 && fed < bytes.size()) {
            const size_t n = std::min<size_t>(bytes.size() - fed, 1u << 30);
            z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data() + fed));
            z.avail_in = static_cast<uInt>(n);
            fed += n;
        }
        // Room for one byte past the limit: a stream that fills it is refused, one that
        // ends exactly at the limit is not.
        const size_t before = out.size();
        const size_t room = std::min<uint64_t>(chunk, maxBytes + 1 - before);
        out.resize(before + room);
        z.next_out = reinterpret_cast<Bytef*>(&out[before]);
        z.avail_out = static_cast<uInt>(room);
        rc = inflate(&z, Z_NO_FLUSH);
        out.resize(before + (room - z.avail_out));
        if (out.size() > maxBytes)
            fail("decompresses to more than the limit of " + std::to_string(maxBytes) +
                 " bytes (refused there, without inflating the rest)");
        if (rc == Z_STREAM_END) break;
        if (rc == Z_BUF_ERROR && z.avail_in == 0 && fed == bytes.size())
            fail("the gzip stream is truncated (it ends before its last block)");
        if (rc == Z_DATA_ERROR)
            fail(std::string("is not valid gzip data (") + (z.msg ? z.msg : "corrupt") + ")");
        if (rc == Z_MEM_ERROR) fail("zlib ran out of memory");
        if (rc != Z_OK && rc != Z_BUF_ERROR) fail("zlib error " + std::to_string(rc));
    }
    const uint64_t left = z.avail_in + (bytes.size() - fed);
    inflateEnd(&z);
    if (left > 0)
        throw Error(what + ": " + std::to_string(left) +
                    " bytes follow the gzip stream (one member expected, nothing after it)");
    return out;
}

IdxArray parseIdx(std::string_view bytes, const std::string& what, uint64_t maxBytes) {
    if (bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1F &&
        static_cast<unsigned char>(bytes[1]) == 0x8B) {
        // The header is at most 4 + 4·kMaxIdxDims bytes on top of the elements.
        const std::string raw = gunzip(bytes, what, maxBytes + 4 + 4 * kMaxIdxDims);
        return parseIdx(raw, what + " (decompressed)", maxBytes);
    }
    auto u8 = [&](size_t i) { return static_cast<unsigned char>(bytes[i]); };
    if (bytes.size() < 4)
        throw Error(what + " is " + std::to_string(bytes.size()) +
                    " bytes long: too short for an IDX header (4 bytes and the sizes)");
    if (u8(0) != 0 || u8(1) != 0)
        throw Error(what + " is not an IDX file: it starts with " + hex(u8(0)) + " " + hex(u8(1)) +
                    ", not 0x00 0x00 (or gzip's 0x1F 0x8B)");
    if (u8(2) != 0x08)
        throw Error(what + " holds elements of type " + hex(u8(2)) + " (" + typeName(u8(2)) +
                    "); attnviz reads IDX files of unsigned bytes (0x08) only");
    const int n = u8(3);
    if (n < 1 || n > kMaxIdxDims)
        throw Error(what + " has " + std::to_string(n) +
                    " dimensions; an IDX array here has 1 to " + std::to_string(kMaxIdxDims));
    const size_t header = 4 + 4 * size_t(n);
    if (bytes.size() < header)
        throw Error(what + " is truncated: it ends inside the " + std::to_string(n) +
                    " dimension sizes");
    IdxArray a;
    uint64_t count = 1;
    for (int k = 0; k < n; ++k) {
        const size_t o = 4 + 4 * size_t(k);
        const uint32_t s = (uint32_t(u8(o)) << 24) | (uint32_t(u8(o + 1)) << 16) |
                           (uint32_t(u8(o + 2)) << 8) | uint32_t(u8(o + 3));
        if (s == 0) throw Error(what + ": dimension " + std::to_string(k) + " has size 0");
        count *= s;  // ≤ maxBytes before, ≤ 2^32 factor: no overflow in 64 bits
        if (count > maxBytes)
            throw Error(what + ": the sizes ask for more than " + std::to_string(maxBytes) +
                        " elements (dimension " + std::to_string(k) + " is " + std::to_string(s) +
                        ")");
        a.dims.push_back(s);
    }
    const uint64_t have = bytes.size() - header;
    if (have < count)
        throw Error(what + " is truncated: its sizes need " + std::to_string(count) +
                    " bytes of data, it has " + std::to_string(have));
    if (have > count)
        throw Error(what + " has " + std::to_string(have - count) +
                    " bytes after the data its sizes describe");
    a.data.assign(bytes.begin() + long(header), bytes.end());
    return a;
}

IdxArray readIdx(const std::string& path, uint64_t maxBytes) {
    const std::string bytes = readTextFile(path, kMaxIdxFileBytes, "IDX file");
    return parseIdx(bytes, "'" + path + "'", maxBytes);
}

}  // namespace attnviz
