// Where a file puts its entries (its layout): the digit order the writer stores them in and, for the
// shipping form, the side to move it drops. The writer tries the candidate layouts on a sample of
// runs (store/layout_sample.hpp) and keeps the one that compresses smallest.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "store/digit_order.hpp"
#include "store/table_file.hpp"
#include "store/table_values.hpp"

namespace retro {

struct Layout {
    DigitOrder order;
    std::optional<Color> dropped;
};

// The orders a write tries: the one asked for, every candidate, or the natural one; only those the
// values can be read in (a pawn table from its slice store: the pawn digits first). Throws
// StoreError naming `name` when none is left or the order asked for is not one of the index's.
std::vector<DigitOrder> orders_to_try(const TableValues& values, const WriteOptions& options,
                                      const std::string& name);

// The bytes of the n entries of a side from `first` stored in `order` and compressed as a block
// would be, or with the codec's fast level when `fast`.
using StoredBytes =
    std::function<uint64_t(Color side, uint64_t first, uint32_t n, const DigitOrder& order, bool fast)>;

// The candidate order and kept sides whose sample of runs compresses to the fewest bytes; ties go
// to the earlier candidate (the natural order first), then to white.
Layout smallest_layout(const std::vector<DigitOrder>& candidates, uint64_t entries, uint32_t block_entries,
                       WriteOptions::Sides keep, const StoredBytes& stored_bytes);

}  // namespace retro
