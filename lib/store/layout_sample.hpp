// The runs of entries on which a write ranks its candidate layouts (digit order, kept side): a few
// runs spread over each side, compressed in every layout instead of the whole table.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "chess/types.hpp"

namespace retro {

struct SampledRun {
    Color side;
    uint64_t first;  // the run's first entry, in the stored order
    uint32_t n;      // entries

    bool operator==(const SampledRun&) const = default;
};

// The runs sampled of each of `sides` (in that order) for a table of `entries` per side written in
// blocks of `block_entries`: blocks of up to 2^17 entries, 8 per side; for larger blocks, runs of
// 2^17 entries, 16 for blocks of 2^18, 32 for 2^19 and more. Eight blocks of 2^20 entries ranked
// KQBvKN's shipping layouts so badly that its file came out 11% larger (docs/format.md).
// Each side is cut into as many equal strata as runs, and each run lies at a fixed pseudo-random
// place in its stratum: runs at the same place in every stratum fell on the same squares of a man
// in every candidate order, and ranked KBPvKN's orders at 2^18 so badly that the order chosen took
// 12.8% more bytes than the best (docs/guide.md). `widen` times as many runs (as far as the side
// has them) make the wider sample that scales the finalists' bytes (store/layout_search.cpp).
std::vector<SampledRun> layout_sample(uint64_t entries, uint32_t block_entries, std::span<const Color> sides,
                                      uint32_t widen = 1);

}  // namespace retro
