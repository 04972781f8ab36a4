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

struct Span {
    uint64_t begin, end;
    std::string name;
    std::vector<int64_t> dims;
};

// What the header says: the metadata and where each tensor lies in the data section.
struct Layout {
    std::map<std::string, std::string> metadata;
    std::vector<Span> spans;  // sorted by offset, disjoint, covering the data section
};

// What a file that is no checkpoint is, by its first bytes, for the message: "a JPEG image";
// empty when not one of these.
std::string otherFormat(const uint8_t* b) {
    if (b[0] == 0xFF && b[1] == 0xD8 && b[2] == 0xFF) return "a JPEG image";
    if (b[0] == 0x89 && b[1] == 'P' && b[2] == 'N' && b[3] == 'G') return "a PNG image";
    if (b[0] == 'G' && b[1] == 'I' && b[2] == 'F' && b[3] == '8') return "a GIF image";
    if (b[0] == 'B' && b[1] == 'M') return "a BMP image";
    if (b[0] == '%' && b[1] == 'P' && b[2] == 'D' && b[3] == 'F') return "a PDF document";
    if (b[0] == 'P' && b[1] == 'K' && b[2] == 3 && b[3] == 4)
        return "a ZIP archive (a PyTorch .pt file is one)";
    if (b[0] == 0x1F && b[1] == 0x8B) return "a gzip file";
    if (b[0] == 0x80 && b[1] >= 2 && b[1] <= 5) return "a Python pickle (a PyTorch .pt/.bin file)";
    if (b[0] == '{' || b[0] == '[') return "a JSON text";
    return "";
}

// The header size from the first 8 bytes, checked against the limit and the file size.
uint64_t headerSize(const uint8_t* first8, uint64_t fileSize) {
    if (fileSize < 8)
        throw Error("not a safetensors file: only " + std::to_string(fileSize) + " bytes");
    const uint64_t n = readLe64(first8);
    if (n > SafeTensorsFile::kMaxHeaderBytes || n > fileSize - 8) {
        const std::string other = otherFormat(first8);
        if (!other.empty()) throw Error("not a safetensors checkpoint: the file is " + other);
    }
    if (n > SafeTensorsFile::kMaxHeaderBytes) {
        throw Error("oversized header: " + std::to_string(n) + " bytes (limit " +
                    std::to_string(SafeTensorsFile::kMaxHeaderBytes) + ")");
    }
    if (n > fileSize - 8) {
        throw Error("truncated file: header of " + std::to_string(n) +
                    " bytes runs past the end of the " + std::to_string(fileSize) + "-byte file");
    }
    return n;
}

Layout parseLayout(std::string_view headerText, uint64_t bufferSize) {
    json header;
    try {
        header = parseJson(headerText, "header", SafeTensorsFile::kMaxHeaderBytes);
    } catch (const Error& e) {
        throw Error(std::string("malformed header: ") + e.what());
    }
    if (!header.is_object()) throw Error("malformed header: not a JSON object");
    Layout layout;
    std::vector<Span>& spans = layout.spans;
    for (auto it = header.begin(); it != header.end(); ++it) {
        const std::string& name = it.key();
        const json& e = it.value();
        if (name == "__metadata__") {
            if (!e.is_object()) throw Error("malformed header: __metadata__ is not an object");
            for (auto m = e.begin(); m != e.end(); ++m) {
                if (!m.value().is_string())
                    throw Error("malformed header: metadata '" + excerpt(m.key()) +
                                "' is not a string");
                layout.metadata[m.key()] = m.value().get<std::string>();
            }
            continue;
        }
        const std::string where = "tensor '" + excerpt(name) + "': ";
        if (!e.is_object() || !e.contains("dtype") || !e.contains("shape") ||
            !e.contains("data_offsets"))
            throw Error(where + "entry needs dtype, shape and data_offsets");
        if (!e["dtype"].is_string()) throw Error(where + "dtype is not a string");
        const auto dtype = e["dtype"].get<std::string>();
        if (dtype != "F32")
            throw Error(where + "unsupported dtype '" + excerpt(dtype) + "' (expected F32)");
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
            throw Error("tensor '" + excerpt(s.name) + "' overlaps another tensor's data (offset " +
                        std::to_string(s.begin) + ")");
        }
        if (s.begin > covered)
            throw Error("data section has unused bytes before tensor '" + excerpt(s.name) + "'");
        covered = s.end;
    }
    if (covered != bufferSize) {
        throw Error("data section has " + std::to_string(bufferSize - covered) +
                    " unused bytes at the end");
    }
    return layout;
}

}  // namespace

SafeTensorsFile SafeTensorsFile::parse(const uint8_t* data, size_t size) {
    const uint64_t n = headerSize(data, size);
    Layout layout =
        parseLayout(std::string_view(reinterpret_cast<const char*>(data + 8), n), size - 8 - n);
    const uint8_t* buffer = data + 8 + n;
    // Only now, with every span inside the buffer and disjoint, is memory allocated: the
    // total is bounded by the file size.
    SafeTensorsFile f;
    f.metadata = std::move(layout.metadata);
    for (const auto& s : layout.spans) {
        Tensor t(s.dims);
        if (s.end > s.begin) std::memcpy(t.data(), buffer + s.begin, s.end - s.begin);
        f.tensors.emplace(s.name, std::move(t));
    }
    return f;
}

SafeTensorsFile SafeTensorsFile::read(const std::string& path, const HeaderCheck& check) {
    // The one road for files (core/input_limits.h): a FIFO, device or directory is refused
    // by name without blocking, and the size is checked before anything is read. Then the
    // header alone is read and checked, offsets and all (and by `check`), before the data.
    const InputFile file(path, kMaxFileBytes, "checkpoint");
    try {
        uint8_t first8[8] = {};
        if (file.size() >= 8) file.read(0, first8, 8);
        const uint64_t n = headerSize(first8, file.size());
        std::string text(size_t(n), '\0');
        file.read(8, text.data(), n);
        Layout layout = parseLayout(text, file.size() - 8 - n);
        text = std::string();
        if (check) {
            std::map<std::string, std::vector<int64_t>> shapes;
            for (const auto& s : layout.spans) shapes[s.name] = s.dims;
            check(layout.metadata, shapes);
        }
        SafeTensorsFile f;
        f.metadata = std::move(layout.metadata);
        for (const auto& s : layout.spans) {
            Tensor t(s.dims);
            if (s.end > s.begin) file.read(8 + n + s.begin, t.data(), s.end - s.begin);
            f.tensors.emplace(s.name, std::move(t));
        }
        return f;
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
    if (h.size() > kMaxHeaderBytes) {  // every reader would refuse the file: never write it
        throw Error("the checkpoint's header would be " + std::to_string(h.size()) +
                    " bytes, over the limit of " + std::to_string(kMaxHeaderBytes) +
                    " that readers accept (a vocabulary or tokenizer too large)");
    }
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
