// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A small fixed pool: run(n, fn) calls fn(0) … fn(n-1) on the pool's threads and the
// caller's, and returns when all are done. Which thread runs which index does not matter
// for results: every index writes its own outputs.
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace attnviz {

class ThreadPool {
public:
    explicit ThreadPool(int threads);
    ~ThreadPool();
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    int size() const { return static_cast<int>(m_workers.size()) + 1; }
    // Exceptions thrown by fn are rethrown here (the first one).
    void run(int n, const std::function<void(int)>& fn);

private:
    void work();
    bool takeAndRun();

    std::vector<std::thread> m_workers;
    std::mutex m_mutex;
    std::condition_variable m_wake, m_done;
    const std::function<void(int)>* m_fn = nullptr;
    int m_next = 0, m_count = 0, m_pending = 0;
    unsigned m_generation = 0;
    bool m_stop = false;
    std::exception_ptr m_error;
};

}  // namespace attnviz
