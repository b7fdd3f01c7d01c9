// Board symmetries and the canonical king placements they leave.
//
// Pawnless material has the 8 symmetries of the square; the white king is brought into the
// triangle a1-d1-d4 and, with the white king on the a1-h8 diagonal, the black king on or below it:
// 462 king pairs. With pawns only the left-right mirror remains: the white king on files a-d, 1806
// pairs. Kings never stand on adjacent squares.
#pragma once

#include <array>
#include <cstdint>

#include "chess/bitboard.hpp"
#include "chess/position.hpp"

namespace retro {

// A symmetry as three bits: transpose (swap file and rank), then mirror the file, then the rank.
using Symmetry = int;
constexpr Symmetry IDENTITY = 0;
constexpr Symmetry MIRROR_FILE = 2;
constexpr Symmetry TRANSPOSE = 1;
constexpr Symmetry ANTI_TRANSPOSE = 7;  // about the a8-h1 diagonal: transpose, mirror file and rank
constexpr int SYMMETRY_COUNT = 8;

struct KingPairs {
    int count = 0;
    // For every (white king, black king): the symmetry that makes the pair canonical, and whether
    // the transpose keeps it canonical too (both kings on the a1-h8 diagonal; pawnless only).
    std::array<std::array<uint8_t, 64>, 64> symmetry{};
    std::array<std::array<bool, 64>, 64> diagonal{};
    // Canonical pair -> dense number, -1 for non-canonical or illegal pairs; and back.
    std::array<std::array<int16_t, 64>, 64> number{};
    std::array<std::array<Square, 2>, 1806> squares{};
    // For the king of each colour, the other king on each square and each symmetry s: the squares on
    // which he stands in a pair that s makes canonical off the diagonal (no transpose to fold).
    std::array<std::array<std::array<Bitboard, SYMMETRY_COUNT>, 64>, 2> oriented_by{};
};

Square apply_symmetry(Symmetry s, Square sq);
// Every square of b moved by s, as apply_symmetry moves one.
Bitboard apply_symmetry(Symmetry s, Bitboard b);
// The men of pos whose image under s holds no like man (s its own inverse: the identity, a mirror or
// a diagonal's transpose).
int men_off_symmetry(const Position& pos, Symmetry s);
// Whether more than `most` men of pos are off s. Told by the men whose image is empty alone when
// they are enough, as they are in most positions: one bitboard moved instead of one a kind of man.
inline bool more_men_off_symmetry(const Position& pos, Symmetry s, int most) {
    const Bitboard occupied = pos.occupied();
    return popcount(occupied & ~apply_symmetry(s, occupied)) > most || men_off_symmetry(pos, s) > most;
}
const KingPairs& pawnless_king_pairs();
const KingPairs& pawn_king_pairs();

}  // namespace retro
