#include "probe/verifier.hpp"

#include <tbb/blocked_range.h>

#include <atomic>
#include <mutex>

#include "index/legal_entries.hpp"
#include "parallel/parallel_for.hpp"
#include "parallel/shared_progress.hpp"
#include "probe/successors.hpp"

namespace retro {

VerifyResult verify_table(const Table& table, const Tablebase& tables, const std::atomic<bool>* stop,
                          const std::function<void(uint64_t done, uint64_t entries)>& progress) {
    std::atomic<uint64_t> checked{0};
    std::mutex mutex;
    uint64_t first_bad = UINT64_MAX;
    VerifyResult result;
    const Successors successors(table, tables);
    par::SharedProgress scanned(progress, 2 * table.scheme.size());
    for (Color side : {WHITE, BLACK}) {
        par::parallel_for(tbb::blocked_range<uint64_t>(0, table.scheme.size(), 1 << 12), [&](const auto& r) {
            if (stop && stop->load(std::memory_order_relaxed)) return;  // the remaining ranges end at once
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
    }
    result.checked = checked;
    result.stopped = stop && stop->load();
    if (!result.stopped) scanned.finish();
    return result;
}

}  // namespace retro
