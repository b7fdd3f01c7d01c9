// The solver's progress lines for a pawn table solved in waves: one line per wave of slices solved
// side by side, naming the wave's last slice, not one per slice of the wave.
#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

#include "index/dependencies.hpp"
#include "index/pawn_slices.hpp"
#include "jobs/log.hpp"
#include "solve/solver.hpp"
#include "support/solved_tables.hpp"

using namespace retro;

namespace {

// KRPvK's 24 slices are small enough to be solved in waves, one wave per rank of the pawn: 6 waves
// of 4 slices, every slice a line mark (fewer slices than SLICE_LINES).
TEST(SolverProgressLines, AWaveOfSlicesReportsOnce) {
    const Material m = Material::parse("KRPvK");
    ASSERT_TRUE(solved_in_waves(m));
    ASSERT_EQ(pawn_configs(m).size(), 24u);
    std::vector<std::string> subs;
    for (const Material& sub : direct_subtables(m)) subs.push_back(sub.name());
    const Tablebase& subtables = test::solved_tables(subs);

    std::vector<int> done;
    const std::regex slice_done(R"(^KRPvK slice (\d+) of 24 done, )");
    LineStream progress([&](const std::string& line) {
        std::smatch match;
        if (std::regex_search(line, match, slice_done)) done.push_back(std::stoi(match.str(1)));
    });
    SolveOptions options;
    options.control.lines = &progress;
    const auto table = solve_in_memory(m, subtables, options);
    ASSERT_TRUE(table);
    EXPECT_EQ(done, (std::vector<int>{4, 8, 12, 16, 20, 24}));
}

}  // namespace
