// Debug builds stop at a broken invariant (a square off the board, a missing king, a full move
// list) instead of reading out of bounds; release builds (NDEBUG) compile the checks out.
#include <gtest/gtest.h>

#include "chess/move.hpp"

using namespace retro;

#ifdef NDEBUG
TEST(DebugAssertions, CompiledOutInRelease) { GTEST_SKIP() << "NDEBUG: build with -DCMAKE_BUILD_TYPE=Debug"; }
#else
TEST(DebugAssertionsDeathTest, StopAtABrokenInvariant) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_DEATH((void)square_bb(NO_SQUARE), "is_ok");
    EXPECT_DEATH((void)knight_attacks(Square(64)), "is_ok");
    EXPECT_DEATH((void)rook_attacks(NO_SQUARE, 0), "is_ok");
    EXPECT_DEATH((void)Position().king(WHITE), "KING");
    MoveList full;
    full.size = int(full.moves.size());
    EXPECT_DEATH(full.push(Move(SQ_A1, SQ_H8)), "size");
}
#endif
