// The search for the entries whose value an exit (a capture or a promotion) achieves: what it reports
// while it runs.
#include "solve/exit_settled.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "solved_tables.hpp"

namespace retro {

TEST(ExitSettled, ReportsItsProgressInOrderUpToEveryEntryOfBothSides) {
    const Tablebase& tables = test::solved_tables({"KQvKR"});
    const auto table = tables.find(Material::parse("KQvKR"));
    std::vector<uint64_t> done;
    uint64_t total = 0;
    const EntryBits reported = exit_settled(*table, tables, nullptr, [&](uint64_t d, uint64_t entries) {
        done.push_back(d);
        total = entries;
    });
    EXPECT_EQ(total, 2 * table->size());
    ASSERT_GE(done.size(), 3u);  // some ranges on the way, then the end
    EXPECT_TRUE(std::is_sorted(done.begin(), done.end()));
    EXPECT_LT(done.front(), total);
    EXPECT_EQ(done.back(), total);
    EXPECT_EQ(reported.words, exit_settled(*table, tables).words);  // reporting changes nothing
}

}  // namespace retro
