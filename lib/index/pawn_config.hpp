// Where the pawns of each colour stand, and the left-right mirror that makes a configuration and its
// image one slice of a pawn table (a king move may mirror the whole board; index/pawn_slices.hpp).
#pragma once

#include <algorithm>
#include <array>
#include <compare>

#include "chess/bitboard.hpp"

namespace retro {

struct PawnConfig {
    std::array<Bitboard, 2> pawns{};
    friend auto operator<=>(const PawnConfig&, const PawnConfig&) = default;
};

constexpr PawnConfig mirrored(const PawnConfig& c) {
    return {{mirror_files(c.pawns[WHITE]), mirror_files(c.pawns[BLACK])}};
}

// The smaller of c and its mirror image: the name of their slice.
constexpr PawnConfig canonical_mirror(const PawnConfig& c) { return std::min(c, mirrored(c)); }

}  // namespace retro
