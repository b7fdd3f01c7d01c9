// The solver's passes as the control is told their times (Control::timed): each pass of a scheme
// solved alone once, a wave of small slices whole, and a pawn table's assembly once, their times
// within the solve's.
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "index/dependencies.hpp"
#include "index/pawn_slices.hpp"
#include "solve/solver.hpp"
#include "support/solved_tables.hpp"

using namespace retro;

namespace {

using Phase = Control::Phase;

struct Told {
    std::map<Phase, int> times;  // how often each pass was told
    double seconds = 0;          // of all of them
    double wall = 0;             // of the whole solve
};

Told solve_timed(const std::string& material, uint64_t waves_below = WAVE_SLICE_ENTRIES) {
    const Material m = Material::parse(material);
    std::vector<std::string> subs;
    for (const Material& sub : direct_subtables(m)) subs.push_back(sub.name());
    const Tablebase& subtables = test::solved_tables(subs);
    Told told;
    SolveOptions options;
    options.waves_below = waves_below;
    options.control.timed = [&](Phase p, double seconds) {
        EXPECT_GE(seconds, 0);
        ++told.times[p];
        told.seconds += seconds;
    };
    const auto start = std::chrono::steady_clock::now();
    EXPECT_TRUE(solve_in_memory(m, subtables, options));
    told.wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return told;
}

TEST(SolverPhaseTimes, APawnlessTableTellsEachPassOnce) {
    const Told told = solve_timed("KQvK");
    EXPECT_EQ(told.times,
              (std::map<Phase, int>{{Phase::FirstPass, 1}, {Phase::Sweeps, 1}, {Phase::FinalValues, 1}}));
    EXPECT_LE(told.seconds, told.wall);
}

// KPvK's 24 slices are solved in 6 waves of 4 by default; with waves_below 1, each alone.
TEST(SolverPhaseTimes, APawnTableTellsItsWavesOrItsSlicesThenTheAssembly) {
    ASSERT_EQ(pawn_configs(Material::parse("KPvK")).size(), 24u);
    const Told in_waves = solve_timed("KPvK");
    EXPECT_EQ(in_waves.times, (std::map<Phase, int>{{Phase::Waves, 6}, {Phase::Assembly, 1}}));
    EXPECT_LE(in_waves.seconds, in_waves.wall);

    const Told alone = solve_timed("KPvK", 1);
    EXPECT_EQ(
        alone.times,
        (std::map<Phase, int>{
            {Phase::FirstPass, 24}, {Phase::Sweeps, 24}, {Phase::FinalValues, 24}, {Phase::Assembly, 1}}));
    EXPECT_LE(alone.seconds, alone.wall);
}

}  // namespace
