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

// The a-file to the h-file: the bits of each byte reversed.
constexpr Bitboard mirror_files(Bitboard b) {
    b = ((b >> 1) & 0x5555555555555555ULL) | ((b & 0x5555555555555555ULL) << 1);
    b = ((b >> 2) & 0x3333333333333333ULL) | ((b & 0x3333333333333333ULL) << 2);
    return ((b >> 4) & 0x0F0F0F0F0F0F0F0FULL) | ((b & 0x0F0F0F0F0F0F0F0FULL) << 4);
}

constexpr PawnConfig mirrored(const PawnConfig& c) {
    return {{mirror_files(c.pawns[WHITE]), mirror_files(c.pawns[BLACK])}};
}

// The smaller of c and its mirror image: the name of their slice.
constexpr PawnConfig canonical_mirror(const PawnConfig& c) { return std::min(c, mirrored(c)); }

}  // namespace retro
