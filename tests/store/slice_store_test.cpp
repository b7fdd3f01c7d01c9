// The slice store (store/slice_store.hpp): slices and their surveys read back as they were appended,
// a store reopened at a checkpoint's length goes on from there, a damaged one is refused; and pawn
// tables solved with their slices on disk equal the tables solved in memory, also after a stop and a
// resume, and are written as they are.
#include "store/slice_store.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <numeric>

#include "index/pawn_slices.hpp"
#include "jobs/log.hpp"
#include "solve/exit_settled.hpp"
#include "solve/solver.hpp"
#include "solve/statistics.hpp"
#include "store/store_error.hpp"
#include "store/survey_source.hpp"
#include "store/table_diff.hpp"
#include "store/table_file.hpp"
#include "store/table_reader.hpp"
#include "store/table_values.hpp"
#include "support/solved_tables.hpp"
#include "support/store_test_util.hpp"

using namespace retro;
using namespace retro::store_test;

namespace {

// Slice k of m with made-up values: entry i of white holds i % 200, of black (i * 7) % 250, and a
// few entries hold distances past a byte.
Table some_slice(const Material& m, int k) {
    const IndexScheme scheme(m, pawn_configs(m)[size_t(k)]);
    Table::Bytes bytes;
    Table::LongValues long_values;
    for (Color side : {WHITE, BLACK}) {
        bytes[side].resize(scheme.size());
        for (uint64_t i = 0; i < scheme.size(); ++i)
            bytes[side][i] = uint8_t(side == WHITE ? (i + uint64_t(k)) % 200 : (i * 7) % 250);
    }
    for (uint64_t i = 3; i < scheme.size(); i += 997) {
        bytes[BLACK][i] = Table::LONG_BYTE;
        long_values[BLACK].push_back({i, Dtm(300 + i % 100 * 2)});
    }
    return Table(scheme, std::move(bytes), std::move(long_values));
}

}  // namespace

TEST(SliceStore, SlicesReadBackAsAppended) {
    ScratchDir dir("slice-store");
    const Material m = Material::parse("KRPvK");  // slices of 224 K entries: chunks of 4 M hold one
    SliceStore store(dir.path / "KRPvK.slices", m);
    for (int k : {0, 1, 2}) store.append(k, some_slice(m, k));
    EXPECT_TRUE(store.holds(2));
    EXPECT_FALSE(store.holds(3));
    for (int k : {2, 0, 1}) {
        const auto read = store.read(k);
        EXPECT_TRUE(*read == some_slice(m, k)) << "slice " << k;
        EXPECT_TRUE(read->scheme.is_slice());
    }
    const auto black = store.read(1, side_bit(BLACK));
    EXPECT_FALSE(black->has_side(WHITE));
    EXPECT_EQ(black->value(BLACK, 3), some_slice(m, 1).value(BLACK, 3));
    EXPECT_GT(black->value(BLACK, 3), 254);
    EXPECT_THROW(store.read(5), StoreError);
}

// Slices larger than a chunk take several, compressed and read back in parallel.
TEST(SliceStore, LargeSlicesTakeSeveralChunks) {
    const Material m = Material::parse("KRPvKR");
    ASSERT_GT(IndexScheme(m, pawn_configs(m)[0]).size(), 3 * SliceStore::CHUNK);
    SliceStore store({}, m);  // an anonymous temporary file
    const Table slice = some_slice(m, 0);
    store.append(0, slice);
    EXPECT_TRUE(*store.read(0) == slice);
    EXPECT_LT(store.length(), slice.size());  // compressed
}

TEST(SliceStore, ReopenedAtALengthGoesOnFromThere) {
    ScratchDir dir("slice-store-reopen");
    const Material m = Material::parse("KPvKP");
    const fs::path path = dir.path / "KPvKP.slices";
    uint64_t length = 0, checksum = 0;
    {
        SliceStore store(path, m);
        store.append(0, some_slice(m, 0));
        store.append(1, some_slice(m, 1));
        store.sync();
        length = store.length();
        checksum = store.checksum();
        store.append(2, some_slice(m, 2));  // after the checkpoint: dropped when reopened
    }
    {
        SliceStore store(path, m, length, checksum);
        EXPECT_TRUE(store.holds(1));
        EXPECT_FALSE(store.holds(2));
        EXPECT_EQ(fs::file_size(path), length);
        store.append(2, some_slice(m, 3));
        EXPECT_TRUE(*store.read(0) == some_slice(m, 0));
        EXPECT_TRUE(*store.read(2) == some_slice(m, 3));
    }
    EXPECT_THROW(SliceStore(path, m, length, checksum + 1), StoreError);  // another checksum
    EXPECT_THROW(SliceStore(path, m, length - 1, checksum), StoreError);  // not a whole record
    EXPECT_THROW(SliceStore(path, Material::parse("KPvKR"), length, checksum), StoreError);
    std::string bytes = read_bytes(path);
    bytes[length / 2] ^= 0x20;
    write_bytes(path, bytes);
    EXPECT_THROW(SliceStore(path, m, length, checksum), StoreError);
    EXPECT_THROW(SliceStore(dir.path / "none" / "KPvKP.slices", m), StoreError);
}

namespace {

// A counted survey of slice k of m: entry i legal unless i % 5 == 0, settled when i % 3 == 0 (and
// legal), of both sides.
WriteSurvey some_survey(const Material& m, int k) {
    const Table values = some_slice(m, k);
    WriteSurvey survey = empty_survey(values.size());
    for (Color side : {WHITE, BLACK})
        for (uint64_t i = 0; i < values.size(); ++i) {
            survey.legal.assign(side, i, i % 5 != 0);
            survey.settled.assign(side, i, i % 5 != 0 && i % 3 == 0);
        }
    count_legal_values(values, survey);
    return survey;
}

}  // namespace

// A slice's survey reads back as appended, without its counts, which the store sums over the slices;
// a store reopened at a checkpoint keeps the surveys of the slices before it.
TEST(SliceStore, SurveysReadBackAsAppended) {
    ScratchDir dir("slice-store-survey");
    const Material m = Material::parse("KRPvKR");  // slices of several chunks
    const fs::path path = dir.path / "KRPvKR.slices";
    uint64_t length = 0, checksum = 0;
    {
        SliceStore store(path, m);
        const WriteSurvey survey = some_survey(m, 0);
        store.append(0, some_slice(m, 0), &survey);
        store.append(1, some_slice(m, 1));  // none
        store.sync();
        length = store.length();
        checksum = store.checksum();
    }
    SliceStore store(path, m, length, checksum);
    EXPECT_TRUE(store.surveyed(0));
    EXPECT_FALSE(store.surveyed(1));
    EXPECT_FALSE(store.surveyed());
    const WriteSurvey expected = some_survey(m, 0);
    const WriteSurvey read = store.read_survey(0);
    EXPECT_EQ(read.legal.words, expected.legal.words);
    EXPECT_EQ(read.settled.words, expected.settled.words);
    EXPECT_FALSE(read.counted());
    const WriteSurvey black = store.read_survey(0, side_bit(BLACK));
    EXPECT_TRUE(black.legal.words[WHITE].empty());
    EXPECT_EQ(black.settled.words[BLACK], expected.settled.words[BLACK]);
    EXPECT_THROW(store.read_survey(1), StoreError);
    // Every slice surveyed: the counts are summed.
    const Material small = Material::parse("KRPvK");
    SliceStore all({}, small);
    std::array<std::vector<uint64_t>, 2> summed{std::vector<uint64_t>(WriteSurvey::COUNTED_VALUES),
                                                std::vector<uint64_t>(WriteSurvey::COUNTED_VALUES)};
    for (int k = 0; k < int(pawn_configs(small).size()); ++k) {
        const WriteSurvey survey = some_survey(small, k);
        all.append(k, some_slice(small, k), &survey);
        for (Color side : {WHITE, BLACK})
            for (size_t v = 0; v < summed[side].size(); ++v) summed[side][v] += survey.counts[side][v];
    }
    ASSERT_TRUE(all.surveyed());
    EXPECT_EQ(all.survey_counts(), summed);
    EXPECT_GT(std::accumulate(summed[BLACK].begin() + 256, summed[BLACK].end() - 1, uint64_t(0)), 0u)
        << "distances past a byte";
}

namespace {

// m solved with its slices on disk, then read back whole.
std::unique_ptr<Table> solved_on_disk(const Material& m, const Tablebase& subtables,
                                      SolveOptions options = {}) {
    options.slices_on_disk = true;
    SolvedTable solved = solve_table(m, subtables, options);
    EXPECT_FALSE(solved.whole);
    EXPECT_TRUE(solved.slices);
    return whole_table(*solved.slices);
}

}  // namespace

// A stop in a slice keeps the slices before it in the store, and the resumed solve goes on to the
// same table; a stop after the last slice resumes with nothing left to solve.
TEST(SlicesOnDisk, StoppedAndResumed) {
    ScratchDir dir("slices-on-disk-resume");
    const Material m = Material::parse("KRPvK");
    const Tablebase& tables = retro::test::solved_tables({"KRPvK"});
    std::atomic<bool> stop{false};
    LineStream progress([&](const std::string& line) {
        if (line.starts_with("KRPvK slice 3 of 24: lost in 8:")) stop = true;
    });
    SolveOptions options;
    options.control.lines = &progress;
    options.checkpoint = dir.path / "KRPvK.checkpoint";
    options.control.stop = &stop;
    options.slices_on_disk = true;
    options.waves_below = 1 << 17;  // solved alone, with checkpoints inside the slices
    EXPECT_THROW(solve_table(m, tables, options), Stopped);
    EXPECT_TRUE(fs::exists(slice_store_path(options.checkpoint)));
    stop = false;
    std::string resumed;
    options.checkpoint_found = [&](std::optional<SolvePoint> at, const std::string&) {
        resumed = at ? std::to_string(*at >> 32) + ":" + std::to_string(*at & 0xffffffff) : "none";
    };
    EXPECT_TRUE(*solved_on_disk(m, tables, options) == *tables.find(m));
    EXPECT_EQ(resumed, "2:9");  // slice 3 (0-based 2), after ply 8
    // The last checkpoint names every slice solved: nothing is solved again.
    EXPECT_TRUE(*solved_on_disk(m, tables, options) == *tables.find(m));
    EXPECT_EQ(resumed, "24:0");
    options.slices_on_disk = false;
    EXPECT_TRUE(*solve_in_memory(m, tables, options) == *tables.find(m));  // the store read into memory
}

// A pawn table written from its slice store, a few slices in memory at a time, stores its entries
// with the pawn digits first and reads back as the table solved in memory. (Solved with their
// slices on disk, the 3-4-man pawn tables match the oracle: SolverOracle.FourMan.)
TEST(SlicesOnDisk, WrittenFromTheStore) {
    ScratchDir dir("slices-written");
    const Material m = Material::parse("KPvKP");
    const Tablebase& tables = retro::test::solved_tables({"KPvKP"});
    SolveOptions options;
    options.slices_on_disk = true;
    const SolvedTable solved = solve_table(m, tables, options);
    const SliceStoreValues values(*solved.slices, 1 << 14);  // a slice or two
    const fs::path path = dir.path / "KPvKP.rtb";
    WriteOptions write;
    write.settle_exits = false;
    write.codec = Codec::Zstd;
    write.level = 1;
    write_table(values, path, write);
    EXPECT_TRUE(diff_tables(*read_table(path), *tables.find(m)).identical());
    const TableReader reader(path, format::Metric::Dtm);
    ASSERT_FALSE(reader.digit_order().natural());
    EXPECT_TRUE(values.reads_in(reader.digit_order()));
    // Asked for an order with the king pair first, the writer finds none it can read in.
    write.digit_order = {0, 1, 2};
    EXPECT_THROW(write_table(values, path, write), StoreError);
    // The statistics read from the store are the table's.
    EXPECT_EQ(format_json(compute_statistics(values)), format_json(compute_statistics(*tables.find(m))));
}

// Solved with its slices on disk and its promotions read in part, a pawn table's slices keep their
// surveys, and its file, settled by exits, is byte for byte the one written from the table and its
// survey solved in memory: for small slices solved in waves (KPvK) and large ones solved alone,
// with checkpoints (KRPvK).
TEST(SlicesOnDisk, WrittenSettledByExitsAsFromMemory) {
    ScratchDir dir("slices-settled");
    for (const char* name : {"KPvK", "KRPvK"}) {
        const Material m = Material::parse(name);
        const Tablebase& tables = retro::test::solved_tables({name});
        WriteOptions write;
        write.codec = Codec::Zstd;
        write.level = 1;
        write.pawn_digits_first = true;
        SolveOptions options;
        options.survey_exits = true;
        const SolvedTable whole = solve_table(m, tables, options);
        ASSERT_TRUE(whole.whole && whole.survey) << name;
        fs::create_directories(dir.path / "memory");
        fs::create_directories(dir.path / "store");
        const fs::path from_memory = table_path(dir.path / "memory", m);
        write_table(*whole.whole, from_memory, write, &*whole.survey);
        options.slices_on_disk = options.promotions_in_part = true;
        options.checkpoint = dir.path / (std::string(name) + ".checkpoint");
        options.waves_below = 1 << 17;  // KRPvK's slices alone
        const SolvedTable lean = solve_table(m, tables, options);
        ASSERT_TRUE(lean.slices && lean.slices->surveyed()) << name;
        const fs::path from_store = table_path(dir.path / "store", m);
        write_table(SliceStoreValues(*lean.slices, 1 << 16), from_store, write,
                    std::make_unique<SliceStoreSurvey>(*lean.slices, 1 << 14).get());
        EXPECT_TRUE(TableReader(from_store, format::Metric::Dtm).header().exits_settled()) << name;
        EXPECT_EQ(read_bytes(from_store), read_bytes(from_memory)) << name;
    }
}

namespace {

// m solved with its promotions read in part from `subtables`, its slices in memory.
std::unique_ptr<Table> solved_with_promotions_in_part(const Material& m, const SubtableSource& subtables) {
    SolveOptions options;
    options.promotions_in_part = true;
    return solve_in_memory(m, subtables, options);
}

// The sub-tables of m (solved in memory) written into dir: settled by exits, or self-contained.
void write_subtables(const Material& m, const fs::path& dir, bool settled) {
    const Tablebase& tables = retro::test::solved_tables({m.name()});
    for (const Material& sub : build_order({m})) {
        if (sub == m) continue;
        WriteOptions options;
        options.settle_exits = settled;
        options.codec = Codec::Zstd;
        options.level = 1;
        options.pawn_digits_first = true;  // as a job writes the tables it reads in part
        write_settled_table(*tables.find(sub), table_path(dir, sub), options, tables);
    }
}

// m solved with its promotions read in part from its sub-tables' files (settled by exits or not)
// equals m solved in memory.
void expect_same_from_files(const Material& m, bool settled) {
    ScratchDir dir(settled ? "promotions-settled" : "promotions-exact");
    write_subtables(m, dir.path, settled);
    const Tablebase files(dir.path);
    EXPECT_TRUE(*solved_with_promotions_in_part(m, files) == *retro::test::solved_table(m.name()))
        << (settled ? "settled" : "self-contained") << " files";
}

}  // namespace

// Promotions read in part give the tables solved with their targets whole, from self-contained files
// (read exactly) and from files settled by exits (probed one by one); from tables in memory, with
// pawns left after the promotion, every 4-man pawn table is checked against the oracle
// (SolverOracle.FourMan).
TEST(PromotionsInPart, FromFiles) {
    for (const bool settled : {false, true}) expect_same_from_files(Material::parse("KPvK"), settled);
}

// With a pawn left after the promotion (KPPvK into KQPvK and the others), only the runs of entries
// with that pawn are read, from files that store the pawn digits first, and the new piece's entries
// are told from their digits.
TEST(PromotionsInPart, WithAPawnLeftFromFilesThatStoreThePawnDigitsFirst) {
    expect_same_from_files(Material::parse("KPPvK"), false);
}

// Both ways of bounding a pawn table's memory at once, stopped and resumed.
TEST(PromotionsInPart, WithTheSlicesOnDisk) {
    ScratchDir dir("promotions-slices");
    const Material m = Material::parse("KQPvK");
    const Tablebase& tables = retro::test::solved_tables({"KQPvK"});
    std::atomic<bool> stop{false};
    LineStream progress([&](const std::string& line) {
        if (line.starts_with("KQPvK slice 2 of 24: lost in 4:")) stop = true;
    });
    SolveOptions options;
    options.control.lines = &progress;
    options.checkpoint = dir.path / "KQPvK.checkpoint";
    options.control.stop = &stop;
    options.slices_on_disk = options.promotions_in_part = true;
    options.waves_below = 1 << 17;  // solved alone, with checkpoints inside the slices
    EXPECT_THROW(solve_table(m, tables, options), Stopped);
    stop = false;
    EXPECT_TRUE(*solved_on_disk(m, tables, options) == *tables.find(m));
}
