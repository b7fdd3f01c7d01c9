// Job planning: which materials make up a set, dependency order, estimates and refusals.
#include "jobs/plan.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>

#include "index/dependencies.hpp"
#include "index/index_scheme.hpp"
#include "index/pawn_slices.hpp"
#include "jobs/estimates.hpp"
#include "jobs/progress.hpp"
#include "solve/estimates.hpp"
#include "solve/exit_settled.hpp"
#include "solve/solver.hpp"
#include "store/block_cache.hpp"
#include "support/solved_tables.hpp"

using namespace retro;
namespace fs = std::filesystem;

namespace {

// No memory limit and no cache: every table held whole, a pawn table's slices solved one at a time.
const JobSettings WHOLE{.memory_limit = 0, .cache = {}, .threads = 1};

JobSettings with_cache(uint64_t cache) {
    JobSettings lean = WHOLE;
    lean.cache = cache;
    return lean;
}

}  // namespace

TEST(JobsPlan, MaterialCountsPerNumberOfMen) {
    std::map<int, int> per_men;
    const auto five = materials_up_to(5);
    for (const Material& m : five) ++per_men[m.total()];
    EXPECT_EQ(per_men[3], 5);
    EXPECT_EQ(per_men[4], 30);
    EXPECT_EQ(per_men[5], 110);
    EXPECT_EQ(five.size(), 145u);
    EXPECT_EQ(materials_up_to(4).size(), 35u);
    EXPECT_EQ(materials_up_to(3).size(), 5u);
    EXPECT_THROW(materials_up_to(2), JobError);
    // Seven men: five men besides the kings, from QRBNP, split 5-0, 4-1 or 3-2 between the sides
    // (2 * (126 + 70 * 5 + 35 * 15) = 2002 ordered pairs), never equal, so each material and its
    // colours swapped are one table: 1001.
    per_men.clear();
    const auto seven = materials_up_to(7);
    for (const Material& m : seven) ++per_men[m.total()];
    EXPECT_EQ(per_men[6], 365);
    EXPECT_EQ(per_men[7], 1001);
    EXPECT_EQ(seven.size(), 1511u);
    EXPECT_THROW(materials_up_to(8), JobError);
}

TEST(JobsPlan, MaterialsAreCanonicalAndDistinct) {
    const auto five = materials_up_to(5);
    std::set<std::string> names;
    for (const Material& m : five) {
        EXPECT_TRUE(m.is_canonical()) << m.name();
        EXPECT_GE(m.total(), 3);
        names.insert(m.name());
    }
    EXPECT_EQ(names.size(), five.size());
    for (const char* name :
         {"KQvK", "KPvK", "KQvKR", "KPvKP", "KBNvK", "KQRvKQ", "KRBvKR", "KPPPvK", "KBPvKP"})
        EXPECT_TRUE(names.count(name)) << name;
    EXPECT_FALSE(names.count("KvK"));
}

TEST(JobsPlan, EveryTableComesAfterItsSubtables) {
    const fs::path nowhere = fs::temp_directory_path() / ("retro_jobs_plan_" + std::to_string(getpid()));
    const JobPlan plan = make_plan(materials_up_to(5), nowhere);
    ASSERT_EQ(plan.tables.size(), 145u);
    std::map<std::string, size_t> position;
    for (size_t i = 0; i < plan.tables.size(); ++i) position[plan.tables[i].material.name()] = i;
    for (size_t i = 0; i < plan.tables.size(); ++i) {
        EXPECT_FALSE(plan.tables[i].complete);
        for (const Material& sub : direct_subtables(plan.tables[i].material)) {
            ASSERT_TRUE(position.count(sub.name())) << sub.name();
            EXPECT_LT(position[sub.name()], i) << sub.name() << " before " << plan.tables[i].material.name();
        }
    }
    EXPECT_EQ(plan.to_build(), 145);
    EXPECT_FALSE(fs::exists(nowhere));  // planning writes nothing
}

// A capture or promotion by White leaves Black to move, and the canonical orientation puts the side
// that moved (the stronger) first, so every exit of a table reaches the same side of a sub-table.
TEST(Dependencies, ExitsReachOneSideToMoveOfEachSubTable) {
    auto text = [](const std::vector<SubtableSides>& subs) {
        std::string out;
        for (const auto& [m, sides] : subs)
            out += m.name() + ":" + (sides & side_bit(WHITE) ? "w" : "") +
                   (sides & side_bit(BLACK) ? "b" : "") + " ";
        return out;
    };
    const Material kqrkr = Material::parse("KQRvKR");
    EXPECT_EQ(text(direct_subtable_sides(kqrkr)), "KQRvK:b KQvKR:w KRvKR:w ");
    EXPECT_EQ(text(direct_subtable_sides(kqrkr, side_bit(WHITE))), "KQRvK:b ");
    EXPECT_EQ(text(direct_subtable_sides(kqrkr, side_bit(BLACK))), "KQvKR:w KRvKR:w ");
    EXPECT_EQ(text(direct_subtable_sides(Material::parse("KPvKP"))),
              "KBvKP:b KNvKP:b KPvK:b KQvKP:b KRvKP:b ");
    // Both sides only where a pawn promotes by capturing: in KQRvKP, Black's pawn takes the rook and
    // becomes a rook (KQvKR, White to move) or takes the queen and becomes a queen (KRvKQ, White to
    // move, which is KQvKR with Black to move). 10 such pairs up to six men.
    EXPECT_EQ(text(direct_subtable_sides(Material::parse("KQRvKP"))),
              "KQRvK:b KQRvKB:w KQRvKN:w KQRvKQ:w KQRvKR:w KQvKB:w KQvKN:w KQvKP:w KQvKQ:w KQvKR:wb "
              "KRvKB:w KRvKN:w KRvKP:w KRvKR:w ");
    int both = 0;
    for (const Material& m : materials_up_to(6))
        for (const auto& [sub, sides] : direct_subtable_sides(m)) both += sides == BOTH_SIDES;
    EXPECT_EQ(both, 10);
}

TEST(JobsPlan, EstimatesAddUp) {
    const Material kqkr = Material::parse("KQvKR");
    const uint64_t entries = IndexScheme(kqkr).size();
    EXPECT_EQ(table_memory_bytes(kqkr), 2 * entries);
    EXPECT_EQ(table_file_bytes_estimate(kqkr, FileSize::Bound), 2 * entries * 40 / 100 + 65536);
    EXPECT_EQ(table_file_bytes_estimate(kqkr, FileSize::Expected), 2 * entries * 11 / 100 + 65536);
    const Material krpkr = Material::parse("KRPvKR");
    EXPECT_EQ(exact_copy_bytes_estimate(krpkr, FileSize::Expected),
              2 * IndexScheme(krpkr).size() * 20 / 100 + 65536);
    // A pawnless table: its state and 4 bits per entry for its survey (legal and settled, both
    // sides), which the solver finds and the writer takes; one side to move of each sub-table
    // (Dependencies.ExitsReachOneSideToMove...).
    const MemoryPlan m = memory_plan(kqkr);
    EXPECT_FALSE(m.slices_on_disk || m.promotions_in_part);
    // The state: a code per entry and side, and a bit per entry and side for its exits.
    EXPECT_EQ(sweep_state_bytes(entries), 2 * entries + 2 * 8 * ((entries + 63) / 64));
    EXPECT_EQ(m.state, sweep_state_bytes(entries) + 4 * 8 * ((entries + 63) / 64));
    EXPECT_EQ(m.writing, 2 * entries + 4 * 8 * ((entries + 63) / 64));
    EXPECT_EQ(
        m.captures,
        (table_memory_bytes(Material::parse("KQvK")) + table_memory_bytes(Material::parse("KRvK"))) / 2);
    EXPECT_EQ(m.peak(), PROCESS_BYTES + m.state + m.captures);  // the state holds more than the values
    // The threads' codecs count in every step (zstd keeps them from block to block): a zstd 15
    // context for 128 KiB blocks is about 2.9 MiB, zstd 1's 0.6 MiB; for the ranked blocks of a
    // settled file, a byte longer, zstd 15 takes the next larger parameters, about 4.4 MiB.
    WriteOptions zstd15{.codec = Codec::Zstd};
    const uint64_t two_threads = codec_bytes(zstd15, 2);
    EXPECT_GT(two_threads, uint64_t(2 * 4) << 20);
    EXPECT_LT(two_threads, uint64_t(2 * 5) << 20);
    WriteOptions self_contained = zstd15;
    self_contained.settle_exits = false;
    EXPECT_GT(codec_bytes(self_contained, 2), uint64_t(2 * 2) << 20);
    EXPECT_LT(codec_bytes(self_contained, 2), uint64_t(2 * 4) << 20);
    EXPECT_EQ(codec_bytes(zstd15, 64), 32 * two_threads);
    WriteOptions zstd1 = zstd15;
    zstd1.level = 1;
    EXPECT_LT(codec_bytes(zstd1, 2), two_threads / 3);
    EXPECT_GT(codec_bytes(WriteOptions{}, 2), 0u);  // xz 6
    const MemoryPlan with_codecs = memory_plan(kqkr, UINT64_MAX, UINT64_MAX, true, two_threads);
    EXPECT_EQ(with_codecs.solving(), m.solving() + two_threads);
    EXPECT_EQ(with_codecs.written(), m.written() + two_threads);
    EXPECT_EQ(with_codecs.reading(), m.reading() + two_threads);
    EXPECT_NE(with_codecs.text().find(", codecs "), std::string::npos) << with_codecs.text();
    EXPECT_EQ(m.text().find("codecs"), std::string::npos) << m.text();
    // --self-contained: no search for exits, no bits for it.
    EXPECT_EQ(memory_plan(kqkr, UINT64_MAX, UINT64_MAX, false).state, sweep_state_bytes(entries));
    EXPECT_EQ(memory_plan(kqkr, UINT64_MAX, UINT64_MAX, false).writing, 2 * entries);
    const JobPlan plan = make_plan({kqkr}, fs::temp_directory_path() / "retro_jobs_plan_none", WHOLE);
    ASSERT_EQ(plan.tables.size(), 3u);
    EXPECT_EQ(plan.peak_memory_table()->name(), "KQvKR");
    EXPECT_EQ(plan.peak_memory(), m.peak() + plan.resources.codecs);
    EXPECT_EQ(plan.entries_to_build(), 2 * (entries + IndexScheme(Material::parse("KQvK")).size() +
                                            IndexScheme(Material::parse("KRvK")).size()));
    for (FileSize size : {FileSize::Expected, FileSize::Bound})
        EXPECT_GE(plan.disk_needed(size), plan.disk_total(size));
    EXPECT_LT(plan.disk_needed(FileSize::Expected), plan.disk_needed(FileSize::Bound));
}

// tbbench's solve (solve_in_memory) loads its sub-tables whole, both sides, and a pawn table's
// slices, all held, are merged into the whole table at the end: KRPvKR's peak (measured 2.00 GiB)
// is twice its values beside the sub-tables, where a job holds the one side its promotions reach and
// merges a slice at a time.
TEST(JobsEstimates, AnInMemorySolveHoldsItsSubtablesWhole) {
    const auto whole_subtables = [](const Material& m) {
        uint64_t bytes = 0;
        for (const Material& sub : direct_subtables(m)) bytes += table_memory_bytes(sub);
        return bytes;
    };
    const Material krbkr = Material::parse("KRBvKR");
    EXPECT_EQ(in_memory_solve_bytes(krbkr, 2),
              PROCESS_BYTES + whole_subtables(krbkr) + sweep_state_bytes(IndexScheme(krbkr).size()));
    const Material krpkr = Material::parse("KRPvKR");
    EXPECT_EQ(direct_subtables(krpkr).size(), 11u);  // KQRvKR, KRRvKR, KRBvKR and KRNvKR among them
    const uint64_t table = table_memory_bytes(krpkr);
    EXPECT_EQ(table, 666457344u);
    EXPECT_EQ(in_memory_solve_bytes(krpkr, 2), PROCESS_BYTES + whole_subtables(krpkr) + 2 * table);
    EXPECT_EQ(in_memory_solve_bytes(krpkr, 2), 2151927756u);  // 2.00 GiB
    EXPECT_GT(in_memory_solve_bytes(krpkr, 2), memory_plan(krpkr).peak() + table / 2);
}

// A pawn table holds its values and the tables its promotions reach whole while they fit the cache;
// beyond it, its slices stay on disk (the slices pushes reach read back), then its promotions are
// read in part too.
TEST(JobsPlan, APawnTableStaysWithinItsCache) {
    const Material m = Material::parse("KRPvKR");
    const uint64_t table = table_memory_bytes(m), slice = slice_entries(m);
    const uint64_t promotions =
        (table_memory_bytes(Material::parse("KQRvKR")) + table_memory_bytes(Material::parse("KRRvKR")) +
         table_memory_bytes(Material::parse("KRBvKR")) + table_memory_bytes(Material::parse("KRNvKR"))) /
        2;
    const MemoryPlan whole = memory_plan(m);
    EXPECT_FALSE(whole.slices_on_disk || whole.promotions_in_part);
    EXPECT_EQ(whole.state,
              sweep_state_bytes(slice) + 2 * 2 * 8 * ((table / 2 + 63) / 64));  // and the table's survey
    EXPECT_EQ(whole.own, table);
    EXPECT_EQ(whole.promotions, promotions);
    EXPECT_EQ(whole.writing, table + 2 * 2 * 8 * ((table / 2 + 63) / 64));  // its survey: legal, settled

    const MemoryPlan on_disk = memory_plan(m, promotions + 2 * slice);
    EXPECT_TRUE(on_disk.slices_on_disk);
    EXPECT_FALSE(on_disk.promotions_in_part);
    EXPECT_EQ(on_disk.own, 2 * slice);  // a single and a double push
    // A few slices read back, and two still in use, with their surveys (2 bits an entry and side).
    EXPECT_EQ(on_disk.writing, 6 * slice + 6 * slice / 4);

    const MemoryPlan lean = memory_plan(m, 0);
    EXPECT_TRUE(lean.slices_on_disk && lean.promotions_in_part);
    EXPECT_EQ(lean.promotions, 4 * slice);
    // A slice's pawn pushes or promotes: the larger of the two, not their sum. Promoted files that
    // settle values by exits (every one, unless told) are probed through the block cache, held whole.
    EXPECT_EQ(lean.probe_cache, BlockCache::DEFAULT_BYTES);
    // The slice in progress finds its survey; the solved slices keep theirs on disk.
    EXPECT_EQ(lean.solving(), PROCESS_BYTES + sweep_state_bytes(slice) + survey_bytes(slice) + 4 * slice +
                                  lean.captures + lean.probe_cache);
    EXPECT_EQ(lean.peak(), lean.written());
    EXPECT_LT(lean.peak(), whole.peak() / 2);
    EXPECT_EQ(lean.captures, whole.captures);
    EXPECT_NE(lean.text().find("own slices read back"), std::string::npos) << lean.text();
    EXPECT_NE(lean.text().find(" or promotions in part"), std::string::npos) << lean.text();
    EXPECT_NE(lean.text().find("probe cache 64.0 MiB"), std::string::npos) << lean.text();
    // Self-contained promoted files are read without probes.
    const MemoryPlan lean_self_contained =
        memory_plan(m, 0, UINT64_MAX, true, 0, [](const Material&) { return false; });
    EXPECT_EQ(lean_self_contained.probe_cache, 0u);
    EXPECT_EQ(lean_self_contained.solving(), lean.solving() - BlockCache::DEFAULT_BYTES);
    EXPECT_EQ(lean_self_contained.text().find("probe cache"), std::string::npos)
        << lean_self_contained.text();
    // The cache fills no further than the promoted tables' values: KPvK's promotions, 3-man tables.
    const Material kpk = Material::parse("KPvK");
    uint64_t promoted_kpk = 0;
    for (const char* name : {"KQvK", "KRvK", "KBvK", "KNvK"})
        promoted_kpk += table_memory_bytes(Material::parse(name));
    ASSERT_TRUE(memory_plan(kpk, 0).promotions_in_part);
    EXPECT_EQ(memory_plan(kpk, 0).probe_cache, promoted_kpk);
    EXPECT_EQ(memory_plan(kpk).probe_cache, 0u);  // held whole
}

// Slices solved in waves are solved a thread each: what a slice holds of its own counts per thread.
TEST(JobsPlan, CountsTheSlicesOfAWaveOncePerThread) {
    const Material waves = Material::parse("KRPvKP"), alone = Material::parse("KRPvKR");
    ASSERT_TRUE(solved_in_waves(waves));
    ASSERT_FALSE(solved_in_waves(alone));
    const uint64_t slice = slice_entries(waves);
    const auto plan = [](const Material& m, uint64_t cache, int threads) {
        return memory_plan(m, cache, UINT64_MAX, true, 0, {}, threads);
    };
    EXPECT_EQ(plan(waves, UINT64_MAX, 4).state - plan(waves, UINT64_MAX, 1).state,
              3 * sweep_state_bytes(slice));
    EXPECT_EQ(plan(waves, UINT64_MAX, 4).own, plan(waves, UINT64_MAX, 1).own);  // the table, shared
    // Two pawns' pushes per thread, and the batch's slices held (WAVE_BATCH_PER_THREAD per thread)
    // with their surveys.
    const uint64_t batch = uint64_t(WAVE_BATCH_PER_THREAD) * 4 * 2 * slice;
    EXPECT_EQ(plan(waves, 0, 4).own, 4 * 2 * 2 * slice + batch + batch / 4);
    EXPECT_EQ(plan(waves, 0, 4).promotions, 4 * 4 * 2 * slice);  // two pawns' promotions in part
    EXPECT_EQ(plan(alone, UINT64_MAX, 4).state, plan(alone, UINT64_MAX, 1).state);
    EXPECT_EQ(plan(alone, 0, 4).promotions, plan(alone, 0, 1).promotions);
}

// A sub-table whose file exits settle is completed before the solve, from the tables its own exits
// reach, one table of the completion chain at a time: KRvKP's promotions KRvKQ, KRvKR, KRvKB and
// KRvKN (White to move) from KRvK and the other 3-man tables. The largest holds a promoted table for
// one side, a side of its new values and the 3-man tables that side reaches; nothing else is held
// meanwhile (the sub-tables are read afterwards, from the copies).
TEST(JobsPlan, CountsTheCompletionOfASettledSubTable) {
    const Material m = Material::parse("KRvKP");
    uint64_t promoted = 0;
    for (const char* name : {"KRvKQ", "KRvKR", "KRvKB", "KRvKN"})
        promoted = std::max(promoted, table_memory_bytes(Material::parse(name)) / 2);
    const uint64_t three_men = table_memory_bytes(Material::parse("KRvK"));
    const MemoryPlan plan = memory_plan(m);
    EXPECT_GE(plan.completing, 2 * promoted);
    EXPECT_LE(plan.completing, 2 * promoted + 4 * three_men);
    EXPECT_EQ(plan.reading(), PROCESS_BYTES + std::max(plan.captures + plan.promotions, plan.completing));
    EXPECT_GE(plan.peak(), plan.reading());
    EXPECT_NE(plan.text().find("reading sub-tables " + format_bytes(plan.reading())), std::string::npos)
        << plan.text();
    // Read in part, the promotions are probed in their files instead: only the captures complete,
    // KPvK the largest (a side held, a side of new values, its promotions for one side).
    const MemoryPlan lean = memory_plan(m, 0);
    ASSERT_TRUE(lean.promotions_in_part);
    const uint64_t kpk = table_memory_bytes(Material::parse("KPvK"));
    EXPECT_GE(lean.completing, kpk);
    EXPECT_LE(lean.completing, 2 * kpk + 4 * three_men);
    EXPECT_LT(lean.completing, plan.completing);
    EXPECT_EQ(lean.reading(), PROCESS_BYTES + std::max(lean.captures, lean.completing));
}

// Only a complete file that settles values by exits (or drops a side) is completed when read: a
// self-contained one costs no more than its values (KPPvKP over self-contained sub-tables was
// estimated at 2.96 GiB and peaked at 1.67).
TEST(JobsPlan, CountsTheCompletionOnlyOfFilesThatNeedIt) {
    const fs::path dir =
        fs::temp_directory_path() / ("retro_jobs_plan_completion_" + std::to_string(getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    const Tablebase& tables = test::solved_tables({"KQvKR"});
    const Material kqk = Material::parse("KQvK"), krk = Material::parse("KRvK");
    write_settled_table(*tables.find(kqk), table_path(dir, kqk), WriteOptions{}, tables);  // the default
    WriteOptions self_contained;
    self_contained.settle_exits = false;
    write_table(*tables.find(krk), table_path(dir, krk), self_contained);
    const JobPlan plan = make_plan({Material::parse("KQvKR")}, dir);
    EXPECT_TRUE(plan.completed_when_read.contains(kqk));
    EXPECT_FALSE(plan.completed_when_read.contains(krk));
    EXPECT_TRUE(table_file_needs_subtables(table_path(dir, kqk)));
    EXPECT_FALSE(table_file_needs_subtables(table_path(dir, krk)));
    fs::remove_all(dir);
}

TEST(JobsPlan, RefusesWhatDoesNotFit) {
    const JobPlan plan =
        make_plan({Material::parse("KQvKR")}, fs::temp_directory_path() / "retro_jobs_plan_none");
    EXPECT_FALSE(refusal(plan, 0, std::nullopt));  // no limits
    EXPECT_FALSE(refusal(plan, plan.peak_memory(), plan.disk_needed(FileSize::Expected)));
    const auto memory = refusal(plan, plan.peak_memory() - 1, std::nullopt);
    ASSERT_TRUE(memory);
    EXPECT_NE(memory->find("memory"), std::string::npos) << *memory;
    EXPECT_NE(memory->find("KQvKR"), std::string::npos) << *memory;
    const auto disk = refusal(plan, 0, plan.disk_needed(FileSize::Expected) - 1);
    ASSERT_TRUE(disk);
    EXPECT_NE(disk->find("disk"), std::string::npos) << *disk;
}

// The tables a job reads in part are written self-contained: KPvKP's promotions into KQvKP and
// the like, when KPvKP does not hold them whole (and KPvK's into KQvK).
TEST(JobsPlan, KnowsWhichTablesAreReadInPart) {
    const fs::path dir = fs::temp_directory_path() / "retro_jobs_plan_none";
    JobPlan plan = make_plan({Material::parse("KPvKP")}, dir, WHOLE);
    EXPECT_FALSE(plan.read_in_part(Material::parse("KQvKP")));
    plan = make_plan({Material::parse("KPvKP")}, dir, with_cache(0));
    for (const char* read : {"KQvKP", "KRvKP", "KBvKP", "KNvKP", "KQvK"})
        EXPECT_TRUE(plan.read_in_part(Material::parse(read))) << read;
    for (const char* whole : {"KPvK", "KPvKP"})
        EXPECT_FALSE(plan.read_in_part(Material::parse(whole))) << whole;
}

// A settled table read whole by a later one gets an exact copy while the job runs, until the last
// table that reads it is done: on the disk estimate, not for --self-contained, nor for a table read
// in part (written self-contained). KPvKP's job peaks while KRvKR is solved (the largest checkpoint
// of its last tables), beside the copies of the tables built before it that it or a later one reads.
TEST(JobsPlan, CountsTheExactCopiesOfTheSettledTablesWhileTheyAreRead) {
    const fs::path dir = fs::temp_directory_path() / "retro_jobs_plan_none";
    const Material kqkp = Material::parse("KQvKP"), kpkp = Material::parse("KPvKP"),
                   krkr = Material::parse("KRvKR");
    JobPlan plan = make_plan({kpkp}, dir, WHOLE);
    EXPECT_TRUE(plan.read_whole_later(kqkp));
    EXPECT_TRUE(plan.settles(kqkp));
    EXPECT_FALSE(plan.read_whole_later(kpkp));
    const auto at = [&](const Material& m) {
        return size_t(std::ranges::find(plan.tables, m, &PlannedTable::material) - plan.tables.begin());
    };
    uint64_t copies = 0, beside_krkr = 0;
    for (const auto& t : plan.tables) {
        if (!plan.read_whole_later(t.material)) continue;
        const uint64_t copy = exact_copy_bytes_estimate(t.material, FileSize::Expected);
        copies += copy;
        bool read_then = false;
        for (size_t reader = at(krkr); reader < plan.tables.size(); ++reader)
            read_then |= bool(std::ranges::count(direct_subtables(plan.tables[reader].material), t.material));
        if (at(t.material) < at(krkr) && read_then) beside_krkr += copy;
    }
    EXPECT_LT(beside_krkr, copies);
    const uint64_t with_copies = plan.disk_needed(FileSize::Expected);
    JobSettings self_contained = WHOLE;
    self_contained.write.settle_exits = false;
    plan = make_plan({kpkp}, dir, self_contained);
    EXPECT_FALSE(plan.settles(kqkp));
    EXPECT_EQ(plan.disk_needed(FileSize::Expected), with_copies - beside_krkr);
    plan = make_plan({kpkp}, dir, with_cache(0));
    EXPECT_FALSE(plan.settles(kqkp));  // read in part
    EXPECT_TRUE(plan.settles(kpkp));   // from its slices' surveys, though it reads its promotions in part
    EXPECT_LT(plan.disk_needed(FileSize::Expected), with_copies);
}

TEST(JobsPlan, EverySixManTableFitsThisMachine) {
    // The default limit is MemAvailable; this machine has 24 GiB, about 23.2 available when idle. The
    // cache is half the limit by default.
    const fs::path dir = fs::temp_directory_path() / "retro_jobs_plan_none";
    const uint64_t limit = parse_bytes("23.2G");
    JobPlan plan =
        make_plan(materials_up_to(6), dir, JobSettings{.memory_limit = limit, .cache = {}, .threads = 1});
    ASSERT_EQ(plan.to_build(), 510);
    ASSERT_EQ(plan.resources.cache, limit / 2);
    EXPECT_FALSE(memory_fit(plan, limit));
    EXPECT_FALSE(refusal(plan, limit, std::nullopt));
    EXPECT_FALSE(plan.peak_memory_table()->has_pawns());  // KQRBNvK, KQBNvKB and their like
    EXPECT_EQ(format_bytes(plan.peak_memory()), "17.9 GiB");
    // Every pawn table within the pawnless peak; 186 need more whole, and are held in part.
    int lean = 0;
    for (const auto& t : plan.tables) {
        const MemoryPlan m = plan.memory(t.material);
        lean += m.slices_on_disk || m.promotions_in_part;
        if (t.material.has_pawns()) {
            EXPECT_LT(m.peak(), plan.peak_memory()) << t.material.name();
        }
    }
    EXPECT_EQ(lean, 186);

    // Without a cache or a limit everything is held whole, as before pawn tables were bounded by slices.
    plan = make_plan(materials_up_to(6), dir, WHOLE);
    const auto fit = memory_fit(plan, limit);
    ASSERT_TRUE(fit);
    EXPECT_NE(fit->find("every table without pawns (the largest, KQRBNvK, 17.9 GiB)"), std::string::npos)
        << *fit;
    EXPECT_NE(fit->find("186 do not: 186 with pawns (the largest, KBNPvKP"), std::string::npos) << *fit;
    EXPECT_FALSE(memory_fit(plan, 0));
    EXPECT_FALSE(memory_fit(plan, plan.peak_memory()));
    // Each table's peak counts the codecs of the plan's thread (about 4.4 MiB) and the heap its
    // threads keep (4 MiB) besides the process.
    const auto some = memory_fit(make_plan({Material::parse("KQRvKQR")}, dir, WHOLE), 21 << 20);
    ASSERT_TRUE(some);
    EXPECT_EQ(
        *some,
        "2 of 9 tables to build fit the limit of 21.0 MiB: 2 without pawns (the largest, KQvK, 20.4 MiB); "
        "7 do not: 7 without pawns (the largest, KQRvKQR, 17.7 GiB)");
    const auto none = memory_fit(make_plan({Material::parse("KQvK")}, dir, WHOLE), 1);
    ASSERT_TRUE(none);
    EXPECT_EQ(none->substr(0, 56), "0 of 1 tables to build fit the limit of 1 B: none; 1 do ");
}

// Machines sharing a directory take the first ready table in the plan's order: KPvK waits for all
// four tables it promotes into.
TEST(JobsPlan, SchedulesTheTablesOnSeveralMachines) {
    const JobPlan plan = make_plan(materials_up_to(3), fs::temp_directory_path() / "retro_no_such_dir");
    ASSERT_EQ(plan.tables.size(), 5u);
    ASSERT_EQ(plan.tables.back().material.name(), "KPvK");
    const auto seconds = [](const PlannedTable& t) { return t.material.has_pawns() ? 10.0 : 1.0; };
    EXPECT_DOUBLE_EQ(schedule_seconds(plan, seconds, 1), 14);
    EXPECT_DOUBLE_EQ(schedule_seconds(plan, seconds, 2), 12);  // two pairs, then KPvK
    EXPECT_DOUBLE_EQ(schedule_seconds(plan, seconds, 3), 12);  // three, then one, then KPvK
    EXPECT_DOUBLE_EQ(schedule_seconds(plan, seconds, 4), 11);
    EXPECT_DOUBLE_EQ(schedule_seconds(plan, seconds, 8), 11);
    // Complete tables take no time.
    JobPlan half = plan;
    half.tables[0].complete = half.tables[1].complete = true;
    EXPECT_DOUBLE_EQ(schedule_seconds(half, seconds, 2), 11);
}

TEST(JobsEstimates, ParsesAndFormatsSizes) {
    EXPECT_EQ(parse_bytes("123"), 123u);
    EXPECT_EQ(parse_bytes("1K"), 1024u);
    EXPECT_EQ(parse_bytes("512M"), 512ull << 20);
    EXPECT_EQ(parse_bytes("8G"), 8ull << 30);
    EXPECT_EQ(parse_bytes("8GiB"), 8ull << 30);
    EXPECT_EQ(parse_bytes("8gb"), 8ull << 30);
    EXPECT_EQ(parse_bytes("1.5T"), 3ull << 39);
    EXPECT_EQ(parse_bytes("0"), 0u);
    EXPECT_THROW(parse_bytes("lots"), std::invalid_argument);
    EXPECT_THROW(parse_bytes("8X"), std::invalid_argument);
    EXPECT_THROW(parse_bytes("-1G"), std::invalid_argument);
    EXPECT_EQ(format_bytes(12), "12 B");
    EXPECT_EQ(format_bytes(1536), "1.50 KiB");
    EXPECT_EQ(format_bytes(340ull << 20), "340 MiB");
    EXPECT_EQ(format_bytes(3ull << 30), "3.00 GiB");
    const auto available = available_memory_bytes();
    ASSERT_TRUE(available);  // Linux
    EXPECT_GT(*available, 0u);
}

TEST(JobsPlan, WritableDirectoryCheck) {
    const fs::path base = fs::temp_directory_path() / ("retro_jobs_dir_" + std::to_string(getpid()));
    check_writable_dir(base / "a" / "b");  // created
    EXPECT_TRUE(fs::is_directory(base / "a" / "b"));
    EXPECT_TRUE(fs::is_empty(base / "a" / "b"));  // the probe file is gone
    std::ofstream(base / "file") << "x";
    try {
        check_writable_dir(base / "file" / "sub");
        ADD_FAILURE() << "a directory under a file";
    } catch (const JobError& e) {
        EXPECT_NE(std::string(e.what()).find((base / "file" / "sub").string()), std::string::npos)
            << e.what();
    }
    fs::remove_all(base);
}
