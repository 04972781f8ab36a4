// SPDX-License-Identifier: GPL-3.0-or-later
#include "thread_pool.h"

namespace attnviz {

ThreadPool::ThreadPool(int threads) {
    for (int i = 1; i < threads; ++i) m_workers.emplace_back([this] { work(); });
}

ThreadPool::~ThreadPool() {
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    for (auto& t : m_workers) t.join();
}

// Takes the next index of the current job and runs it; false when none is left.
bool ThreadPool::takeAndRun() {
    std::unique_lock<std::mutex> lock(m_mutex);
    if (!m_fn || m_next >= m_count) return false;
    const int i = m_next++;
    const auto* fn = m_fn;
    lock.unlock();
    std::exception_ptr err;
    try {
        (*fn)(i);
    } catch (...) {
        err = std::current_exception();
    }
    lock.lock();
    if (err && !m_error) m_error = err;
    if (--m_pending == 0) m_done.notify_all();
    return true;
}

void ThreadPool::work() {
    unsigned seen = 0;
    for (;;) {
        {
            std::unique_lock<std::mutex> lock(m_mutex);
            m_wake.wait(lock, [&] { return m_stop || m_generation != seen; });
            if (m_stop) return;
            seen = m_generation;
        }
        while (takeAndRun()) {
        }
    }
}

void ThreadPool::run(int n, const std::function<void(int)>& fn) {
    if (n <= 0) return;
    if (m_workers.empty() || n == 1) {
        for (int i = 0; i < n; ++i) fn(i);
        return;
    }
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_fn = &fn;
        m_next = 0;
        m_count = n;
        m_pending = n;
        m_error = nullptr;
        ++m_generation;
    }
    m_wake.notify_all();
    while (takeAndRun()) {
    }
    std::unique_lock<std::mutex> lock(m_mutex);
    m_done.wait(lock, [&] { return m_pending == 0; });
    m_fn = nullptr;
    if (m_error) std::rethrow_exception(m_error);
}

}  // namespace attnviz
