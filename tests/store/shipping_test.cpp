// The shipping form (format version 4): a file keeps one side to move, and a Tablebase rebuilds the
// other by a one-ply search, for a whole table (find) or per probe; values settled by exits (versions
// 5 and 6), which a Tablebase completes from the sub-tables. Every 3-4-man table reads back to the values
// solved in each form (shipping, both sides settled, version 5); the side kept, the errors, and bad version 4
// and 5 headers.
#include <gtest/gtest.h>

#include <map>

#include "jobs/plan.hpp"
#include "probe/successors.hpp"
#include "solve/exit_settled.hpp"
#include "store/format.hpp"
#include "store/table_diff.hpp"
#include "support/random_positions.hpp"
#include "support/solved_tables.hpp"
#include "support/store_test_util.hpp"

using namespace retro;
using namespace retro::store_test;

namespace {

// The fixed header's byte offsets (docs/format.md).
constexpr size_t VERSION_AT = 8, DROPPED_AT = 35;

WriteOptions shipping(WriteOptions::Sides keep = WriteOptions::Sides::Smaller) {
    WriteOptions o;
    o.codec = Codec::Zstd, o.level = 3;  // fast: the form depends neither on the codec nor on the order
    o.search_digit_order = false;
    o.keep = keep;
    return o;
}

const Tablebase& solved_up_to_four() {
    std::vector<std::string> names;
    for (const Material& m : materials_up_to(4)) names.push_back(m.name());
    return test::solved_tables(names);
}

// The exits' survey of a table of up to 4 men (the values a reader completes from the sub-tables),
// computed once for all the forms written below.
const WriteSurvey& survey_of(const Material& m) {
    static const std::map<std::string, WriteSurvey> surveys = [] {
        const Tablebase& solved = solved_up_to_four();
        std::map<std::string, WriteSurvey> out;
        for (const Material& t : materials_up_to(4)) out[t.name()] = exit_settled(*solved.find(t), solved);
        return out;
    }();
    return surveys.at(m.name());
}

enum class Exits { Settle, Ignore };

// Writes every table of up to 4 men into `dir` with `options`, settled by exits (format version 6, or 5
// without options.rank_blocks) or not. Returns the bytes of the files.
uint64_t write_all(const fs::path& dir, const WriteOptions& options, Exits exits) {
    const Tablebase& solved = solved_up_to_four();
    uint64_t bytes = 0;
    for (const Material& m : materials_up_to(4)) {
        write_table(*solved.find(m), table_path(dir, m), options,
                    exits == Exits::Settle ? &survey_of(m) : nullptr);
        bytes += fs::file_size(table_path(dir, m));
    }
    return bytes;
}

// A Tablebase over the files of `dir` gives the solved values: whole tables (find: the exits applied,
// a dropped side rebuilt from the kept one and the sub-tables, themselves read so) and single probes
// of either side to move, en passant rights too; for the tables `checked`, every table by default.
void expect_solved_values(const fs::path& dir, const std::vector<Material>& checked = materials_up_to(4)) {
    const Tablebase& solved = solved_up_to_four();
    const Tablebase files(dir);
    for (const Material& m : checked) {
        const TableDifferences d = diff_tables(*solved.find(m), *files.find(m), 1);
        EXPECT_TRUE(d.identical()) << m.name() << ": " << d.differing << " differ, first "
                                   << (d.first.empty() ? "" : d.first[0].fen);
        EXPECT_GT(d.compared, 0u);
    }
    // Single probes, each side to move, en passant rights too: the dropped side by a one-ply search.
    const Tablebase probes(dir);
    for (const Material& m : checked)
        for (const Position& pos : test::sample_positions(m, 200, test::EnPassant::Included))
            EXPECT_EQ(probes.probe(pos), solved.probe(pos)) << pos.fen();
}

format::Header header_of(const fs::path& dir, const Material& m) {
    return TableReader(table_path(dir, m), format::Metric::Dtm).header();
}

}  // namespace

// Every 3-4-man table in both forms a writer makes, read back to its solved values: the shipping
// form (one side kept, values settled by exits) and both sides settled by exits (the default of tbgen
// and tbpack, format version 6); and version 5 (blocks not ranked again, which the writer still
// writes when asked), whose reader differs only in the blocks' ranks: read back for a few tables,
// pawnless and with pawns. One test, so that the exits' survey is computed once for the three.
TEST(StoreShipping, EveryThreeAndFourManTableReadsBackToItsSolvedValuesInEachForm) {
    ScratchDir ship("shipping-all"), six("settled-v6"), five("settled-v5"), plain("settled-all-plain");
    const uint64_t plain_bytes = write_all(plain.path, shipping(WriteOptions::Sides::Both), Exits::Ignore);
    const uint64_t shipped = write_all(ship.path, shipping(), Exits::Settle);
    const uint64_t six_bytes = write_all(six.path, shipping(WriteOptions::Sides::Both), Exits::Settle);
    const std::vector<Material> in_five = {Material::parse("KPvK"), Material::parse("KQvKR"),
                                           Material::parse("KBNvK"), Material::parse("KRvKP"),
                                           Material::parse("KPvKP")};
    WriteOptions not_ranked = shipping(WriteOptions::Sides::Both);
    not_ranked.rank_blocks = false;
    const uint64_t five_bytes = write_all(five.path, not_ranked, Exits::Settle);
    for (const auto& [form, checked] : {std::pair{&ship, materials_up_to(4)},
                                        std::pair{&six, materials_up_to(4)}, std::pair{&five, in_five}}) {
        SCOPED_TRACE(form->path.filename().string());
        expect_solved_values(form->path, checked);
    }
    for (const Material& m : materials_up_to(4)) {
        EXPECT_EQ(header_of(ship.path, m).version, format::VERSION_BLOCKS_RANKED) << m.name();
        EXPECT_TRUE(header_of(ship.path, m).dropped) << m.name();
        EXPECT_EQ(header_of(six.path, m).version, format::VERSION_BLOCKS_RANKED) << m.name();
        EXPECT_FALSE(header_of(six.path, m).dropped) << m.name();
        EXPECT_EQ(header_of(five.path, m).version, format::VERSION_EXITS_SETTLED) << m.name();
    }
    // The kept side is the smaller, and exits settle many of its values: about 39% of the bytes of
    // both sides unsettled with zstd, which the bound leaves a margin to.
    EXPECT_LT(double(shipped), 0.42 * double(plain_bytes)) << shipped << " of " << plain_bytes;
    // Settled by exits, both sides are smaller (docs/format.md has the figures), and ranking the
    // blocks again saves a few percent more.
    EXPECT_LT(double(six_bytes), 0.9 * double(plain_bytes)) << six_bytes << " of " << plain_bytes;
    EXPECT_LT(six_bytes, five_bytes);
}

TEST(StoreShipping, KeepsTheSideAskedForAndSaysWhatIsMissing) {
    ScratchDir dir("shipping-side");
    const auto table = small_table("KRvK");
    const fs::path path = table_path(dir.path, table->material());
    for (const auto& [keep, side_dropped] : {std::pair{WriteOptions::Sides::WhiteToMove, BLACK},
                                             std::pair{WriteOptions::Sides::BlackToMove, WHITE}}) {
        const Color dropped = side_dropped;  // the lambda below uses it: Clang 14 captures no binding
        write_table(*table, path, shipping(keep));
        const TableReader reader(path, format::Metric::Dtm);
        EXPECT_EQ(reader.header().dropped, dropped);
        EXPECT_TRUE(reader.stores(~dropped));
        EXPECT_FALSE(reader.stores(dropped));
        EXPECT_EQ(reader.header().block_count, reader.header().blocks_per_side());
        try {
            reader.value(dropped, 0);
            ADD_FAILURE() << "a value of the dropped side";
        } catch (const StoreError& e) {
            EXPECT_NE(std::string(e.what()).find("keeps no values for " + std::string(color_name(dropped))),
                      std::string::npos)
                << e.what();
        }
        try {
            read_table(path);
            ADD_FAILURE() << "read_table accepted the shipping form";
        } catch (const StoreError& e) {
            EXPECT_NE(std::string(e.what()).find("read it through a Tablebase"), std::string::npos)
                << e.what();
        }
        const TableAsStored stored = read_table_as_stored(path);
        EXPECT_EQ(stored.dropped, dropped);
        for_each_legal(table->scheme, [&](Color side, uint64_t i, const Position& pos) {
            ASSERT_EQ(stored.table->value(side, i), side == dropped ? DTM_DRAW : table->value(side, i))
                << pos.fen();
        });
        // The rebuilt table equals the solved one on every legal entry.
        EXPECT_TRUE(diff_tables(*table, *Tablebase(dir.path).find(table->material())).identical());
    }
    // A bitbase always keeps both sides.
    write_wdl(*table, wdl_path(dir.path, table->material()), shipping());
    EXPECT_FALSE(TableReader(wdl_path(dir.path, table->material()), format::Metric::Wdl).header().dropped);
}

TEST(StoreShipping, ProbesWithoutTheSubTablesSayWhichIsMissing) {
    // KPvK's dropped side needs KQvK (and the other promotions) for its promotions.
    ScratchDir dir("shipping-missing");
    const auto table = small_table("KPvK");
    write_table(*table, table_path(dir.path, table->material()), shipping(WriteOptions::Sides::BlackToMove));
    const Tablebase files(dir.path);
    const Position promoting = Position::from_fen("8/4P3/8/8/8/2k5/8/4K3 w - - 0 1");
    try {
        files.probe(promoting);
        ADD_FAILURE() << "probed without KQvK";
    } catch (const MissingSubtablesError& e) {
        EXPECT_NE(
            std::string(e.what()).find("KPvK.rtb reads its values through the tables one capture or "
                                       "promotion away, and KBvK, KNvK, KQvK and KRvK are missing from"),
            std::string::npos)
            << e.what();
    }
    EXPECT_THROW(files.find(Material::parse("KPvK")), MissingSubtablesError);
}

TEST(StoreShipping, BadVersion4HeadersAreRefused) {
    ScratchDir dir("shipping-bad");
    const auto table = small_table("KQvK");
    const fs::path path = table_path(dir.path, table->material());
    write_table(*table, path, shipping(WriteOptions::Sides::WhiteToMove));
    const std::string good = read_bytes(path);
    ASSERT_EQ(good[VERSION_AT], 4);
    ASSERT_EQ(good[DROPPED_AT], 2);  // black to move dropped

    std::string bad = good;
    bad[DROPPED_AT] = 3;
    EXPECT_NE(open_error(with_header_crc(bad), path).find("bad dropped side 3 in a version 4 file"),
              std::string::npos);
    bad[DROPPED_AT] = 0;
    EXPECT_NE(open_error(with_header_crc(bad), path).find("bad dropped side 0"), std::string::npos);
    bad = good;
    bad[VERSION_AT] = 3;  // a version 3 file keeps both sides
    EXPECT_NE(open_error(with_header_crc(bad), path).find("reserved header byte is not zero"),
              std::string::npos);
    bad = good;
    bad[DROPPED_AT] = 1;  // white dropped instead: white's record has values, black's none
    EXPECT_NE(open_error(with_header_crc(bad), path).find("the dropped side has values in the header"),
              std::string::npos);
}

namespace {

// Writes the table `name` into `dir` with both sides, settled by exits; returns its path.
fs::path write_settled(const std::string& name, const fs::path& dir) {
    const Tablebase& solved = test::solved_tables({name});
    const auto table = solved.find(Material::parse(name));
    const fs::path path = table_path(dir, table->material());
    const WriteSurvey survey = exit_settled(*table, solved);
    write_table(*table, path, shipping(WriteOptions::Sides::Both), &survey);
    return path;
}

}  // namespace

TEST(StoreShipping, SettledFilesNeedTheirSubTablesAndSaySo) {
    // KPvK's promotions settle some of its values: probes and find need KQvK, and read_table refuses.
    ScratchDir dir("settled-missing");
    const fs::path path = write_settled("KPvK", dir.path);
    const Tablebase files(dir.path);
    // Refused up front, also for a position whose answer needs no sub-table: an incomplete set
    // would otherwise answer some probes and fail others.
    EXPECT_THROW(files.probe(Position::from_fen("8/8/8/8/8/4P3/8/K1k5 w - - 0 1")), MissingSubtablesError);
    write_settled("KQvK", dir.path);
    try {
        files.probe(Position::from_fen("8/P7/8/8/8/8/8/K1k5 w - - 0 1"));  // a8=Q wins
        ADD_FAILURE() << "probed without KRvK";
    } catch (const MissingSubtablesError& e) {
        EXPECT_NE(std::string(e.what()).find(", and KBvK, KNvK and KRvK are missing from"), std::string::npos)
            << e.what();
    }
    EXPECT_THROW(files.find(Material::parse("KPvK")), MissingSubtablesError);
    try {
        read_table(path);
        ADD_FAILURE() << "read_table accepted a file settled by exits";
    } catch (const StoreError& e) {
        EXPECT_NE(std::string(e.what()).find("read it through a Tablebase"), std::string::npos) << e.what();
    }
    EXPECT_TRUE(read_table_as_stored(path).exits_settled);
}

TEST(StoreShipping, BadVersion6HeadersAreRefused) {
    ScratchDir dir("settled-bad");
    const fs::path path = write_settled("KRvKR", dir.path);
    const std::string good = read_bytes(path);
    ASSERT_EQ(good[VERSION_AT], 6);
    ASSERT_EQ(good[DROPPED_AT], 0);  // both sides kept
    std::string bad = good;
    bad[DROPPED_AT] = 3;
    EXPECT_NE(open_error(with_header_crc(bad), path).find("bad dropped side 3 in a version 6 file"),
              std::string::npos);
    bad[DROPPED_AT] = 1;  // white dropped, yet both sides' blocks
    EXPECT_NE(open_error(with_header_crc(bad), path).find(" blocks, "), std::string::npos);
}

// A job's stop ends a table read whole (decompressing it, applying its exits) within a range of
// entries; nothing half-read is kept, and the next find reads the table whole again.
TEST(StoreShipping, AStopEndsAWholeTableReadAndKeepsNothingOfIt) {
    ScratchDir dir("settled-stop");
    const Material kpk = Material::parse("KPvK");
    const fs::path path = write_settled("KPvK", dir.path);
    for (const char* sub : {"KQvK", "KRvK", "KBvK", "KNvK"}) write_settled(sub, dir.path);
    std::atomic<bool> stop = true;
    EXPECT_THROW(read_table_as_stored(path, BOTH_SIDES, &stop), Stopped);
    Tablebase files(dir.path);
    files.stop_reading_when(&stop);
    EXPECT_THROW(files.find(kpk), Stopped);
    // The exits of the sub-tables in memory: the stop comes in the pass over the entries.
    const Tablebase& solved = test::solved_tables({"KPvK"});
    const TableAsStored stored = read_table_as_stored(path);
    EXPECT_THROW(apply_exits(*stored.table, WHITE, solved, &stop), Stopped);

    stop = false;
    const auto table = files.find(kpk);
    ASSERT_NE(table, nullptr);
    EXPECT_TRUE(diff_tables(*solved.find(kpk), *table, 1).identical());
}
