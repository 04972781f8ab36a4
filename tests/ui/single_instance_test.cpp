// SPDX-License-Identifier: GPL-3.0-or-later
// The single-window socket against other users and floods (issue 48, items 1 and 2): the
// socket never lands in a folder that is not the user's own (another user's, a symbolic link,
// mode 0777 or 0755, a file), and a flood of idle connections leaves the first window
// listening, so that a later start still hands its files over.
#include "ui/single_instance.h"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <QCoreApplication>
#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <future>

#include "render/runtime.h"
#include "tests/ui/wait.h"

using namespace attnviz;
using namespace attnviz::ui;
using attnviz::ui::test::waitUntil;

namespace {

// sendToRunning on another thread (it blocks), this thread's events run meanwhile.
bool sendWhileServing(const QStringList& paths, const QString& name, int timeoutMs = 5000) {
    auto sent = std::async(std::launch::async, [&] {
        return SingleInstance::sendToRunning(paths, name, timeoutMs);
    });
    while (sent.wait_for(std::chrono::milliseconds(5)) != std::future_status::ready)
        QCoreApplication::processEvents();
    return sent.get();
}

// Sets an environment variable for the scope (unset when `value` is null), as it was after.
class ScopedEnv {
public:
    ScopedEnv(const char* name, const QByteArray* value)
        : m_name(name), m_had(qEnvironmentVariableIsSet(name)), m_old(qgetenv(name)) {
        if (value)
            qputenv(name, *value);
        else
            qunsetenv(name);
    }
    ~ScopedEnv() {
        if (m_had)
            qputenv(m_name, m_old);
        else
            qunsetenv(m_name);
    }

private:
    const char* m_name;
    bool m_had;
    QByteArray m_old;
};

// Every socket file below `dir`, and whether its folder is private.
std::vector<std::pair<QString, bool>> socketsUnder(const QString& dir) {
    std::vector<std::pair<QString, bool>> found;
    QDirIterator it(dir, QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot,
                    QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString p = it.next();
        struct stat st {};
        if (::lstat(QFile::encodeName(p).constData(), &st) == 0 && S_ISSOCK(st.st_mode))
            found.emplace_back(p, render::isPrivateDirectory(
                                      QFileInfo(p).absolutePath().toStdString()));
    }
    return found;
}

// A shared temporary folder like /tmp (mode 1777), TMPDIR pointing at it and XDG_RUNTIME_DIR
// as `xdg` says, for one case of hostile folders.
class HostileFolders : public ::testing::Test {
protected:
    void SetUp() override {
        ASSERT_TRUE(m_root.isValid());
        m_tmp = m_root.path() + "/tmp";
        ASSERT_TRUE(QDir().mkpath(m_tmp));
        ASSERT_EQ(::chmod(QFile::encodeName(m_tmp).constData(), 01777), 0);
        m_candidate = m_tmp + "/attnviz-runtime-" + QString::number(geteuid());
    }
    // Runs the single-window road with this folder set-up: whatever it chooses, the socket is
    // in a private folder or there is none (and listen() says why).
    void expectNoSocketInASharedFolder(const QString& what, const QByteArray* xdg) {
        SCOPED_TRACE(what.toStdString());
        const QByteArray tmp = m_tmp.toLocal8Bit();
        ScopedEnv t("TMPDIR", &tmp), x("XDG_RUNTIME_DIR", xdg);
        const QString name = SingleInstance::defaultName();
        if (!name.isEmpty())
            EXPECT_TRUE(render::isPrivateDirectory(QFileInfo(name).absolutePath().toStdString()))
                << name.toStdString();
        {
            SingleInstance first;
            const bool listening = first.listen();
            if (!listening) EXPECT_FALSE(first.problem().isEmpty());
            if (listening) {
                EXPECT_FALSE(name.isEmpty());
                EXPECT_EQ(first.name(), name);
            }
            for (const auto& [socket, safe] : socketsUnder(m_root.path()))
                EXPECT_TRUE(safe) << "a socket in a shared folder: " << socket.toStdString();
        }
        // Qt's runtime folder for this start (ensureRuntimeDirectory): private, whatever came
        // before.
        if (!xdg) {
            render::ensureRuntimeDirectory();
            const std::string dir = qgetenv("XDG_RUNTIME_DIR").toStdString();
            std::string why;
            EXPECT_TRUE(render::isPrivateDirectory(dir, &why)) << why;
        }
    }
    QTemporaryDir m_root;
    QString m_tmp, m_candidate;
};

void makeDir(const QString& path, mode_t mode) {
    ASSERT_TRUE(QDir().mkpath(path));
    ASSERT_EQ(::chmod(QFile::encodeName(path).constData(), mode), 0);
}

}  // namespace

// Each hostile form of <temp>/attnviz-runtime-<uid> (and of Qt's own fallback folder, which
// the socket took before when both were another user's).
TEST_F(HostileFolders, TheSocketNeverLandsInAFolderThatIsNotPrivate) {
    const QByteArray candidate = QFile::encodeName(m_candidate);
    // Missing: made 0700 and used.
    expectNoSocketInASharedFolder("missing", nullptr);
    std::string why;
    EXPECT_TRUE(render::isPrivateDirectory(m_candidate.toStdString(), &why)) << why;
    QDir(m_candidate).removeRecursively();
    // Mode 0777 and 0755: others can write or list it.
    for (const mode_t mode : {mode_t(0777), mode_t(0755), mode_t(0701)}) {
        makeDir(m_candidate, mode);
        expectNoSocketInASharedFolder(QString("mode %1").arg(mode, 4, 8, QChar('0')), nullptr);
        EXPECT_FALSE(render::isPrivateDirectory(m_candidate.toStdString(), &why));
        EXPECT_NE(why.find("has mode"), std::string::npos) << why;
        QDir(m_candidate).removeRecursively();
    }
    // A symbolic link to a private folder of the user's (another user can make such a link
    // and later point it elsewhere).
    makeDir(m_root.path() + "/mine", 0700);
    ASSERT_EQ(::symlink(QFile::encodeName(m_root.path() + "/mine").constData(), candidate.constData()), 0);
    expectNoSocketInASharedFolder("a symbolic link", nullptr);
    EXPECT_FALSE(render::isPrivateDirectory(m_candidate.toStdString(), &why));
    EXPECT_NE(why.find("symbolic link"), std::string::npos) << why;
    ::unlink(candidate.constData());
    // A file.
    QFile(m_candidate).open(QIODevice::WriteOnly);
    expectNoSocketInASharedFolder("a file", nullptr);
    ::unlink(candidate.constData());
    // Another user's (uid 65534, as root can make it; Qt's own fallback folder, runtime-<user>,
    // theirs too), with and without XDG_RUNTIME_DIR pointing at one of them.
    if (geteuid() != 0) GTEST_SKIP() << "making another user's folder needs root";
    makeDir(m_candidate, 0700);
    ASSERT_EQ(::chown(candidate.constData(), 65534, 65534), 0);
    for (const QString& qt : {m_tmp + "/runtime-root", m_tmp + "/runtime-" + qEnvironmentVariable("USER")}) {
        makeDir(qt, 0700);
        ASSERT_EQ(::chown(QFile::encodeName(qt).constData(), 65534, 65534), 0);
    }
    expectNoSocketInASharedFolder("another user's", nullptr);
    EXPECT_FALSE(render::isPrivateDirectory(m_candidate.toStdString(), &why));
    EXPECT_NE(why.find("is owned by uid 65534"), std::string::npos) << why;
    const QByteArray shared = QFile::encodeName(m_tmp);
    expectNoSocketInASharedFolder("XDG_RUNTIME_DIR the shared folder", &shared);
    expectNoSocketInASharedFolder("XDG_RUNTIME_DIR another user's", &candidate);
    // And an explicit name in a shared folder is refused as well.
    SingleInstance there(m_tmp + "/attnviz-test.socket");
    EXPECT_FALSE(there.listen());
    EXPECT_TRUE(there.problem().contains("not private")) << there.problem().toStdString();
    EXPECT_FALSE(QFile::exists(m_tmp + "/attnviz-test.socket"));
    EXPECT_FALSE(SingleInstance::sendToRunning({"a.png"}, m_tmp + "/attnviz-test.socket", 300));
}

namespace {

class Flood : public ::testing::Test {
protected:
    void SetUp() override {
        ASSERT_TRUE(m_dir.isValid());  // a QTemporaryDir is 0700
        m_name = m_dir.path() + "/attnviz-flood.socket";
    }
    // A connection made without Qt and left idle; -1 when it could not be made now.
    int connectRaw() const {
        const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (fd < 0) return -1;
        sockaddr_un addr{};
        addr.sun_family = AF_UNIX;
        const QByteArray path = QFile::encodeName(m_name);
        std::memcpy(addr.sun_path, path.constData(), size_t(path.size()));
        if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
            ::close(fd);
            return -1;
        }
        return fd;
    }
    QTemporaryDir m_dir;
    QString m_name;
};

}  // namespace

// 2,000 idle connections (as many as the file limit allows), made while the window serves:
// then a later start's files still arrive. Before, the server accepted them all, ran out of
// file descriptors, and Qt closed it and removed its socket for good.
TEST_F(Flood, AFloodOfIdleConnectionsLeavesTheWindowListening) {
    rlimit before{};
    ASSERT_EQ(::getrlimit(RLIMIT_NOFILE, &before), 0);
    // Room for the flood and the test's own files, not for a server that keeps every one.
    rlimit lim = before;
    lim.rlim_cur = std::min<rlim_t>(before.rlim_max, 2300);
    ASSERT_EQ(::setrlimit(RLIMIT_NOFILE, &lim), 0);
    const int wanted = int(std::min<rlim_t>(2000, lim.rlim_cur - 300));
    {
        SingleInstance first(m_name);
        ASSERT_TRUE(first.listen());
        QSignalSpy received(&first, &SingleInstance::filesReceived);
        std::vector<int> flood;
        QElapsedTimer t;
        t.start();
        while (int(flood.size()) < wanted && t.elapsed() < 30000) {
            const int fd = connectRaw();
            if (fd >= 0)
                flood.push_back(fd);
            else
                QCoreApplication::processEvents();  // the backlog is full: let it accept
            if (flood.size() % 16 == 0) QCoreApplication::processEvents();
        }
        std::printf("  %zu idle connections made in %lld ms (limit %llu files)\n", flood.size(),
                    static_cast<long long>(t.elapsed()),
                    static_cast<unsigned long long>(lim.rlim_cur));
        EXPECT_GE(int(flood.size()), wanted / 2);
        // The flood still open: a later start hands its files over.
        EXPECT_TRUE(sendWhileServing({"/x/one.png"}, m_name)) << "the window no longer listens";
        EXPECT_EQ(received.size(), 1);
        for (const int fd : flood) ::close(fd);
        // And once it is gone.
        EXPECT_TRUE(sendWhileServing({"/x/two.png"}, m_name));
        EXPECT_EQ(received.size(), 2);
    }
    ::setrlimit(RLIMIT_NOFILE, &before);
}

// A connection that sends nothing is dropped after kDeadlineMs; one that sends more than
// kMaxMessageBytes without a line's end is dropped at once.
TEST_F(Flood, IdleAndOversizedConnectionsAreDropped) {
    SingleInstance first(m_name);
    ASSERT_TRUE(first.listen());
    const int idle = connectRaw();
    ASSERT_GE(idle, 0);
    QElapsedTimer t;
    t.start();
    char c;
    EXPECT_TRUE(waitUntil([&] { return ::recv(idle, &c, 1, 0) == 0; }, 10000));
    EXPECT_GE(t.elapsed(), SingleInstance::kDeadlineMs - 100);
    EXPECT_LT(t.elapsed(), SingleInstance::kDeadlineMs + 1500);
    ::close(idle);
    const int big = connectRaw();
    ASSERT_GE(big, 0);
    const std::string chunk(64 * 1024, 'a');
    qint64 sent = 0;
    t.restart();
    bool closed = false;
    while (!closed && t.elapsed() < 1500) {
        const ssize_t n = ::send(big, chunk.data(), chunk.size(), MSG_NOSIGNAL);
        if (n > 0) sent += n;
        if (n < 0 && errno != EAGAIN) closed = true;
        QCoreApplication::processEvents();
    }
    EXPECT_TRUE(closed) << "still open after " << sent << " bytes";
    EXPECT_LT(t.elapsed(), 1500);
    ::close(big);
    EXPECT_TRUE(sendWhileServing({"/x/after.png"}, m_name));
}

// The socket file removed (a cleaner of temporary files): the window listens again within
// kWatchMs and later starts reach it.
TEST_F(Flood, TheServerListensAgainWhenItsSocketIsGone) {
    SingleInstance first(m_name);
    ASSERT_TRUE(first.listen());
    ASSERT_TRUE(QFile::remove(m_name));
    EXPECT_TRUE(waitUntil([&] { return QFileInfo::exists(m_name); },
                          SingleInstance::kWatchMs * 3));
    EXPECT_TRUE(sendWhileServing({"/x/back.png"}, m_name));
}
