// SPDX-License-Identifier: GPL-3.0-or-later
#include "safetensors.h"

#include <algorithm>
#include <cstring>
#include <nlohmann/json.hpp>
#include <vector>

#include "error.h"
#include "file_io.h"
#include "input_limits.h"

namespace attnviz {
namespace {

using nlohmann::json;

uint64_t readLe64(const uint8_t* p) {
    uint64_t v = 0;
    for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
    return v;
}

}  // namespace

SafeTensorsFile SafeTensorsFile::parse(const uint8_t* data, size_t size) {
    if (size < 8) throw Error("not a safetensors file: only " + std::to_string(size) + " bytes");
    const uint64_t n = readLe64(data);
    if (n > kMaxHeaderBytes) {
        throw Error("oversized header: " + std::to_string(n) + " bytes (limit " +
                    std::to_string(kMaxHeaderBytes) + ")");
    }
    if (n > size - 8) {
        throw Error("truncated file: header of " + std::to_string(n) +
                    " bytes runs past the end of the " + std::to_string(size) + "-byte file");
    }
    json header;
    try {
        header = parseJson(std::string_view(reinterpret_cast<const char*>(data + 8), n), "header",
                           kMaxHeaderBytes);
    } catch (const Error& e) {
        throw Error(std::string("malformed header: ") + e.what());
    }
    if (!header.is_object()) throw Error("malformed header: not a JSON object");
    const uint8_t* buffer = data + 8 + n;
    const uint64_t bufferSize = size - 8 - n;

    SafeTensorsFile f;
    struct Span {
        uint64_t begin, end;
        std::string name;
        std::vector<int64_t> dims;
    };
    std::vector<Span> spans;
    for (auto it = header.begin(); it != header.end(); ++it) {
        const std::string& name = it.key();
        const json& e = it.value();
        if (name == "__metadata__") {
            if (!e.is_object()) throw Error("malformed header: __metadata__ is not an object");
            for (auto m = e.begin(); m != e.end(); ++m) {
                if (!m.value().is_string())
                    throw Error("malformed header: metadata '" + m.key() + "' is not a string");
                f.metadata[m.key()] = m.value().get<std::string>();
            }
            continue;
        }
        const std::string where = "tensor '" + name + "': ";
        if (!e.is_object() || !e.contains("dtype") || !e.contains("shape") ||
            !e.contains("data_offsets"))
            throw Error(where + "entry needs dtype, shape and data_offsets");
        if (!e["dtype"].is_string()) throw Error(where + "dtype is not a string");
        const auto dtype = e["dtype"].get<std::string>();
        if (dtype != "F32") throw Error(where + "unsupported dtype '" + dtype + "' (expected F32)");
        const json& shape = e["shape"];
        if (!shape.is_array() || shape.size() > 8)
            throw Error(where + "shape must be an array of at most 8 sizes");
        std::vector<int64_t> dims;
        uint64_t count = 1, nonzero = 1;  // element count; product of the non-zero sizes
        for (const auto& s : shape) {
            if (!s.is_number_unsigned())
                throw Error(where + "shape has a negative or non-integer size");
            const uint64_t v = s.get<uint64_t>();
            if (v > (1ull << 40) || (v && nonzero > (1ull << 40) / v))
                throw Error(where + "shape " + shape.dump() + " is too large");
            if (v) nonzero *= v;
            count *= v;
            dims.push_back(static_cast<int64_t>(v));
        }
        const json& off = e["data_offsets"];
        if (!off.is_array() || off.size() != 2 || !off[0].is_number_unsigned() ||
            !off[1].is_number_unsigned())
            throw Error(where + "data_offsets must be two non-negative integers");
        const uint64_t begin = off[0].get<uint64_t>(), end = off[1].get<uint64_t>();
        if (begin > end) throw Error(where + "data_offsets are reversed");
        if (end > bufferSize) {
            throw Error(where + "data runs past the end of the file (offset " +
                        std::to_string(end) + ", data section has " + std::to_string(bufferSize) +
                        " bytes)");
        }
        if (end - begin != count * 4) {
            throw Error(where + "shape " + shapeToString(dims) + " needs " +
                        std::to_string(count * 4) + " bytes but data_offsets span " +
                        std::to_string(end - begin));
        }
        spans.push_back({begin, end, name, std::move(dims)});
    }
    std::sort(spans.begin(), spans.end(), [](const Span& a, const Span& b) {
        return a.begin < b.begin || (a.begin == b.begin && a.end < b.end);
    });
    uint64_t covered = 0;
    for (const auto& s : spans) {
        if (s.begin < covered) {
            throw Error("tensor '" + s.name + "' overlaps another tensor's data (offset " +
                        std::to_string(s.begin) + ")");
        }
        if (s.begin > covered)
            throw Error("data section has unused bytes before tensor '" + s.name + "'");
        covered = s.end;
    }
    if (covered != bufferSize) {
        throw Error("data section has " + std::to_string(bufferSize - covered) +
                    " unused bytes at the end");
    }
    // Only now, with every span inside the buffer and disjoint, is memory allocated: the
    // total is bounded by the file size.
    for (const auto& s : spans) {
        Tensor t(s.dims);
        if (s.end > s.begin) std::memcpy(t.data(), buffer + s.begin, s.end - s.begin);
        f.tensors.emplace(s.name, std::move(t));
    }
    return f;
}

SafeTensorsFile SafeTensorsFile::read(const std::string& path) {
    // The one road for files (core/input_limits.h): a FIFO, device or directory is refused
    // by name without blocking, and the size is checked before anything is read.
    const std::string bytes = readTextFile(path, kMaxFileBytes, "checkpoint");
    try {
        return parse(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
    } catch (const Error& e) {
        throw Error(path + ": " + e.what());
    }
}

std::string SafeTensorsFile::serialize() const {
    json header = json::object();
    if (!metadata.empty()) header["__metadata__"] = metadata;
    uint64_t offset = 0;
    for (const auto& [name, t] : tensors) {
        const uint64_t bytes = static_cast<uint64_t>(t.numel()) * 4;
        header[name] = {
            {"dtype", "F32"}, {"shape", t.shape}, {"data_offsets", {offset, offset + bytes}}};
        offset += bytes;
    }
    std::string h = header.dump();
    while (h.size() % 8) h.push_back(' ');
    std::string out;
    out.reserve(8 + h.size() + offset);
    uint64_t n = h.size();
    for (int i = 0; i < 8; ++i) out.push_back(static_cast<char>((n >> (8 * i)) & 0xFF));
    out += h;
    for (const auto& [name, t] : tensors)
        out.append(reinterpret_cast<const char*>(t.data()), static_cast<size_t>(t.numel()) * 4);
    return out;
}

void SafeTensorsFile::write(const std::string& path) const {
    writeFileAtomically(path, serialize());
}

}  // namespace attnviz
