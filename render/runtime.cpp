// SPDX-License-Identifier: GPL-3.0-or-later
#include "runtime.h"

#include <sys/stat.h>
#include <unistd.h>

#include <QDir>
#include <QGuiApplication>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace attnviz::render {
namespace {

// The folder ensureRuntimeDirectory made with mkdtemp and gave Qt, "" when none: private, but
// of this start only, so never the single-instance socket's.
std::string& madeForThisStart() {
    static std::string dir;
    return dir;
}

std::string modeText(mode_t mode) {
    char s[8];
    std::snprintf(s, sizeof s, "%04o", unsigned(mode & 07777));
    return s;
}

// <temp>/attnviz-runtime-<uid>.
std::string sharedTempCandidate() {
    return QDir::tempPath().toStdString() + "/attnviz-runtime-" + std::to_string(geteuid());
}

// `dir` when it is private, made 0700 first when it does not exist; "" with the reason.
std::string privateOrMade(const std::string& dir, std::string* why) {
    if (::mkdir(dir.c_str(), 0700) == 0) {
        ::chmod(dir.c_str(), 0700);  // whatever the umask left
    } else if (errno != EEXIST) {
        if (why) *why = "'" + dir + "' cannot be made: " + std::strerror(errno);
        return {};
    }
    return isPrivateDirectory(dir, why) ? dir : std::string();
}

}  // namespace

bool isPrivateDirectory(const std::string& dir, std::string* why) {
    struct stat st {};
    const auto no = [&](const std::string& reason) {
        if (why) *why = "'" + dir + "' " + reason;
        return false;
    };
    if (dir.empty() || dir[0] != '/') return no("is not an absolute path");
    if (::lstat(dir.c_str(), &st) != 0)
        return no(std::string("cannot be read: ") + std::strerror(errno));
    if (S_ISLNK(st.st_mode)) return no("is a symbolic link, not a folder");
    if (!S_ISDIR(st.st_mode)) return no("is not a folder");
    if (st.st_uid != geteuid())
        return no("is owned by uid " + std::to_string(st.st_uid) + ", not by uid " +
                  std::to_string(geteuid()));
    if ((st.st_mode & 07777) != 0700)
        return no("has mode " + modeText(st.st_mode) + ", not 0700 (others could use it)");
    return true;
}

std::string stableRuntimeDirectory(std::string* why) {
    std::vector<std::string> reasons;
    const QByteArray xdg = qgetenv("XDG_RUNTIME_DIR");
    if (!xdg.isEmpty() && xdg.toStdString() != madeForThisStart()) {
        std::string reason;
        if (isPrivateDirectory(xdg.toStdString(), &reason)) return xdg.toStdString();
        reasons.push_back("XDG_RUNTIME_DIR " + reason);
    }
    std::string reason;
    const std::string dir = privateOrMade(sharedTempCandidate(), &reason);
    if (!dir.empty()) return dir;
    reasons.push_back(reason);
    if (why) {
        why->clear();
        for (const std::string& r : reasons) *why += (why->empty() ? "" : "; ") + r;
    }
    return {};
}

void ensureRuntimeDirectory() {
    if (!qEnvironmentVariableIsEmpty("XDG_RUNTIME_DIR")) return;
    std::string dir = privateOrMade(sharedTempCandidate(), nullptr);
    if (dir.empty()) {
        std::string pattern = sharedTempCandidate() + "-XXXXXX";
        if (::mkdtemp(pattern.data()) == nullptr) return;  // Qt then says what it does
        dir = madeForThisStart() = pattern;
        std::atexit([] { ::rmdir(madeForThisStart().c_str()); });  // when left empty
    }
    qputenv("XDG_RUNTIME_DIR", QByteArray::fromStdString(dir));
}

void ensureGuiApplication() {
    if (QCoreApplication::instance()) return;
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    ensureRuntimeDirectory();
    static int argc = 1;
    static char name[] = "attnviz";
    static char* argv[] = {name, nullptr};
    static QGuiApplication app(argc, argv);
}

}  // namespace attnviz::render
