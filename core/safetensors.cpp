// SPDX-License-Identifier: GPL-3.0-or-later
#include "safetensors.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <random>
#include <vector>

#include "error.h"
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
    checkRegularFile(path);  // a directory or FIFO is refused by name, not read
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) throw Error("cannot open '" + path + "': " + std::strerror(errno));
    const std::streamoff size = in.tellg();
    if (size < 0) throw Error("cannot read '" + path + "'");
    if (static_cast<uint64_t>(size) > kMaxFileBytes) {
        throw Error("'" + path + "' is too large for a checkpoint (" + std::to_string(size) +
                    " bytes)");
    }
    std::vector<uint8_t> bytes(static_cast<size_t>(size));
    in.seekg(0);
    if (size && !in.read(reinterpret_cast<char*>(bytes.data()), size))
        throw Error("error while reading '" + path + "'");
    try {
        return parse(bytes.data(), bytes.size());
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

namespace {

// Removes `<name>.tmp-PID-RAND` beside `path` when process PID no longer runs.
void removeStaleTemporaries(const std::filesystem::path& path) {
    namespace fs = std::filesystem;
    const fs::path dir = path.has_parent_path() ? path.parent_path() : fs::path(".");
    const std::string prefix = path.filename().string() + ".tmp-";
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.compare(0, prefix.size(), prefix) != 0) continue;
        const std::string rest = name.substr(prefix.size());  // PID-RAND
        const size_t dash = rest.find('-');
        if (dash == 0 || dash == std::string::npos || dash > 9 ||
            rest.find_first_not_of("0123456789-") != std::string::npos)
            continue;
        const long pid = std::stol(rest.substr(0, dash));
        if (pid == ::getpid() || ::kill(pid_t(pid), 0) == 0 || errno != ESRCH) continue;
        std::error_code ignored;
        fs::remove(it->path(), ignored);
    }
}

// The state of an existing target; Error for anything we must not replace.
void checkTarget(const std::string& path, const std::string& flag, struct stat* st, bool* exists) {
    *exists = ::lstat(path.c_str(), st) == 0;
    if (!*exists) return;
    if (!S_ISREG(st->st_mode)) {
        throw Error(flag + " '" + path + "' is " + fileKind(st->st_mode) +
                    "; refusing to replace it (give the path of a regular file)");
    }
    if ((st->st_mode & 0222) == 0 || ::access(path.c_str(), W_OK) != 0) {
        throw Error(flag + " '" + path + "' is read-only; refusing to replace it");
    }
}

}  // namespace

void checkOutputPath(const std::string& path, const std::vector<std::string>& inputs,
                     const std::string& flag) {
    namespace fs = std::filesystem;
    if (path.empty()) throw Error(flag + " is empty");
    struct stat st {};
    bool exists = false;
    checkTarget(path, flag, &st, &exists);
    for (const auto& in : inputs) {
        std::error_code ec, ec1, ec2;
        const bool same =
            exists
                ? fs::equivalent(path, in, ec) && !ec
                : fs::weakly_canonical(path, ec1) == fs::weakly_canonical(in, ec2) && !ec1 && !ec2;
        if (!in.empty() && same) {
            throw Error(flag + " '" + path + "' is the same file as the input '" + in +
                        "'; refusing to overwrite an input");
        }
    }
    const fs::path p(path);
    const std::string dir = p.has_parent_path() ? p.parent_path().string() : ".";
    struct stat ds {};
    if (::stat(dir.c_str(), &ds) != 0 || !S_ISDIR(ds.st_mode))
        throw Error(flag + " '" + path + "': the directory '" + dir + "' does not exist");
    if (::access(dir.c_str(), W_OK | X_OK) != 0)
        throw Error(flag + " '" + path + "': the directory '" + dir + "' is not writable");
    removeStaleTemporaries(p);
}

void writeFileAtomically(const std::string& path, const std::string& bytes) {
    struct stat st {};
    bool exists = false;
    checkTarget(path, "output", &st, &exists);
    removeStaleTemporaries(path);
    std::random_device rd;
    const std::string tmp =
        path + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(rd());
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) throw Error("cannot write '" + path + "': " + std::strerror(errno));
    auto fail = [&](const char* what) {
        const int err = errno;
        ::close(fd);
        ::unlink(tmp.c_str());
        throw Error("cannot write '" + path + "': " + what + ": " + std::strerror(err));
    };
    // A replaced file keeps its permissions (a 600 checkpoint stays private).
    if (exists && ::fchmod(fd, st.st_mode & 07777) != 0) fail("cannot keep the file's mode");
    size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t w = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (w < 0) {
            if (errno == EINTR) continue;
            fail("write failed");
        }
        done += static_cast<size_t>(w);
    }
    if (::fsync(fd) != 0) fail("flush failed");
    if (::close(fd) != 0) {
        const int err = errno;
        ::unlink(tmp.c_str());
        throw Error("cannot write '" + path + "': " + std::strerror(err));
    }
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
        const int err = errno;
        ::unlink(tmp.c_str());
        throw Error("cannot write '" + path + "': " + std::strerror(err));
    }
}

}  // namespace attnviz
