// The plan of a table split over ranks by king pair: a rank's state, rank 0's write, and which
// checkpoints the ranks resume.
#include <gtest/gtest.h>

#include "index/index_scheme.hpp"
#include "index/rank_split.hpp"
#include "jobs/estimates.hpp"
#include "jobs/plan.hpp"
#include "jobs/plan_tables.hpp"
#include "solve/checkpoint.hpp"
#include "solve/estimates.hpp"
#include "store/estimates.hpp"
#include "store/table_paths.hpp"
#include "support/store_test_util.hpp"

using namespace retro;

TEST(JobsPlanRanks, KQvKRStatePerRankIsItsKingPairs) {
    const Material kqkr = Material::parse("KQvKR");
    const uint64_t entries = IndexScheme(kqkr).size(), per_pair = 62 * 62;
    ASSERT_EQ(entries, 462 * per_pair);
    const uint64_t survey = survey_bytes(entries);
    const auto per_rank = [&](int ranks) {
        return memory_plan(kqkr, UINT64_MAX, UINT64_MAX, true, 0, {}, 1, ranks);
    };
    // One process: the whole state and the survey the solver finds for the writer.
    EXPECT_EQ(per_rank(1).state, sweep_state_bytes(entries) + survey);
    EXPECT_EQ(per_rank(1).ranks, 1);
    // Two ranks hold 231 king pairs each, four at most 116 of 462: the sweeps' state and the survey
    // of their entries. Rank 0 gathers the table (2 bytes per entry) and the survey,
    // a quarter of it at a time: the last quarter received and placed beside the three before it.
    const uint64_t two = 231 * per_pair, four = 116 * per_pair;
    EXPECT_EQ(per_rank(2).state, sweep_state_bytes(two) + survey_bytes(two));
    EXPECT_EQ(per_rank(4).state, sweep_state_bytes(four) + survey_bytes(four));
    EXPECT_EQ(per_rank(2).writing, 2 * entries + survey + survey / 4);
    EXPECT_EQ(per_rank(4).writing, 2 * entries + survey + survey / 4);
    EXPECT_EQ(per_rank(4).gathered_survey, 0u);  // gathered once solved, while writing
    // Self-contained files: no survey.
    EXPECT_EQ(memory_plan(kqkr, UINT64_MAX, UINT64_MAX, false, 0, {}, 1, 4).state, sweep_state_bytes(four));
    EXPECT_EQ(memory_plan(kqkr, UINT64_MAX, UINT64_MAX, false, 0, {}, 1, 4).writing, 2 * entries);
    EXPECT_EQ(per_rank(4).captures, per_rank(1).captures);  // every rank reads them whole
    // A rank's 116 pairs hold fewer entries than the least budget of updates (2^20): the plan counts
    // 8 bytes per entry received, and a third of it sent (each of the 3 others may send as much).
    EXPECT_EQ(per_rank(1).exchange, 0u);
    EXPECT_EQ(per_rank(4).exchange, 8 * (four + four / 3));
    EXPECT_EQ(per_rank(4).solving(),
              PROCESS_BYTES + per_rank(4).state + per_rank(4).exchange + per_rank(1).captures);
    EXPECT_NE(per_rank(4).text().find("updates exchanged"), std::string::npos) << per_rank(4).text();
    EXPECT_NE(per_rank(4).text().find("per rank of 4: solving"), std::string::npos) << per_rank(4).text();
    EXPECT_NE(per_rank(4).text().find("writing (rank 0)"), std::string::npos) << per_rank(4).text();
    // A pawn table's slices are split too: each of KRPvKR's 24 slices has 3612 king pairs (the pawn
    // fixed, both images) of 62 x 62 rook squares, 903 pairs at each of 4 ranks, with the survey of
    // those entries. Every rank holds the solved slices, the whole table as one process does; rank 0
    // alone gathers the slices' surveys, the table's, which it writes with.
    const Material krpkr = Material::parse("KRPvKR");
    const uint64_t slice_share = 903 * 62 * 62, krpkr_entries = IndexScheme(krpkr).size();
    ASSERT_EQ(krpkr_entries, 24 * 3612 * 62 * 62u);
    const MemoryPlan pawns_on_four = memory_plan(krpkr, UINT64_MAX, UINT64_MAX, true, 0, {}, 1, 4);
    EXPECT_EQ(pawns_on_four.state, sweep_state_bytes(slice_share) + survey_bytes(slice_share));
    EXPECT_EQ(pawns_on_four.own, memory_plan(krpkr).own);
    EXPECT_EQ(pawns_on_four.ranks, 4);
    EXPECT_EQ(pawns_on_four.gathered_survey, survey_bytes(krpkr_entries));
    // A slice's 3.47 million entries at a rank: the least budget, 2^20 updates received, a third of
    // it sent.
    EXPECT_EQ(pawns_on_four.exchange, 8 * ((uint64_t(1) << 20) + (uint64_t(1) << 20) / 3));
    EXPECT_EQ(pawns_on_four.writing, 2 * krpkr_entries + survey_bytes(krpkr_entries));
    EXPECT_EQ(pawns_on_four.writing, memory_plan(krpkr).writing);  // as one process writes it
    EXPECT_EQ(pawns_on_four.solving() - pawns_on_four.peak_not_writing(), survey_bytes(krpkr_entries));
    EXPECT_NE(pawns_on_four.text().find("survey at rank 0 " + format_bytes(survey_bytes(krpkr_entries))),
              std::string::npos)
        << pawns_on_four.text();
    // Self-contained: no survey at any rank. With the slices on disk, each slice's survey goes to rank
    // 0's slice store: the ranks find their shares', and rank 0 gathers none whole.
    const MemoryPlan self_contained = memory_plan(krpkr, UINT64_MAX, UINT64_MAX, false, 0, {}, 1, 4);
    EXPECT_EQ(self_contained.state, sweep_state_bytes(slice_share));
    EXPECT_EQ(self_contained.gathered_survey, 0u);
    EXPECT_EQ(self_contained.writing, 2 * krpkr_entries);
    const MemoryPlan lean = memory_plan(krpkr, 1, UINT64_MAX, true, 0, {}, 1, 4);
    ASSERT_TRUE(lean.slices_on_disk);
    EXPECT_EQ(lean.state, sweep_state_bytes(slice_share) + survey_bytes(slice_share));
    EXPECT_EQ(lean.gathered_survey, 0u);
}

TEST(JobsPlanRanks, DryRunLinesSayEachRanksPeakAndWhatFits) {
    const Material kqkr = Material::parse("KQvKR");
    const std::filesystem::path none = std::filesystem::temp_directory_path() / "retro_jobs_plan_ranks_none";
    JobSettings settings{.memory_limit = 0, .cache = {}, .threads = 1};
    settings.ranks = 4;
    const MemoryPlan four = make_plan({kqkr}, none, settings).tables.back().memory;
    ASSERT_EQ(four.ranks, 4);
    // Rank 0 also gathers the table and writes it, which takes KQvKR's rank 0 less than its part of
    // the solve with a round's updates exchanged (4.5 MiB); the others' peak is the solve's.
    EXPECT_LT(four.written(), four.solving());
    EXPECT_EQ(four.peak(), four.solving());
    EXPECT_EQ(four.peak_not_writing(), four.solving());
    // The limit is a rank's: rank 0's peak fits it or not.
    for (const uint64_t limit : {four.peak(), four.peak() - 1}) {
        settings.memory_limit = limit;
        const std::vector<std::string> lines = plan_table_lines(make_plan({kqkr}, none, settings));
        ASSERT_EQ(lines.size(), 2u);
        EXPECT_NE(
            lines[0].find("peak " + format_bytes(four.peak()) + " at rank 0, which writes; " +
                          format_bytes(four.solving()) + " at each other rank, by king pair over 4 ranks"),
            std::string::npos)
            << lines[0];
        EXPECT_NE(lines[0].find(limit == four.peak() ? "  fits" : "  needs more"), std::string::npos)
            << lines[0];
    }
}

// A checkpoint is resumed by as many ranks as wrote it: the job is refused before it starts, naming
// the number needed, and the refusal says how to start over.
TEST(JobsPlanRanks, ACheckpointIsResumedByAsManyRanksOnly) {
    store_test::ScratchDir dir("plan-ranks-checkpoint");
    const Material krk = Material::parse("KRvK");
    const auto written_by = [&](RankPart part) {
        const uint64_t held = king_pair_ranges(IndexScheme(krk), part.ranks)[size_t(part.rank)].size();
        const SweepState s = blank_sweep_state(held);
        write_checkpoint(checkpoint_path(dir.path, krk), krk, 0, &s, {}, part);
    };
    const auto refused_on = [&](int ranks) {
        JobSettings settings;
        settings.ranks = ranks;
        return refusal(make_plan({krk}, dir.path, settings));
    };
    written_by({0, 2});
    for (const int ranks : {1, 3}) {
        const auto why = refused_on(ranks);
        ASSERT_TRUE(why) << ranks;
        EXPECT_NE(why->find("KRvK.checkpoint was written by 2 ranks, and only as many resume it: run under "
                            "mpirun -np 2 to finish KRvK, or remove KRvK.checkpoint"),
                  std::string::npos)
            << *why;
    }
    EXPECT_FALSE(refused_on(2));
    written_by({});
    const auto why = refused_on(2);
    ASSERT_TRUE(why);
    EXPECT_NE(why->find("was written by one process, and only as many resume it: run tbgen without mpirun"),
              std::string::npos)
        << *why;
    EXPECT_FALSE(refused_on(1));
}

// Each rank checkpoints its part of the state and log, and keeps its own store of a pawn table's
// solved slices: the disk a job needs counts that store once per rank.
TEST(JobsPlanRanks, EachRankCheckpointsItsOwnSliceStore) {
    const Material krpk = Material::parse("KRPvK"), kqkr = Material::parse("KQvKR");
    const uint64_t store = IndexScheme(krpk).size();
    EXPECT_EQ(checkpoint_bytes_estimate(krpk, 4) - checkpoint_bytes_estimate(krpk, 1), 3 * (store + 4096));
    EXPECT_EQ(checkpoint_bytes_estimate(kqkr, 4) - checkpoint_bytes_estimate(kqkr, 1), 3 * 4096u);
    const std::filesystem::path none = std::filesystem::temp_directory_path() / "retro_jobs_plan_ranks_none";
    const auto disk_on = [&](int ranks) {
        JobSettings settings;
        settings.ranks = ranks;
        return make_plan({krpk}, none, settings).disk_needed(FileSize::Bound);
    };
    // KRPvK's checkpoints are the job's largest from 2 ranks on (in one process a sub-table's), and each is
    // written beside the one before it replaces it.
    EXPECT_EQ(disk_on(4) - disk_on(2), 2 * 2 * (store + 4096));
}
