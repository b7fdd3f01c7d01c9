#include "probe/verifier.hpp"

#include <tbb/blocked_range.h>

#include <algorithm>
#include <atomic>
#include <cassert>
#include <mutex>

#include "index/legal_entries.hpp"
#include "parallel/parallel_for.hpp"
#include "parallel/shared_progress.hpp"
#include "probe/successors.hpp"

namespace retro {

uint64_t verify_step_keys(uint64_t table_size) {
    constexpr uint64_t STEPS = 256, LEAST = 1 << 16;
    return std::max((2 * table_size + STEPS - 1) / STEPS, LEAST);
}

VerifyResult verify_table(const Table& table, const Tablebase& tables, const std::atomic<bool>* stop,
                          const std::function<void(uint64_t done, uint64_t entries)>& progress,
                          VerifyPoint from, const std::function<void(const VerifyPoint&)>& reached) {
    const uint64_t size = table.scheme.size(), keys = 2 * size;
    assert(from.next <= keys);
    std::atomic<uint64_t> checked{from.checked};
    std::mutex mutex;
    uint64_t first_bad = UINT64_MAX;
    VerifyResult result;
    const Successors successors(table, tables);
    par::SharedProgress scanned(progress, keys);
    scanned.add(from.next);
    const auto stopped = [&] { return stop && stop->load(std::memory_order_relaxed); };
    const uint64_t step = verify_step_keys(size);
    for (uint64_t begin = from.next, end; begin < keys && !stopped(); begin = end) {
        const Color side = begin < size ? WHITE : BLACK;
        const uint64_t offset = side == WHITE ? 0 : size;
        end = std::min(begin + step, offset + size);  // a step keeps to one side's indices
        par::parallel_for(
            tbb::blocked_range<uint64_t>(begin - offset, end - offset, 1 << 12), [&](const auto& r) {
                if (stopped()) return;  // the remaining ranges end at once
                uint64_t n = 0;
                for_each_legal_entry(table.scheme, side, r.begin(), r.end(),
                                     [&](uint64_t i, const Placement&, const Position& pos) {
                                         ++n;
                                         const Dtm stored = table.value(side, i),
                                                   expected = successors.expected(pos);
                                         if (stored == expected) return;
                                         std::lock_guard lock(mutex);
                                         const uint64_t key = i * 2 + side;
                                         if (key < first_bad) {
                                             first_bad = key;
                                             result.mismatch = pos.fen() + ": stored " + describe(stored) +
                                                               ", moves give " + describe(expected);
                                         }
                                     });
                checked += n;
                scanned.add(r.size());
            });
        if (reached && !stopped() && !result.mismatch) reached({end, checked});
    }
    result.checked = checked;
    result.stopped = stopped();
    if (!result.stopped) scanned.finish();
    return result;
}

}  // namespace retro
