// SPDX-License-Identifier: GPL-3.0-or-later
#include "result_stats.h"

#include <algorithm>
#include <cstring>
#include <set>
#include <stdexcept>
#include <thread>

namespace attnviz {

namespace {

// The same maps, bit for bit (what the statistics are computed from).
bool sameMaps(const CapturedBlock& a, const CapturedBlock& b) {
    if (a.kind != b.kind || a.layer != b.layer || a.weights.size() != b.weights.size())
        return false;
    for (size_t h = 0; h < a.weights.size(); ++h) {
        const Mat &x = a.weights[h], &y = b.weights[h];
        if (x.rows() != y.rows() || x.cols() != y.cols() ||
            std::memcmp(x.data(), y.data(), sizeof(*x.data()) * size_t(x.size())) != 0)
            return false;
    }
    return true;
}

}  // namespace

ResultStats::ResultStats(std::shared_ptr<const Results> results, const ResultStats* earlier)
    : m_results(results ? std::move(results) : std::make_shared<const Results>()) {
    for (const ColumnResult& r : *m_results) {
        std::vector<std::shared_ptr<BlockSlots>> blocks;
        for (const CapturedBlock& block : r.analysis.blocks) {
            if (!r.error.empty()) {
                blocks.push_back(nullptr);
                continue;
            }
            // The earlier block of this column name, kind and layer: taken over when its maps
            // are the same, else the source of this block's hints.
            std::shared_ptr<BlockSlots> shared;
            const BlockSlots* hintSource = nullptr;
            for (size_t c = 0; earlier && c < earlier->m_results->size() && !shared; ++c) {
                const ColumnResult& old = (*earlier->m_results)[c];
                if (!old.error.empty() || old.name != r.name) continue;
                for (size_t k = 0; k < old.analysis.blocks.size() && !shared; ++k) {
                    const CapturedBlock& b = old.analysis.blocks[k];
                    if (b.kind != block.kind || b.layer != block.layer) continue;
                    if (sameMaps(b, block))
                        shared = earlier->m_blocks[c][k];
                    else if (!hintSource)
                        hintSource = earlier->m_blocks[c][k].get();
                }
            }
            if (shared) {
                ++m_shared;
            } else {
                shared = std::make_shared<BlockSlots>(block.weights.size());
                if (hintSource) shared->hints = fitsOf(*hintSource, shared->count);
            }
            blocks.push_back(std::move(shared));
        }
        m_blocks.push_back(std::move(blocks));
    }
}

std::vector<std::optional<GaussianFit>> ResultStats::fitsOf(const BlockSlots& block, size_t heads) {
    std::vector<std::optional<GaussianFit>> fits(heads);
    for (size_t h = 0; h < std::min(heads, block.count); ++h) {
        Slot& slot = block.heads[h];
        // A head still being fitted on another thread: no hint rather than a wait.
        const std::unique_lock<std::mutex> g(slot.lock, std::try_to_lock);
        if (g.owns_lock() && slot.done) fits[h] = slot.stats.fit;
    }
    return fits;
}

int ResultStats::computedCount() const {
    std::set<const BlockSlots*> seen;  // two columns of one name and the same maps share one
    int n = 0;
    for (const auto& column : m_blocks)
        for (const auto& b : column)
            if (b && seen.insert(b.get()).second) n += b->computed.load();
    return n;
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

ResultStats::Slot& ResultStats::slotOf(const HeadKey& k) const {
    if (k.column >= m_results->size() || !(*m_results)[k.column].error.empty() ||
        k.block >= m_blocks[k.column].size() || k.head < 0 ||
        size_t(k.head) >= (*m_results)[k.column].analysis.blocks[k.block].weights.size())
        throw std::out_of_range("no such head in the results");
    return m_blocks[k.column][k.block]->heads[size_t(k.head)];
}

const HeadStats& ResultStats::at(const HeadKey& k) const {
    Slot& slot = slotOf(k);
    const std::lock_guard<std::mutex> g(slot.lock);  // a thread computing it: waited for
    if (!slot.done) {
        const CapturedBlock& b = (*m_results)[k.column].analysis.blocks[k.block];
        BlockSlots& block = *m_blocks[k.column][k.block];
        const std::optional<GaussianFit>& hint = block.hints[size_t(k.head)];
        bool certified = false;
        slot.stats = headStats({{&b.weights[size_t(k.head)], b.kind == BlockKind::DecoderSelf}},
                               hint ? &*hint : nullptr, &certified);
        slot.done = true;  // never changed again: callers read it after the lock
        ++block.computed;
        ++m_computedHere;
        m_certifiedHere += certified;
    }
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
