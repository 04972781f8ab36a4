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
bool sameMaps(const std::vector<Mat>& a, const std::vector<Mat>& b) {
    if (a.size() != b.size()) return false;
    for (size_t h = 0; h < a.size(); ++h) {
        const Mat &x = a[h], &y = b[h];
        if (x.rows() != y.rows() || x.cols() != y.cols() ||
            std::memcmp(x.data(), y.data(), sizeof(*x.data()) * size_t(x.size())) != 0)
            return false;
    }
    return true;
}
bool sameMaps(const CapturedBlock& a, const CapturedBlock& b) {
    return a.kind == b.kind && a.layer == b.layer && sameMaps(a.weights, b.weights);
}

}  // namespace

ResultStats::ResultStats(std::shared_ptr<const Results> results, const ResultStats* earlier,
                         size_t rememberBytes)
    : m_results(results ? std::move(results) : std::make_shared<const Results>()) {
    std::set<const BlockSlots*> taken;  // the earlier blocks this one shares
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
            // Else one remembered from an analysis before the earlier one.
            for (size_t m = 0; earlier && !shared && m < earlier->m_memory.size(); ++m) {
                const Remembered& old = *earlier->m_memory[m];
                if (old.result().name == r.name && sameMaps(old.captured(), block)) {
                    shared = old.block;
                    ++m_fromMemory;
                }
            }
            if (shared) {
                ++m_shared;
                taken.insert(shared.get());
            } else {
                shared = std::make_shared<BlockSlots>(block.weights.size());
                if (hintSource) shared->hints = fitsOf(*hintSource, shared->count);
            }
            blocks.push_back(std::move(shared));
        }
        m_blocks.push_back(std::move(blocks));
    }
    if (earlier) remember(*earlier, taken, rememberBytes);
}

namespace {

// The bytes of every map of `results`.
size_t mapBytes(const Results& results) {
    size_t n = 0;
    for (const ColumnResult& r : results)
        for (const CapturedBlock& b : r.analysis.blocks)
            for (const Mat& m : b.weights) n += size_t(m.size()) * sizeof(*m.data());
    return n;
}

}  // namespace

size_t ResultStats::rememberedBytes() const {
    std::set<const Results*> sources;
    size_t n = 0;
    for (const auto& m : m_memory)
        if (sources.insert(m->source.get()).second) n += mapBytes(*m->source);
    return n;
}

// The memory: the earlier analysis' blocks that this one did not take over (newest), then what
// the earlier statistics remembered and this one did not take over, while the analyses they
// belong to hold at most `most` bytes of maps; each block once (two columns of one name
// with the same maps share one).
void ResultStats::remember(const ResultStats& earlier, std::set<const BlockSlots*>& taken,
                           size_t most) {
    std::set<const Results*> sources;
    size_t bytes = 0;
    auto keep = [&](std::shared_ptr<const Remembered> m) {
        if (!taken.insert(m->block.get()).second) return true;  // taken over, or kept already
        if (!sources.count(m->source.get())) {
            const size_t more = mapBytes(*m->source);
            if (bytes + more > most) return false;
            bytes += more;
            sources.insert(m->source.get());
        }
        m_memory.push_back(std::move(m));
        return true;
    };
    const Results& old = *earlier.m_results;
    for (size_t c = 0; c < old.size(); ++c) {
        if (!old[c].error.empty()) continue;
        for (size_t k = 0; k < old[c].analysis.blocks.size(); ++k) {
            const std::shared_ptr<BlockSlots>& block = earlier.m_blocks[c][k];
            if (!block || taken.count(block.get())) continue;
            if (!keep(
                    std::make_shared<const Remembered>(Remembered{earlier.m_results, c, k, block})))
                return;
        }
    }
    for (const auto& m : earlier.m_memory)
        if (!keep(m)) return;
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
