// The board symmetries on whole bitboards against the square-by-square mapping, and the count of the
// men a symmetry moves off like men.
#include "index/symmetry.hpp"

#include <gtest/gtest.h>

#include <random>

using namespace retro;

TEST(Symmetry, OnABitboardMovesEverySquareAsOnItsOwn) {
    std::mt19937_64 rng(7);
    for (Symmetry s = 0; s < SYMMETRY_COUNT; ++s)
        for (int trial = 0; trial < 200; ++trial) {
            const Bitboard b = rng() & rng();
            Bitboard expected = 0;
            for (Bitboard rest = b; rest;) expected |= square_bb(apply_symmetry(s, pop_lsb(rest)));
            ASSERT_EQ(apply_symmetry(s, b), expected) << "symmetry " << s << ", bitboard " << b;
        }
}

TEST(Symmetry, MenOffCountsTheMenWhoseImageHoldsNoLikeMan) {
    const auto off = [](const char* fen, Symmetry s) { return men_off_symmetry(Position::from_fen(fen), s); };
    // Kings on a1 and h8, a rook on b3 whose transpose c2 is empty: only the rook is off.
    EXPECT_EQ(off("7k/8/8/8/8/1R6/8/K7 w - - 0 1", TRANSPOSE), 1);
    // A rook on b3 and one on c2: the transpose swaps them.
    EXPECT_EQ(off("7k/8/8/8/8/1R6/2R5/K7 w - - 0 1", TRANSPOSE), 0);
    // The second rook black: two men off, and the kings on the diagonal stay.
    EXPECT_EQ(off("7k/8/8/8/8/1R6/2r5/K7 w - - 0 1", TRANSPOSE), 2);
    // The kings off the a8-h1 diagonal: both off it, with the rook on g2, on it.
    EXPECT_EQ(off("7k/8/8/8/8/8/6R1/K7 w - - 0 1", ANTI_TRANSPOSE), 2);
    EXPECT_EQ(off("7k/8/8/8/8/8/6R1/K7 w - - 0 1", IDENTITY), 0);
}

// The quick bound agrees with the count on random placements of five men, off every symmetry its
// own inverse.
TEST(Symmetry, MoreMenOffAgreesWithTheCount) {
    std::mt19937_64 rng(11);
    const Piece men[] = {{WHITE, KING}, {BLACK, KING}, {WHITE, ROOK}, {WHITE, ROOK}, {BLACK, BISHOP}};
    int told[4] = {};
    for (int trial = 0; trial < 20000; ++trial) {
        Position pos;
        Bitboard used = 0;
        for (const Piece& man : men) {
            Square s;
            do s = Square(rng() % 8 < 3 ? 9 * (rng() % 8) : rng() % 64);  // often on the a1-h8 diagonal
            while (used & square_bb(s));
            used |= square_bb(s);
            pos.put(man, s);
        }
        for (Symmetry s : {IDENTITY, TRANSPOSE, ANTI_TRANSPOSE, MIRROR_FILE}) {
            const int off = men_off_symmetry(pos, s);
            ++told[std::min(off, 3)];
            for (int most = 0; most <= 3; ++most)
                ASSERT_EQ(more_men_off_symmetry(pos, s, most), off > most) << pos.fen() << " symmetry " << s;
        }
    }
    for (int off = 0; off <= 3; ++off) EXPECT_GT(told[off], 100) << off << " men off";
}
