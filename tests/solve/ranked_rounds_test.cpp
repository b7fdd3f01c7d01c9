// The sweeps of a table on ranks (solve/ranked_sweep.hpp) take each ply in rounds, each ending in an
// exchange: in-process, on one rank, in rounds of one chunk of entries, the values are those of the
// solve without ranks.
#include <gtest/gtest.h>

#include "ranks/ranks.hpp"
#include "solve/layer_sweep.hpp"
#include "support/solved_tables.hpp"

using namespace retro;

namespace {

void expect_same_values_in_rounds_of_one_chunk(const std::string& material) {
    const auto reference = retro::test::solved_table(material);
    OneProcess one;
    SolveOptions rounds;
    rounds.ranks = &one;
    rounds.exchange_round_entries = SWEEP_CHUNK;
    rounds.waves_below = 1;  // a pawn table's slices too, each alone
    EXPECT_TRUE(*solve_in_memory(reference->material(), retro::test::solved_tables({material}), rounds) ==
                *reference)
        << material;
}

}  // namespace

// 27 rounds a ply (1.75 million entries a side).
TEST(RankedSweep, KQvKRInRoundsOfOneChunk) { expect_same_values_in_rounds_of_one_chunk("KQvKR"); }
// Slices of 3612 king pairs and 62 rook squares: 4 rounds a ply.
TEST(RankedSweep, KRPvKInRoundsOfOneChunk) { expect_same_values_in_rounds_of_one_chunk("KRPvK"); }
