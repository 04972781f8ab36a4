// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <unistd.h>

#include <cerrno>
#include <streambuf>

namespace attnviz::cli {

// Standard output as attnviz-cli writes it: a buffer written to a file descriptor that
// remembers why the first write failed (ENOSPC on a full disk or /dev/full, EIO, …), so that
// the error message can say so even when the failure happened long before the end.
class FdOutputBuffer : public std::streambuf {
public:
    explicit FdOutputBuffer(int fd) : m_fd(fd) { setp(m_buf, m_buf + sizeof m_buf); }
    ~FdOutputBuffer() override { sync(); }

    int error() const { return m_error; }  // errno of the first failed write, 0 if none

protected:
    int overflow(int c) override {
        if (sync() != 0) return traits_type::eof();
        if (c != traits_type::eof()) {
            *pptr() = char(c);
            pbump(1);
        }
        return traits_type::not_eof(c);
    }
    int sync() override {
        const char* p = pbase();
        while (p < pptr()) {
            const ssize_t n = ::write(m_fd, p, size_t(pptr() - p));
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) {
                if (!m_error) m_error = n < 0 ? errno : EIO;
                setp(m_buf, m_buf + sizeof m_buf);  // dropped: the stream is failed anyway
                return -1;
            }
            p += n;
        }
        setp(m_buf, m_buf + sizeof m_buf);
        return 0;
    }

private:
    int m_fd;
    int m_error = 0;
    char m_buf[65536];
};

}  // namespace attnviz::cli
