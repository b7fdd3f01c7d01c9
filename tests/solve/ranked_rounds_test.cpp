// The sweeps of a table on ranks (solve/ranked_sweep.hpp) take each ply in rounds, each ending in an
// exchange once a rank holds its budget of updates for the others, until every rank has swept its
// layer. On 2 and 3 ranks that are threads of one process, with the smallest budget (a 1/256 share of
// a rank's entries: several rounds in most plies), rank 0 gets the values of the solve without ranks.
#include <gtest/gtest.h>

#include <memory>
#include <thread>
#include <vector>

#include "solve/ranked_sweep.hpp"
#include "support/solved_tables.hpp"
#include "support/thread_ranks.hpp"

using namespace retro;

namespace {

void expect_values_of_one_process(const std::string& material, int ranks) {
    const auto reference = retro::test::solved_table(material);
    const Tablebase& subtables = retro::test::solved_tables({material});
    test::RankGroup group(ranks);
    std::unique_ptr<Table> at_rank_zero;
    std::vector<int> others_with_a_table(size_t(ranks), 0);
    std::vector<std::thread> threads;
    for (int r = 0; r < ranks; ++r)
        threads.emplace_back([&, r] {
            test::ThreadRank rank(group, r);
            SolveOptions options;
            options.ranks = &rank;
            options.exchange_round_updates = 1;
            options.waves_below = 1;  // a pawn table's slices too, each split over the ranks
            if (r == 0)
                at_rank_zero = solve_in_memory(reference->material(), subtables, options);
            else
                others_with_a_table[size_t(r)] =
                    solve_table(reference->material(), subtables, options).whole != nullptr;
        });
    for (auto& t : threads) t.join();
    ASSERT_TRUE(at_rank_zero);
    EXPECT_TRUE(*at_rank_zero == *reference) << material << " on " << ranks << " ranks";
    EXPECT_EQ(others_with_a_table, std::vector<int>(size_t(ranks), 0));  // rank 0 alone gets the table
}

}  // namespace

TEST(RankedSweep, BudgetOfTheRoundsOnlyBoundsThem) {
    // KQvKR's 462 king pairs of 3844 entries: on 2 ranks 231 each, a budget of 3468 updates.
    const IndexScheme kqkr(Material::parse("KQvKR"));
    EXPECT_EQ(exchange_budget(kqkr, 2, 1), (231 * 3844 + 255) / 256);
    EXPECT_EQ(exchange_budget(kqkr, 2, uint64_t(1) << 20), uint64_t(1) << 20);
}

// About 6 rounds a ply on 2 ranks.
TEST(RankedSweep, KQvKROnTwoAndThreeRanksInSmallRounds) {
    expect_values_of_one_process("KQvKR", 2);
    expect_values_of_one_process("KQvKR", 3);
}
// Every slice split over the ranks.
TEST(RankedSweep, KRPvKOnTwoRanksInSmallRounds) { expect_values_of_one_process("KRPvK", 2); }
