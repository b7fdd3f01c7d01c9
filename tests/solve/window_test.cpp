// The solver's state codes hold distances only within a window of plies ahead of the sweep; longer
// ones are kept as far codes and derived again when the window comes near (solve/entry_state.hpp).
// The widest window never meets a far distance in a 4-man table, so these tests narrow it until
// nearly every capture bound, promotion, en passant win and long loss is far, and check that the
// values do not change.
#include <gtest/gtest.h>

#include "support/solved_tables.hpp"

using namespace retro;

namespace {

void expect_same_values_in_narrow_windows(const std::string& material) {
    const auto reference = retro::test::solved_table(material);
    const Tablebase& subtables = retro::test::solved_tables({material});
    for (int window : {3, 12}) {
        SolveOptions narrow;
        narrow.window = window;
        EXPECT_TRUE(*solve_in_memory(reference->material(), subtables, narrow) == *reference)
            << material << " in a window of " << window << " plies";
    }
}

}  // namespace

// Captures into KQvK and KRvK with long wins (KQvKR's longest loss is 70 plies).
TEST(SolverWindow, KQvKR) { expect_same_values_in_narrow_windows("KQvKR"); }
// Promotions, wins for both sides, and en passant edges, whose far wins are kept in the edge.
TEST(SolverWindow, KPvKP) { expect_same_values_in_narrow_windows("KPvKP"); }
