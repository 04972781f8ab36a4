// SPDX-License-Identifier: GPL-3.0-or-later
#include "file_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <random>

#include "error.h"
#include "input_limits.h"

namespace attnviz {

namespace {

// The temporary files of the writes in progress, for the termination handler: fixed slots
// (nothing is allocated in the handler, and unlink is async-signal-safe). A slot's state is
// 0 free, 1 being filled, 2 holding a path.
struct Temporary {
    std::atomic<int> state{0};
    char path[4096];
};
std::array<Temporary, 16> g_temporaries;

// Claims a slot for `path` (none when all are in use or the path is too long: that write is
// then only cleaned up by the next write to its target, as before).
Temporary* rememberTemporary(const std::string& path) {
    if (path.size() >= sizeof(Temporary::path)) return nullptr;
    for (Temporary& t : g_temporaries) {
        int expected = 0;
        if (!t.state.compare_exchange_strong(expected, 1)) continue;
        std::memcpy(t.path, path.c_str(), path.size() + 1);
        t.state.store(2);
        return &t;
    }
    return nullptr;
}

// Frees the slot when the write is over (renamed or removed), whatever way it ends.
struct TemporaryGuard {
    Temporary* slot;
    ~TemporaryGuard() {
        if (slot) slot->state.store(0);
    }
};

extern "C" void removeTemporariesAndEnd(int signal) {
    for (Temporary& t : g_temporaries)
        if (t.state.load() == 2) ::unlink(t.path);
    std::signal(signal, SIG_DFL);
    std::raise(signal);  // ends the process as the signal would have (its exit status)
}

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

namespace {

// Where a path leads, for sameFile: an existing file's device and inode, or for a file not
// yet there the path it would be created at.
struct FileIdentity {
    bool exists = false;
    dev_t device = 0;
    ino_t inode = 0;
    std::filesystem::path where;
};

FileIdentity identify(const std::string& path) {
    namespace fs = std::filesystem;
    FileIdentity id;
    struct stat st {};
    if (::stat(path.c_str(), &st) == 0) {
        id.exists = true;
        id.device = st.st_dev;
        id.inode = st.st_ino;
        return id;
    }
    // A dangling symbolic link: a write through it creates its target (at most 40 links,
    // as the kernel follows).
    fs::path p(path);
    std::error_code ec;
    for (int hops = 0; hops < 40 && fs::is_symlink(fs::symlink_status(p, ec)); ++hops) {
        const fs::path target = fs::read_symlink(p, ec);
        if (ec) break;
        p = target.is_absolute() ? target : p.parent_path() / target;
    }
    const fs::path name = p.filename();
    if (name.empty() || name == "." || name == "..") {
        id.where = fs::weakly_canonical(fs::absolute(p, ec), ec);
    } else {
        const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
        id.where = fs::weakly_canonical(fs::absolute(dir, ec), ec) / name;
    }
    return id;
}

}  // namespace

bool sameFile(const std::string& a, const std::string& b) {
    const FileIdentity x = identify(a), y = identify(b);
    if (x.exists != y.exists) return false;
    if (x.exists) return x.device == y.device && x.inode == y.inode;
    return x.where == y.where;
}

void checkDistinctFiles(const std::vector<NamedPath>& inputs,
                        const std::vector<NamedPath>& outputs) {
    for (size_t i = 0; i < outputs.size(); ++i) {
        const NamedPath& out = outputs[i];
        if (out.path.empty()) continue;
        for (const NamedPath& in : inputs) {
            if (!in.path.empty() && sameFile(out.path, in.path))
                throw Error(out.flag + " '" + out.path + "' is the same file as the input " +
                            (in.flag.empty() ? "" : in.flag + " ") + "'" + in.path +
                            "': refusing to overwrite an input");
        }
        for (size_t k = 0; k < i; ++k) {
            const NamedPath& other = outputs[k];
            if (!other.path.empty() && sameFile(out.path, other.path))
                throw Error(other.flag + " '" + other.path + "' and " + out.flag + " '" + out.path +
                            "' are the same file: give each output its own");
        }
    }
}

void checkOutputPath(const std::string& path, const std::vector<std::string>& inputs,
                     const std::string& flag) {
    std::vector<NamedPath> named;
    for (const std::string& in : inputs) named.push_back({"", in});
    if (!path.empty()) checkDistinctFiles(named, {{flag, path}});
    checkOutputPath(path, flag);
}

void checkOutputPath(const std::string& path, const std::string& flag) {
    namespace fs = std::filesystem;
    if (path.empty()) throw Error(flag + " is empty");
    struct stat st {};
    bool exists = false;
    checkTarget(path, flag, &st, &exists);
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
    const TemporaryGuard remembered{rememberTemporary(tmp)};  // before the file exists
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

void removeTemporariesOnTermination() {
    for (const int signal : {SIGTERM, SIGINT, SIGHUP}) {
        struct sigaction now {};
        if (::sigaction(signal, nullptr, &now) != 0 || now.sa_handler != SIG_DFL) continue;
        struct sigaction with {};
        with.sa_handler = removeTemporariesAndEnd;
        sigemptyset(&with.sa_mask);
        ::sigaction(signal, &with, nullptr);
    }
}

}  // namespace attnviz
