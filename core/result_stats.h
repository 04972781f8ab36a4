// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The head statistics (core/head_stats.h) of one set of results, each computed at most once,
// by whichever thread asks first, and only when asked: the Heads and Offset profiles docks of
// the app, and the Gaussian residual of the difference maps, share one ResultStats per
// analysis instead of fitting every head again (issue 26). A new analysis makes a new one;
// there is no cache beyond it.
//
//   auto stats = std::make_shared<const ResultStats>(results);
//   stats->compute(stats->heads(BlockKind::EncoderSelf, 0), 2, [] { return false; });
//   const HeadStats& s = stats->at({column, block, head});  // already computed: no wait
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "head_stats.h"
#include "workspace.h"

namespace attnviz {

// One head of the results: column, index of the captured block in its analysis, head.
struct HeadKey {
    size_t column = 0;
    size_t block = 0;
    int head = 0;
};

class ResultStats {
public:
    explicit ResultStats(std::shared_ptr<const Results> results);
    ResultStats(const ResultStats&) = delete;
    ResultStats& operator=(const ResultStats&) = delete;

    const Results& results() const { return *m_results; }
    const std::shared_ptr<const Results>& shared() const { return m_results; }

    // Every head of the blocks of this kind and layer, of every column that ran, in column
    // then head order; layer -1: every layer.
    std::vector<HeadKey> heads(BlockKind kind, int layer) const;
    // Every head of every column that ran, in capture order.
    std::vector<HeadKey> allHeads() const;

    // The head's statistics over its one sentence (causal in decoder self-attention):
    // computed here on the first call; a call for a head another thread is computing waits
    // for it. Throws std::out_of_range for a head the results do not have.
    const HeadStats& at(const HeadKey& head) const;
    // Computes the heads not yet known on up to `threads` threads (this one included), each
    // taking the next head; returns false when `cancelled` became true first (the heads done
    // so far stay done).
    bool compute(const std::vector<HeadKey>& heads, int threads,
                 const std::function<bool()>& cancelled) const;
    // How many heads have been computed (for tests: nothing twice, nothing unasked).
    int computedCount() const { return m_computed.load(); }

private:
    struct Slot {
        std::once_flag once;
        HeadStats stats;
    };
    size_t slotOf(const HeadKey& head) const;
    // Every head of the blocks `wanted` accepts, of every column that ran, in capture order.
    std::vector<HeadKey> headsWhere(const std::function<bool(const CapturedBlock&)>& wanted) const;

    std::shared_ptr<const Results> m_results;
    std::vector<std::vector<size_t>> m_first;  // [column][block]: its head 0's slot
    std::unique_ptr<Slot[]> m_slots;
    size_t m_slotCount = 0;
    mutable std::atomic<int> m_computed{0};
};

}  // namespace attnviz
