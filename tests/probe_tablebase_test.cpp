// Tablebase::find reads a whole table without holding up the other threads' finds and probes.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "probe_test_tables.hpp"
#include "solve/exit_settled.hpp"
#include "solved_tables.hpp"
#include "store/block_cache.hpp"
#include "store_test_util.hpp"

using namespace retro;
using namespace retro::store_test;

namespace retro {
void PrintTo(const Material& m, std::ostream* out) { *out << m.name(); }
}  // namespace retro

namespace {

double seconds_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// Writes KQvKR and its sub-tables into dir, settled by exits (quickly: zstd 1); KQvKR's values.
std::shared_ptr<const Table> write_settled_kqkr(const std::filesystem::path& dir) {
    const Material kqkr = Material::parse("KQvKR");
    const Tablebase& solved = test::solved_tables({kqkr.name()});
    WriteOptions quick = exact_copy_options();
    quick.settle_exits = true;
    for (const Material& m : build_order({kqkr}))
        write_settled_table(*solved.find(m), table_path(dir, m), quick, solved);
    return solved.find(kqkr);
}

// Writes a table of m with arbitrary values (holes kept) into dir, at compression `level` (-1: the
// default).
Table write_arbitrary_table(const Material& m, const std::filesystem::path& dir, int level) {
    Table table(m);
    uint64_t x = 1;
    for (Color side : {WHITE, BLACK})
        for (uint64_t i = 0; i < table.size(); ++i)
            table.set(side, i, Dtm((x = x * 6364136223846793005ULL + 1442695040888963407ULL) >> 57));
    WriteOptions write;
    write.level = level;
    write.fill_holes = false;
    write_table(table, table_path(dir, m), write);
    return table;
}

}  // namespace

TEST(ProbeTablebase, FindReadsAWholeTableWithoutStallingOthers) {
    ScratchDir dir("tablebase-find");
    // A table of arbitrary values, large enough to take a while to read: only that time matters.
    const Material big = Material::parse("KQvKP");
    const Table table = write_arbitrary_table(big, dir.path, 0);

    Tablebase tables(dir.path);
    const Material kqk = Material::parse("KQvK");
    tables.add(retro::testing::three_man_tables().find(kqk));
    const Position pos = Position::from_fen("8/8/8/4k3/8/8/8/4K2Q w - - 0 1");

    std::atomic<bool> done{false};
    double read_seconds = 0;
    std::shared_ptr<const Table> first, second;
    std::thread reader([&] {
        const auto start = std::chrono::steady_clock::now();
        first = tables.find(big);
        read_seconds = seconds_since(start);
        done = true;
    });
    std::thread same([&] { second = tables.find(big); });  // waits for the same read
    double longest = 0;
    while (!done) {
        const auto start = std::chrono::steady_clock::now();
        EXPECT_TRUE(tables.find(kqk));
        EXPECT_TRUE(is_win(tables.probe(pos)));
        longest = std::max(longest, seconds_since(start));
    }
    reader.join();
    same.join();
    ASSERT_TRUE(first);
    EXPECT_EQ(first, second) << "the table was read twice";
    EXPECT_TRUE(*first == table);
    ASSERT_GT(read_seconds, 0.1) << "the read was too quick to tell";
    EXPECT_LT(longest, read_seconds / 4) << "a find of a loaded table waited " << longest
                                         << " s for the read of another (" << read_seconds << " s)";
}

TEST(ProbeTablebase, OpenDirectoryRefusesWhatIsNoDirectory) {
    ScratchDir dir("tablebase-open");
    const auto tables = Tablebase::open_directory(dir.path, size_t(1) << 20);
    EXPECT_EQ(tables->directory(), dir.path);
    EXPECT_EQ(tables->cache().capacity_bytes(), size_t(1) << 20);
    try {
        Tablebase::open_directory(dir.path / "missing");
        ADD_FAILURE() << "a missing directory opened";
    } catch (const ProbeError& e) {
        EXPECT_EQ(std::string(e.what()), "no such directory: " + (dir.path / "missing").string()) << e.what();
    }
    write_bytes(dir.path / "file", "x");
    try {
        Tablebase::open_directory(dir.path / "file");
        ADD_FAILURE() << "a file opened as a directory";
    } catch (const ProbeError& e) {
        EXPECT_EQ(std::string(e.what()), "not a directory: " + (dir.path / "file").string()) << e.what();
    }
}

// A solve reads one side to move of most sub-tables: find() reads only the blocks of the sides asked
// for, and reads the table again when a later use needs the other side.
TEST(ProbeTablebase, FindReadsTheSidesAskedFor) {
    ScratchDir dir("tablebase-sides");
    const Material krk = Material::parse("KRvK");
    const Table table = write_arbitrary_table(krk, dir.path, -1);

    const Tablebase tables(dir.path);
    const auto black = tables.find(krk, side_bit(BLACK));
    ASSERT_TRUE(black);
    EXPECT_FALSE(black->has_side(WHITE));
    ASSERT_TRUE(black->has_side(BLACK));
    for (uint64_t i = 0; i < table.size(); ++i) ASSERT_EQ(black->value(BLACK, i), table.value(BLACK, i)) << i;
    EXPECT_EQ(tables.find(krk, side_bit(BLACK)), black) << "read twice";

    const auto whole = tables.find(krk);
    ASSERT_TRUE(whole);
    EXPECT_NE(whole, black);
    EXPECT_TRUE(*whole == table);
    EXPECT_EQ(tables.find(krk, side_bit(BLACK)), whole);  // the whole table serves every side
    EXPECT_EQ(tables.find(krk, side_bit(WHITE)), whole);
    EXPECT_FALSE(black->has_side(WHITE));  // its users keep what they were given
}

// A file that exits settle is completed from the tables its exits reach. Those serve the completion
// only: kept, they held KBPvKP's solve 3 GiB above its estimate (KQBvKP's exits reach KQBvKQ, ...).
TEST(ProbeTablebase, FindFreesTheTablesThatOnlyCompletedAFile) {
    ScratchDir dir("tablebase-completion");
    const Material kqkr = Material::parse("KQvKR"), krk = Material::parse("KRvK");
    const Tablebase& solved = test::solved_tables({kqkr.name()});
    WriteOptions quick;
    quick.codec = Codec::Zstd;
    quick.level = 1;
    quick.search_digit_order = false;
    for (const Material& m : build_order({kqkr}))
        write_settled_table(*solved.find(m), table_path(dir.path, m), quick, solved);

    const Tablebase tables(dir.path);
    const auto black = tables.find(kqkr, side_bit(BLACK));  // completed from KRvK: the queen taken
    ASSERT_TRUE(black);
    EXPECT_EQ(tables.held_tables(), std::vector<Material>{kqkr});
    const auto expected = solved.find(kqkr);
    for (uint64_t i = 0; i < expected->size(); ++i)
        ASSERT_EQ(black->value(BLACK, i), expected->value(BLACK, i)) << i;

    // A table already held completes the next file without being read again, and stays held; KQvK
    // (the rook taken) is read for the completion and freed.
    const auto held = tables.find(krk);
    EXPECT_TRUE(*tables.find(kqkr) == *expected);
    EXPECT_EQ(tables.held_tables(), (std::vector<Material>{kqkr, krk}));
    EXPECT_EQ(tables.find(krk), held);
}

// A job's exact copy stands for its file, when the Tablebase is told to read copies, the copy is not
// older than the file and reads as a self-contained table; else the file is read and completed.
// The copy here has one value changed, to tell which was read.
TEST(ProbeTablebase, FindReadsAnExactCopyOnlyWhenAskedFreshAndSound) {
    namespace fs = std::filesystem;
    ScratchDir dir("tablebase-exact-copy");
    const Material kqkr = Material::parse("KQvKR");
    const auto expected = write_settled_kqkr(dir.path);
    Table marked = *expected;
    const uint64_t idx = 1000;
    ASSERT_NE(expected->value(WHITE, idx), DTM_DRAW);
    marked.set(WHITE, idx, DTM_DRAW);
    const fs::path copy = exact_copy_path(dir.path, kqkr);
    write_table(marked, copy, exact_copy_options());
    const auto read = [&](bool copies) {
        Tablebase tables(dir.path);
        if (copies) tables.read_exact_copies();
        return tables.find(kqkr)->value(WHITE, idx);
    };
    EXPECT_EQ(read(true), DTM_DRAW);                      // the copy
    EXPECT_EQ(read(false), expected->value(WHITE, idx));  // the file, completed
    fs::last_write_time(copy, fs::last_write_time(table_path(dir.path, kqkr)) - std::chrono::seconds(1));
    EXPECT_EQ(read(true), expected->value(WHITE, idx));  // older than the file: left by an earlier solve
    write_table(marked, copy, exact_copy_options());
    fs::resize_file(copy, fs::file_size(copy) - 10);
    EXPECT_EQ(read(true), expected->value(WHITE, idx));  // truncated
}

// A copy of a table read for one side to move (a job's completion chain) keeps that side: it stands
// for the file when that side is read, not when the other is. Marked as above.
TEST(ProbeTablebase, AnExactCopyOfOneSideStandsForThatSideOnly) {
    namespace fs = std::filesystem;
    ScratchDir dir("tablebase-exact-copy-side");
    const Material kqkr = Material::parse("KQvKR");
    const auto expected = write_settled_kqkr(dir.path);
    TableAsStored white = read_table_as_stored(table_path(dir.path, kqkr), side_bit(WHITE));
    ASSERT_FALSE(white.table->has_side(BLACK));
    const uint64_t idx = 1000;
    ASSERT_NE(expected->value(WHITE, idx), DTM_DRAW);
    white.table->set(WHITE, idx, DTM_DRAW);
    write_table(MemoryValues(*white.table), exact_copy_path(dir.path, kqkr),
                exact_copy_options(side_bit(WHITE)));
    EXPECT_TRUE(exact_copy_current(dir.path, kqkr, {}, side_bit(WHITE)));
    EXPECT_FALSE(exact_copy_current(dir.path, kqkr, {}, side_bit(BLACK)));
    EXPECT_FALSE(exact_copy_current(dir.path, kqkr));
    const auto read = [&](SideSet sides) {
        Tablebase tables(dir.path);
        tables.read_exact_copies();
        return tables.find(kqkr, sides);
    };
    EXPECT_EQ(read(side_bit(WHITE))->value(WHITE, idx), DTM_DRAW);  // the copy
    const auto both = read(BOTH_SIDES);                             // the file, completed
    EXPECT_TRUE(*both == *expected);
}
