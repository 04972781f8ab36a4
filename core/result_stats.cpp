// SPDX-License-Identifier: GPL-3.0-or-later
#include "result_stats.h"

#include <algorithm>
#include <stdexcept>
#include <thread>

namespace attnviz {

ResultStats::ResultStats(std::shared_ptr<const Results> results)
    : m_results(results ? std::move(results) : std::make_shared<const Results>()) {
    for (const ColumnResult& r : *m_results) {
        std::vector<size_t> first;
        for (const CapturedBlock& b : r.analysis.blocks) {
            first.push_back(m_slotCount);
            if (r.error.empty()) m_slotCount += b.weights.size();
        }
        m_first.push_back(std::move(first));
    }
    m_slots = std::make_unique<Slot[]>(m_slotCount);
}

std::vector<HeadKey> ResultStats::heads(BlockKind kind, int layer) const {
    return headsWhere(
        [&](const CapturedBlock& b) { return b.kind == kind && (layer < 0 || b.layer == layer); });
}

std::vector<HeadKey> ResultStats::allHeads() const {
    return headsWhere([](const CapturedBlock&) { return true; });
}

std::vector<HeadKey> ResultStats::headsWhere(
    const std::function<bool(const CapturedBlock&)>& wanted) const {
    std::vector<HeadKey> out;
    for (size_t c = 0; c < m_results->size(); ++c) {
        const ColumnResult& r = (*m_results)[c];
        if (!r.error.empty()) continue;
        for (size_t b = 0; b < r.analysis.blocks.size(); ++b) {
            if (!wanted(r.analysis.blocks[b])) continue;
            for (int h = 0; h < int(r.analysis.blocks[b].weights.size()); ++h)
                out.push_back({c, b, h});
        }
    }
    return out;
}

size_t ResultStats::slotOf(const HeadKey& k) const {
    if (k.column >= m_results->size() || !(*m_results)[k.column].error.empty() ||
        k.block >= m_first[k.column].size() || k.head < 0 ||
        size_t(k.head) >= (*m_results)[k.column].analysis.blocks[k.block].weights.size())
        throw std::out_of_range("no such head in the results");
    return m_first[k.column][k.block] + size_t(k.head);
}

const HeadStats& ResultStats::at(const HeadKey& k) const {
    Slot& slot = m_slots[slotOf(k)];
    std::call_once(slot.once, [&] {
        const CapturedBlock& b = (*m_results)[k.column].analysis.blocks[k.block];
        slot.stats = headStats({{&b.weights[size_t(k.head)], b.kind == BlockKind::DecoderSelf}});
        ++m_computed;
    });
    return slot.stats;
}

bool ResultStats::compute(const std::vector<HeadKey>& heads, int threads,
                          const std::function<bool()>& cancelled) const {
    std::atomic<size_t> next{0};
    std::atomic<bool> stopped{false};
    std::mutex errorLock;
    std::exception_ptr error;
    auto work = [&] {
        try {
            for (size_t i; (i = next++) < heads.size();) {
                if (stopped || cancelled()) {
                    stopped = true;
                    return;
                }
                at(heads[i]);
            }
        } catch (...) {  // e.g. out of memory: the first one goes to the caller
            stopped = true;
            const std::lock_guard<std::mutex> g(errorLock);
            if (!error) error = std::current_exception();
        }
    };
    const int extra = std::clamp(threads, 1, int(std::max<size_t>(1, heads.size()))) - 1;
    std::vector<std::thread> helpers;
    for (int t = 0; t < extra; ++t) helpers.emplace_back(work);
    work();
    for (auto& t : helpers) t.join();
    if (error) std::rethrow_exception(error);
    return !stopped;
}

}  // namespace attnviz
