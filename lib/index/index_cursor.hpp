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
    // The slot of the man a step may move alone (-1: none), and how many times every man has been
    // placed: while the count stands, the entries differ in that man's square alone.
    int stepped_slot() const { return stepped_slot_; }
    uint64_t placements() const { return placements_; }

private:
    static constexpr size_t MAX_DIGITS = 1 + 2 * PIECE_TYPE_COUNT;

    void place_kings();
    void place_group(size_t g);  // squares of group g (digit g + 1) from its digit
    // After a new placement: the squares of the men but the stepped one, and whether it is an entry.
    void check();
    // The stepped man one square on, as his digit's next value places him; the other men stay.
    void step_man();
    // Whether the placement, its men on `occupied`, is an entry: no men collide, and it is not the
    // non-canonical twin of another.
    bool is_entry(Bitboard occupied) const;

    const IndexScheme& scheme_;
    size_t digit_count_;
    uint8_t order_[MAX_DIGITS];      // digits by storage significance, most significant first
    uint64_t radix_[MAX_DIGITS];     // by digit: 0 the king pair, then the groups
    uint64_t stride_[MAX_DIGITS];    // by digit: its weight in the index
    uint64_t digit_[MAX_DIGITS]{};   // by digit
    uint64_t index_ = 0, position_;  // the entry, and where it is stored
    Placement placement_;
    bool valid_ = false;
    // The stored digit that turns fastest (the digits after it have one value only, as a slice's
    // fixed pawns) and, when it is a lone man's, his slot: most steps move him alone, a square on.
    size_t stepped_digit_ = 0;
    int stepped_slot_ = -1;
    bool stepped_pawn_ = false;
    uint64_t placements_ = 0;
    Bitboard others_ = 0;  // the squares of the men but the stepped one
    // The other men do not collide and the kings are off the diagonal: a step gives an entry when
    // the man lands on a free square.
    bool plain_steps_ = false;
};

}  // namespace retro
