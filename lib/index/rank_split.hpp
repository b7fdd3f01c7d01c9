// An index split over the ranks that solve it together, by king pair: the index's first digit, so
// that each rank holds a contiguous run of entries. A piece's un-move keeps the king pair and stays
// within its rank; only a king's un-move may reach another rank's entries.
#pragma once

#include <cstdint>
#include <vector>

#include "index/index_scheme.hpp"

namespace retro {

// Entries [begin, end) of an index.
struct IndexRange {
    uint64_t begin = 0, end = 0;
    uint64_t size() const { return end - begin; }
    bool contains(uint64_t i) const { return i >= begin && i < end; }
};

// The runs of king pairs of `ranks` ranks, in rank order, covering the index: every king pair has
// as many entries, so the pairs are dealt as evenly as they go (the first ranks may hold one fewer).
std::vector<IndexRange> king_pair_ranges(const IndexScheme& scheme, int ranks);

// The most entries per side one of `ranks` ranks holds of `scheme`.
uint64_t largest_rank_entries(const IndexScheme& scheme, int ranks);

// The rank whose range (of `ranges`, from king_pair_ranges) holds entry i.
int rank_holding(const std::vector<IndexRange>& ranges, uint64_t i);

}  // namespace retro
