// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The head statistics (core/head_stats.h) of one set of results, each computed at most once,
// by whichever thread asks first, and only when asked: the Heads and Offset profiles docks of
// the app, and the Gaussian residual of the difference maps, share one ResultStats per
// analysis instead of fitting every head again (issue 26). A new analysis makes a new one,
// and one made with the statistics before it (`earlier`) takes over those of every block whose
// maps are the same, bit for bit, instead of fitting them again: an input-independent
// variant's maps at the same length (hard-coded Gaussians, random synthesizers, the learned
// window: the encoder self-attention of 7 of the 12 bundled English → Spanish models), the
// encoder's maps when only the target was edited, the results shown while the analysis runs
// (WorkspaceModel). The blocks of earlier analyses that the new one did not take over are
// remembered, the analyses they belong to kept alive (not copied) up to kRememberedBytes of
// maps (the oldest forgotten first): a word removed and typed again, an undo, a sentence of a
// length seen before finds its input-independent maps there, fitted. A block found nowhere gets the
// earlier fits of the same column name, kind and layer as hints (fitGaussian with a hint): a
// hard-coded Gaussian head is then polished, not searched again.
//
//   auto stats = std::make_shared<const ResultStats>(results);
//   stats->compute(stats->heads(BlockKind::EncoderSelf, 0), 2, [] { return false; });
//   const HeadStats& s = stats->at({column, block, head});  // already computed: no wait
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
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
    // The most bytes of maps of earlier analyses kept for the blocks remembered from them: an
    // analysis of the 12 bundled models at 47 tokens holds about 2.5 MiB (6 blocks of 4 heads
    // of 47 × 47 floats each), so about a dozen analyses, of which one edit makes several (each
    // stage shown while it runs; attnviz-ui-bench with ATTNVIZ_BENCH_TRACE prints the use).
    static constexpr size_t kRememberedBytes = size_t(32) << 20;
    // earlier (may be null): statistics of a previous analysis, whose blocks with maps equal
    // to this one's (a column of the same name; same kind, layer and weights, bit for bit)
    // are shared, computed or not; of the other blocks of the same name, kind and layer, the
    // fits already made are the hints of this one's.
    // rememberBytes: the bound of the memory of earlier analyses (kRememberedBytes; tests make
    // it small).
    explicit ResultStats(std::shared_ptr<const Results> results,
                         const ResultStats* earlier = nullptr,
                         size_t rememberBytes = kRememberedBytes);
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
    // How many heads of these results have been computed, here or by the earlier statistics
    // whose blocks these share (for tests: nothing twice, nothing unasked).
    int computedCount() const;
    // How many of them were computed through these statistics, not taken over (the fits an
    // edit cost: attnviz-ui-bench).
    int computedHere() const { return m_computedHere.load(); }
    // How many of those fits a hint certified (polished, not searched: attnviz-ui-bench).
    int certifiedHere() const { return m_certifiedHere.load(); }
    // How many blocks were taken over from the earlier statistics (for tests), and how many of
    // them from the blocks remembered from analyses before those.
    int sharedBlocks() const { return m_shared; }
    int rememberedBlocksUsed() const { return m_fromMemory; }
    // The maps of the analyses the remembered blocks belong to, bytes (for tests: never above
    // kRememberedBytes).
    size_t rememberedBytes() const;

private:
    // A mutex and a flag, not std::once_flag: a computation that throws (out of memory) must
    // leave the slot to be tried again, and with this toolchain a call_once after a throw can
    // wait for ever (GCC PR 66146); a shared slot lives through many analyses.
    struct Slot {
        std::mutex lock;
        bool done = false;
        HeadStats stats;
    };
    // One block's heads, shared with the statistics that take it over.
    struct BlockSlots {
        explicit BlockSlots(size_t count)
            : heads(std::make_unique<Slot[]>(count)), count(count), hints(count) {}
        std::unique_ptr<Slot[]> heads;  // (not "slots": a macro of Qt's)
        size_t count;                   // heads
        std::atomic<int> computed{0};
        // [head]: the earlier statistics' fit of this head on another sentence, when it had
        // one; copied, so that no chain of earlier analyses is kept alive.
        std::vector<std::optional<GaussianFit>> hints;
    };
    struct Remembered;
    void remember(const ResultStats& earlier, std::set<const BlockSlots*>& taken, size_t most);
    // The fits made so far of the block's first `heads` heads (the hints of a new block).
    static std::vector<std::optional<GaussianFit>> fitsOf(const BlockSlots& block, size_t heads);
    Slot& slotOf(const HeadKey& head) const;
    // Every head of the blocks `wanted` accepts, of every column that ran, in capture order.
    std::vector<HeadKey> headsWhere(const std::function<bool(const CapturedBlock&)>& wanted) const;

    // A block of an earlier analysis that a later one did not take over: where its maps are
    // (the analysis they belong to is kept alive, not copied) and its statistics, computed or
    // not.
    struct Remembered {
        std::shared_ptr<const Results> source;
        size_t column, index;               // the block: source[column].analysis.blocks[index]
        std::shared_ptr<BlockSlots> block;  // (not "slots": a macro of Qt's)
        const ColumnResult& result() const { return (*source)[column]; }
        const CapturedBlock& captured() const { return result().analysis.blocks[index]; }
    };
    // Newest first; immutable once made (later statistics copy the list they keep).
    using Memory = std::vector<std::shared_ptr<const Remembered>>;

    std::shared_ptr<const Results> m_results;
    std::vector<std::vector<std::shared_ptr<BlockSlots>>> m_blocks;  // [column][block]
    Memory m_memory;
    int m_shared = 0, m_fromMemory = 0;
    mutable std::atomic<int> m_computedHere{0};
    mutable std::atomic<int> m_certifiedHere{0};
};

}  // namespace attnviz
