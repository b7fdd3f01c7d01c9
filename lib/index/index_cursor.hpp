// Walks consecutive index entries, stepping the placement digit by digit (the last group of men
// moves fastest) instead of decoding every entry from scratch: the solver's full sweeps use it.
#pragma once

#include "index/index_scheme.hpp"

namespace retro {

class IndexCursor {
public:
    IndexCursor(const IndexScheme& scheme, uint64_t first);

    uint64_t index() const { return index_; }
    // False for a hole: colliding men or the non-canonical twin of another entry.
    bool valid() const { return valid_; }
    const Placement& placement() const { return placement_; }
    void next();

private:
    void place_group(size_t g);  // squares of group g from its digit
    void check();

    const IndexScheme& scheme_;
    uint64_t index_;
    int kings_;  // the king-pair digit
    std::array<uint64_t, 2 * PIECE_TYPE_COUNT> digits_{};
    Placement placement_;
    bool valid_ = false;
};

}  // namespace retro
