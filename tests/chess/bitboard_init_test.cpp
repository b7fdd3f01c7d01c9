// The attack tables are built before any translation unit's static initialisers use them: this
// file's are initialised before the library's (it is linked first), so they would see empty tables
// if the header did not build them first.
// (A knight: an empty table reads as no squares, where a rook's null magic pointer would crash the
// whole test binary before a test could report.)
#include <gtest/gtest.h>

#include "chess/bitboard.hpp"

using namespace retro;

namespace {

const Bitboard KNIGHT_ON_B1 = knight_attacks(make_square(1, 0));

}  // namespace

TEST(BitboardInit, TablesAreReadyForOtherStaticInitialisers) {
    EXPECT_EQ(KNIGHT_ON_B1,
              square_bb(make_square(0, 2)) | square_bb(make_square(2, 2)) | square_bb(make_square(3, 1)));
}
