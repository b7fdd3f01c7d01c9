// Walks consecutive index entries, stepping the placement digit by digit instead of decoding every
// entry from scratch: the solver's full sweeps use it in index order (the last group of men moves
// fastest), the table writer in the order a file stores the entries (store/digit_order.hpp).
#pragma once

#include <cstdint>
#include <span>

#include "index/index_scheme.hpp"

namespace retro {

class IndexCursor {
public:
    // From entry `first`, in index order.
    IndexCursor(const IndexScheme& scheme, uint64_t first);
    // From the entry stored at position `first` when the index's digits (IndexScheme::digit_radices)
    // are stored in `order`: order[k] is the digit stored k-th most significant; empty is index
    // order.
    IndexCursor(const IndexScheme& scheme, uint64_t first, std::span<const uint8_t> order);

    uint64_t index() const { return index_; }
    // False for a hole: colliding men or the non-canonical twin of another entry.
    bool valid() const { return valid_; }
    const Placement& placement() const { return placement_; }
    void next();

private:
    static constexpr size_t MAX_DIGITS = 1 + 2 * PIECE_TYPE_COUNT;

    void place_kings();
    void place_group(size_t g);  // squares of group g (digit g + 1) from its digit
    void check();

    const IndexScheme& scheme_;
    size_t digit_count_;
    uint8_t order_[MAX_DIGITS];      // digits by storage significance, most significant first
    uint64_t radix_[MAX_DIGITS];     // by digit: 0 the king pair, then the groups
    uint64_t stride_[MAX_DIGITS];    // by digit: its weight in the index
    uint64_t digit_[MAX_DIGITS]{};   // by digit
    uint64_t index_ = 0, position_;  // the entry, and where it is stored
    Placement placement_;
    bool valid_ = false;
};

}  // namespace retro
