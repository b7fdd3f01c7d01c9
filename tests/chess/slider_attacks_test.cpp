// The sliders' attack lookup (PEXT or magic bitboards, bitboard.hpp) against a walk along each ray
// that stops at the first occupied square.
#include <gtest/gtest.h>

#include <array>

#include "chess/bitboard.hpp"

using namespace retro;

namespace {

using Directions = std::array<std::array<int, 2>, 4>;
constexpr Directions ROOK_DIRECTIONS = {{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}};
constexpr Directions BISHOP_DIRECTIONS = {{{1, 1}, {1, -1}, {-1, 1}, {-1, -1}}};

Bitboard walk(Square s, const Directions& directions, Bitboard occupied) {
    Bitboard reached = 0;
    for (const auto& [df, dr] : directions)
        for (int f = file_of(s) + df, r = rank_of(s) + dr; on_board(f, r); f += df, r += dr) {
            reached |= square_bb(make_square(f, r));
            if (occupied & square_bb(make_square(f, r))) break;
        }
    return reached;
}

// Occupancies from sparse to dense: a fixed xorshift sequence, ANDed down to a quarter or an eighth.
Bitboard occupancy(uint64_t& state, int k) {
    const auto next = [&state] {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        return state;
    };
    const Bitboard b = next();
    return k % 3 == 0 ? b : k % 3 == 1 ? b & next() : b & next() & next();
}

}  // namespace

TEST(SliderAttacks, StopAtTheFirstManOnEachRay) {
    uint64_t state = 0x2545F4914F6CDD1DULL;
    for (Square s = SQ_A1; s <= SQ_H8; ++s) {
        EXPECT_EQ(rook_attacks(s, 0), walk(s, ROOK_DIRECTIONS, 0)) << int(s);
        EXPECT_EQ(bishop_attacks(s, ~Bitboard(0)), walk(s, BISHOP_DIRECTIONS, ~Bitboard(0))) << int(s);
        for (int k = 0; k < 3000; ++k) {
            const Bitboard occupied = occupancy(state, k);
            ASSERT_EQ(rook_attacks(s, occupied), walk(s, ROOK_DIRECTIONS, occupied))
                << int(s) << ' ' << occupied;
            ASSERT_EQ(bishop_attacks(s, occupied), walk(s, BISHOP_DIRECTIONS, occupied))
                << int(s) << ' ' << occupied;
            ASSERT_EQ(queen_attacks(s, occupied),
                      walk(s, ROOK_DIRECTIONS, occupied) | walk(s, BISHOP_DIRECTIONS, occupied));
        }
    }
}

TEST(SliderAttacks, RaysAreTheAttacksOnAnEmptyBoard) {
    for (Square s = SQ_A1; s <= SQ_H8; ++s) {
        EXPECT_EQ(rook_rays(s), walk(s, ROOK_DIRECTIONS, 0)) << int(s);
        EXPECT_EQ(bishop_rays(s), walk(s, BISHOP_DIRECTIONS, 0)) << int(s);
    }
}
