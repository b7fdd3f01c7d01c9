// Whether a group of like men may stand on given squares, told from an entry's king-pair digit and
// the group's digit alone, without placing the men: a walk over a table's entries then places only
// those it needs (the promotions read in part want the new piece on a promotion square, about an
// eighth of the promoted table).
#pragma once

#include <cstdint>
#include <vector>

#include "index/index_scheme.hpp"

namespace retro {

class MenOnSquares {
public:
    // The group of the man in `slot` (a piece, not a king or a pawn) of a whole table (not a slice).
    MenOnSquares(const IndexScheme& scheme, int slot, Bitboard squares);

    // The group's digit (IndexScheme::digit_radices).
    size_t digit() const { return digit_; }
    // False when no man of the group stands on the squares in the entries with these digits; true
    // otherwise, and always for groups of more than MAX_TOLD men.
    bool may_stand(uint64_t pair, uint64_t rank) const {
        const uint64_t on = pair_digits_[pair];
        if (count_ == 1) return (on >> rank) & 1;
        return rank_digits_.empty() || (rank_digits_[rank] & on);
    }

    // Groups up to this size are told apart by a table of their digits' squares (4.5 MB for 4).
    static constexpr int MAX_TOLD = 4;

private:
    size_t digit_;
    int count_ = 0;
    std::vector<uint64_t> pair_digits_;  // by king pair: the digit squares that are on the squares
    std::vector<uint64_t> rank_digits_;  // by the group's digit, 2 to MAX_TOLD men: their digit squares
};

}  // namespace retro
