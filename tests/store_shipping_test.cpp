// The shipping form (format version 4): a file keeps one side to move, and a Tablebase rebuilds the
// other by a one-ply search, for a whole table (find) or per probe. Every 3-4-man table reads back
// to the values solved; the side kept, the errors, and bad version 4 headers.
#include <gtest/gtest.h>

#include "jobs/plan.hpp"
#include "random_positions.hpp"
#include "solved_tables.hpp"
#include "store/format.hpp"
#include "store/table_diff.hpp"
#include "store_test_util.hpp"

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

}  // namespace

TEST(StoreShipping, EveryThreeAndFourManTableReadsBackToItsSolvedValues) {
    const std::vector<Material> all = materials_up_to(4);
    std::vector<std::string> names;
    for (const Material& m : all) names.push_back(m.name());
    const Tablebase& solved = test::solved_tables(names);
    ScratchDir dir("shipping-all");
    uint64_t full_bytes = 0, shipped_bytes = 0;
    for (const Material& m : all) {
        const auto table = solved.find(m);
        write_table(*table, table_path(dir.path, m), shipping());
        const TableReader reader(table_path(dir.path, m), format::Metric::Dtm);
        EXPECT_EQ(reader.header().version, format::VERSION_ONE_SIDE) << m.name();
        ASSERT_TRUE(reader.header().dropped) << m.name();
        shipped_bytes += reader.file_size();
        write_table(*table, dir.path / "full.rtb", shipping(WriteOptions::Sides::Both));
        full_bytes += fs::file_size(dir.path / "full.rtb");
    }
    fs::remove(dir.path / "full.rtb");
    // The kept side is the smaller: less than 60% of both sides (measured: 47% with zstd).
    EXPECT_LT(double(shipped_bytes), 0.6 * double(full_bytes)) << shipped_bytes << " of " << full_bytes;

    // Whole tables: the dropped side rebuilt from the kept one and the (also rebuilt) sub-tables.
    const Tablebase files(dir.path);
    for (const Material& m : all) {
        const TableDifferences d = diff_tables(*solved.find(m), *files.find(m), 1);
        EXPECT_TRUE(d.identical()) << m.name() << ": " << d.differing << " differ, first "
                                   << (d.first.empty() ? "" : d.first[0].fen);
        EXPECT_GT(d.compared, 0u);
    }
    // Single probes, each side to move, en passant rights too: the dropped side by a one-ply search.
    const Tablebase probes(dir.path);
    for (const Material& m : all)
        for (const Position& pos : test::sample_positions(m, 200, test::EnPassant::Included))
            ASSERT_EQ(probes.probe(pos), solved.probe(pos)) << pos.fen();
}

TEST(StoreShipping, KeepsTheSideAskedForAndSaysWhatIsMissing) {
    ScratchDir dir("shipping-side");
    const auto table = small_table("KRvK");
    const fs::path path = table_path(dir.path, table->material());
    for (const auto& [keep, dropped] : {std::pair{WriteOptions::Sides::WhiteToMove, BLACK},
                                        std::pair{WriteOptions::Sides::BlackToMove, WHITE}}) {
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
        const StoredTable stored = read_stored_table(path);
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
    } catch (const MissingTableError& e) {
        EXPECT_NE(std::string(e.what()).find("no table for K"), std::string::npos) << e.what();
    }
    EXPECT_THROW(files.find(table->material()), MissingTableError);
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
