#include "solve/exit_settled.hpp"

#include <tbb/blocked_range.h>

#include "chess/movegen.hpp"
#include "index/legal_entries.hpp"
#include "parallel/parallel_for.hpp"
#include "parallel/shared_progress.hpp"
#include "solve/exits.hpp"

namespace retro {

EntryBits exit_settled(const Table& table, const TableSource& tables, const std::atomic<bool>* stop,
                       const std::function<void(uint64_t done, uint64_t entries)>& progress) {
    const ExitProbe exits(table.scheme, tables);
    EntryBits settled;
    const uint64_t entries = table.size();
    const size_t words = EntryBits::words_for(entries);
    par::SharedProgress searched(progress, 2 * entries);
    for (Color side : {WHITE, BLACK}) {
        std::vector<uint64_t>& bits = settled.words[side];
        bits.assign(words, 0);
        // Ranges of whole words, so no two tasks write the same word.
        par::parallel_for(tbb::blocked_range<size_t>(0, words, 1 << 10), [&](const auto& r) {
            if (stop && stop->load(std::memory_order_relaxed))
                throw WriteStopped(table.material().name() + ": stopped while settling values by exits");
            MoveList moves;
            const uint64_t first = uint64_t(r.begin()) * 64, last = std::min(entries, uint64_t(r.end()) * 64);
            for_each_legal_entry(table.scheme, side, first, last,
                                 [&](uint64_t i, const Placement& p, const Position& pos) {
                                     moves.size = 0;
                                     generate_legal_exits(pos, moves);
                                     const Dtm value = table.value(side, i);
                                     for (const Move& m : moves)
                                         if (value_through(exits.value_after(pos, p, m)) == value) {
                                             bits[i >> 6] |= uint64_t(1) << (i & 63);
                                             break;
                                         }
                                 });
            searched.add(last - first);
        });
    }
    searched.finish();
    return settled;
}

void write_settled_table(const Table& table, const std::filesystem::path& path, const WriteOptions& options,
                         const TableSource& tables) {
    if (!options.settle_exits) return write_table(table, path, options);
    const EntryBits settled = exit_settled(table, tables, options.stop, options.settle_progress);
    write_table(table, path, options, &settled);
}

}  // namespace retro
