// SPDX-License-Identifier: GPL-3.0-or-later
#include "input_limits.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <set>
#include <vector>

#include "error.h"

namespace attnviz {

using nlohmann::json;

namespace {

std::string bytesText(uint64_t n) {
    if (n >= (1ull << 20) && n % (1ull << 20) == 0) return std::to_string(n >> 20) + " MiB";
    return std::to_string(n) + " bytes";
}

std::string tooLargeMessage(const std::string& path, const std::string& what, uint64_t size,
                            uint64_t maxBytes) {
    return "'" + path + "' is larger than the limit for a " + what + " (" + bytesText(size) +
           " read, limit " + bytesText(maxBytes) + ")";
}

}  // namespace

std::string fileKind(unsigned mode) {
    const mode_t m = mode;
    if (S_ISLNK(m)) return "a symbolic link";
    if (S_ISDIR(m)) return "a directory";
    if (S_ISFIFO(m)) return "a FIFO (named pipe)";
    if (S_ISCHR(m)) return "a character device";
    if (S_ISBLK(m)) return "a block device";
    if (S_ISSOCK(m)) return "a socket";
    return "not a regular file";
}

json parseJson(std::string_view text, const std::string& what, uint64_t maxBytes) {
    if (text.size() > maxBytes) {
        throw Error(what + " is " + std::to_string(text.size()) + " bytes of JSON; the limit is " +
                    bytesText(maxBytes));
    }
    // The parser itself is iterative; the callback sees every container and key, so it can
    // stop a too-deep document and spot a repeated key before the value is built.
    std::vector<std::set<std::string>> keys;  // one set per open object
    std::vector<bool> isObject;               // per open container
    auto callback = [&](int /*depth*/, json::parse_event_t event, json& parsed) {
        switch (event) {
            case json::parse_event_t::object_start:
            case json::parse_event_t::array_start:
                if (isObject.size() >= size_t(kMaxJsonDepth)) {
                    throw Error(what + " nests arrays and objects deeper than " +
                                std::to_string(kMaxJsonDepth) + " levels");
                }
                isObject.push_back(event == json::parse_event_t::object_start);
                if (isObject.back()) keys.emplace_back();
                break;
            case json::parse_event_t::object_end:
            case json::parse_event_t::array_end:
                if (!isObject.empty()) {
                    if (isObject.back()) keys.pop_back();
                    isObject.pop_back();
                }
                break;
            case json::parse_event_t::key:
                if (!keys.empty() && !keys.back().insert(parsed.get<std::string>()).second) {
                    throw Error(what + " repeats the key '" + excerpt(parsed.get<std::string>()) +
                                "' in one object");
                }
                break;
            case json::parse_event_t::value:
                break;
        }
        return true;
    };
    try {
        return json::parse(text.begin(), text.end(), callback);
    } catch (const json::exception& e) {
        // nlohmann's message ends with "; last read: '…'", which repeats up to the whole
        // text read so far: keep what went wrong and where, never the text.
        std::string why = e.what();
        why = why.substr(0, why.find("; last read"));
        // "[json.exception.parse_error.101] parse error at …": the library's tag means nothing
        // to a reader of the message.
        if (why.rfind("[json.exception.", 0) == 0 && why.find("] ") != std::string::npos)
            why = why.substr(why.find("] ") + 2);
        if (why.size() > 200) why = why.substr(0, 200) + "…";
        throw Error(what + " is not valid JSON: " + why);
    }
}

std::string gigabytes(double bytes) {
    char buf[64];
    std::snprintf(buf, sizeof buf, bytes >= 1e10 ? "~%.0f GB" : "~%.1f GB", bytes / 1e9);
    return buf;
}

std::string excerpt(std::string_view s) {
    if (s.size() <= kMaxExcerptChars) return std::string(s);
    size_t cut = kMaxExcerptChars;
    while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;  // UTF-8
    return std::string(s.substr(0, cut)) + "…";
}

std::string excerpt(const json& v) {
    if (v.is_array()) return "an array of " + std::to_string(v.size()) + " elements";
    if (v.is_object()) return "an object of " + std::to_string(v.size()) + " keys";
    if (v.is_string()) {
        return json(excerpt(std::string_view(v.get_ref<const std::string&>())))
            .dump(-1, ' ', false, json::error_handler_t::replace);
    }
    return excerpt(std::string_view(v.dump()));
}

namespace {

// Opens `path` for reading without blocking and checks it is a regular file within
// `maxBytes` (its size returned in `size`); Error with the road's messages.
int openRegular(const std::string& path, uint64_t maxBytes, const std::string& what,
                uint64_t& size) {
    // O_NONBLOCK: opening a FIFO must not wait for a writer before we can refuse it.
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) throw Error("cannot open '" + path + "': " + std::strerror(errno));
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        const std::string kind = fileKind(st.st_mode);
        ::close(fd);
        throw Error("'" + path + "' is " + kind + ", not a file");
    }
    size = static_cast<uint64_t>(st.st_size);
    if (size > maxBytes) {
        ::close(fd);
        throw Error(tooLargeMessage(path, what, size, maxBytes));
    }
    return fd;
}

}  // namespace

std::string readTextFile(const std::string& path, uint64_t maxBytes, const std::string& what) {
    uint64_t size = 0;
    const int fd = openRegular(path, maxBytes, what, size);
    std::string text;
    text.reserve(size_t(size));  // within the limit: a checkpoint is not copied as it grows
    char buf[65536];
    for (;;) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            const int err = errno;
            ::close(fd);
            throw Error("error while reading '" + path + "': " + std::strerror(err));
        }
        if (n == 0) break;
        text.append(buf, size_t(n));
        if (text.size() > maxBytes) {  // grew while we read
            ::close(fd);
            throw Error(tooLargeMessage(path, what, text.size(), maxBytes));
        }
    }
    ::close(fd);
    return text;
}

InputFile::InputFile(const std::string& path, uint64_t maxBytes, const std::string& what)
    : m_path(path) {
    m_fd = openRegular(path, maxBytes, what, m_size);
}

InputFile::~InputFile() {
    if (m_fd >= 0) ::close(m_fd);
}

void InputFile::read(uint64_t offset, void* out, uint64_t n) const {
    auto* p = static_cast<char*>(out);
    while (n > 0) {
        const size_t chunk = size_t(std::min<uint64_t>(n, 1u << 30));
        const ssize_t got = ::pread(m_fd, p, chunk, off_t(offset));
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) throw Error("error while reading '" + m_path + "': " + std::strerror(errno));
        if (got == 0) throw Error("'" + m_path + "' became shorter while it was read");
        p += got;
        offset += uint64_t(got);
        n -= uint64_t(got);
    }
}

}  // namespace attnviz
