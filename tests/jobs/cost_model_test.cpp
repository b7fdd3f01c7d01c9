// The cost model's arithmetic: reference rates by kind and men, grown past the largest men
// measured, scaled by the machine's speed and shared among threads.
#include "jobs/cost_model.hpp"

#include <gtest/gtest.h>

#include "jobs/estimates.hpp"

using namespace retro;

namespace {

const ReferenceRate RATES[] = {
    {TableKind::PawnsInMemory, 4, {3e-7, 1e-8}},
    {TableKind::Pawnless, 5, {2e-7, 4e-8}},
    {TableKind::Pawnless, 4, {1e-7, 1e-8}},
    {TableKind::PawnsLean, 5, {5e-7, 1e-7}},
};

}  // namespace

TEST(JobsCostModel, TakesTheRateOfItsKindAndMen) {
    const CostModel model(RATES, 2, 1, 1);
    EXPECT_DOUBLE_EQ(model.reference_cost(TableKind::Pawnless, 4).solve, 1e-7);
    EXPECT_DOUBLE_EQ(model.reference_cost(TableKind::Pawnless, 5).write, 4e-8);
    // Fewer men than measured: the smallest measured.
    EXPECT_DOUBLE_EQ(model.reference_cost(TableKind::Pawnless, 3).solve, 1e-7);
    EXPECT_DOUBLE_EQ(model.reference_cost(TableKind::PawnsLean, 4).total(), 6e-7);
    // Past the largest: grown by 2 per man.
    EXPECT_DOUBLE_EQ(model.reference_cost(TableKind::Pawnless, 6).solve, 4e-7);
    EXPECT_DOUBLE_EQ(model.reference_cost(TableKind::Pawnless, 6).write, 8e-8);
    EXPECT_DOUBLE_EQ(model.reference_cost(TableKind::Pawnless, 7).solve, 8e-7);
    EXPECT_DOUBLE_EQ(model.reference_cost(TableKind::PawnsInMemory, 6).solve, 1.2e-6);
}

TEST(JobsCostModel, ScalesByTheMachinesSpeedAndSharesAmongThreads) {
    // 1e9 entries of a 5-man pawnless table: 240 s of CPU on the reference machine, 1.5 times as
    // long here, on 2 threads.
    EXPECT_DOUBLE_EQ(CostModel(RATES, 2, 1.5, 2).seconds(TableKind::Pawnless, 5, 1'000'000'000), 180);
    EXPECT_DOUBLE_EQ(CostModel(RATES, 3, 1, 1).seconds(TableKind::PawnsLean, 6, 1'000'000), 1.8);
}

TEST(JobsCostModel, KindsFollowTheMemoryPlan) {
    const Material krpkr = Material::parse("KRPvKR");
    EXPECT_EQ(table_kind(Material::parse("KQvKR"), memory_plan(Material::parse("KQvKR"))),
              TableKind::Pawnless);
    EXPECT_EQ(table_kind(krpkr, memory_plan(krpkr)), TableKind::PawnsInMemory);
    EXPECT_EQ(table_kind(krpkr, memory_plan(krpkr, 1024)), TableKind::PawnsLean);
}

TEST(JobsCostModel, CalibratesOncePerProcess) {
    const double seconds = calibration_seconds();
    EXPECT_GT(seconds, 0);
    EXPECT_EQ(calibration_seconds(), seconds);
    EXPECT_GT(machine_cost_model(1).speed(), 0);
}
