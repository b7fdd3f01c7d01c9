// BoardWalk, which keeps a run's board less its fastest man, against each entry's board and
// attacks built whole: whole tables and slices of pawn tables, runs crossed and left.
#include "index/board_walk.hpp"

#include <gtest/gtest.h>

#include <random>

#include "index/index_cursor.hpp"
#include "index/pawn_slices.hpp"

using namespace retro;

namespace {

// Walks `steps` entries from `first`; returns how many were valid and compared.
int walk_and_compare(const IndexScheme& scheme, uint64_t first, int steps) {
    BoardWalk walk(scheme);
    int compared = 0;
    for (IndexCursor cursor(scheme, first); cursor.index() < scheme.size() && steps-- > 0; cursor.next()) {
        if (!cursor.valid()) continue;
        walk.place(cursor);
        const Position whole = scheme.to_position(cursor.placement());
        EXPECT_EQ(walk.board(), whole) << "entry " << cursor.index();
        const BoardAttacks expected(whole);
        for (Bitboard b = whole.occupied(); b;) {
            const Square s = pop_lsb(b);
            EXPECT_EQ(walk.attacks().of(s), expected.of(s)) << whole.fen() << ", square " << int(s);
        }
        for (Color c : {WHITE, BLACK}) {
            EXPECT_EQ(walk.attacks().checkers(c), expected.checkers(c)) << whole.fen();
            EXPECT_EQ(walk.attacks().king_danger(whole, c), expected.king_danger(whole, c)) << whole.fen();
        }
        ++compared;
        if (testing::Test::HasFailure()) break;
    }
    return compared;
}

class BoardWalkTest : public testing::TestWithParam<const char*> {};

TEST_P(BoardWalkTest, PlacesAsAWholeBoard) {
    const Material m = Material::parse(GetParam());
    std::mt19937_64 rng(2026);
    int compared = 0;
    const auto walks = [&](const IndexScheme& scheme, int count) {
        for (int w = 0; w < count && !HasFailure(); ++w)
            compared += walk_and_compare(scheme, rng() % scheme.size(), 400);
    };
    walks(IndexScheme(m), 10);
    if (m.has_pawns()) {
        const auto configs = pawn_configs(m);
        for (size_t k = 0; k < configs.size(); k += (configs.size() + 5) / 6)
            walks(IndexScheme(m, configs[k]), 2);
    }
    EXPECT_GE(compared, 3000);
}

// Sliders of both sides blocked and unblocked along the runs; a last group of two (no man steps
// alone); pawns the slices fix, and a whole pawn table's.
INSTANTIATE_TEST_SUITE_P(WholeAndSlices, BoardWalkTest,
                         testing::Values("KQvK", "KRBvKR", "KQRvKQ", "KBBvK", "KRvKN", "KRPvKR", "KQvKP",
                                         "KPvKP"));

}  // namespace
