// Distances past 254 plies (the longest 6-man mate takes 523): their values, a table's long-value
// list, the file format version 2 with 16-bit values and codes, and probing them from a file.

#include <gtest/gtest.h>

#include "index/legal_entries.hpp"
#include "probe/line.hpp"
#include "probe/report.hpp"
#include "solve/statistics.hpp"
#include "store/format.hpp"
#include "store/table_file.hpp"
#include "store/table_reader.hpp"
#include "support/solved_tables.hpp"
#include "support/store_test_util.hpp"

namespace retro {
namespace {

using store_test::ScratchDir;

TEST(LongDistance, ValuesOrderAndPrint) {
    EXPECT_TRUE(is_win(523));
    EXPECT_TRUE(is_loss(522));
    EXPECT_TRUE(is_loss(DTM_MAX));
    EXPECT_EQ(value_through(522), 523);
    EXPECT_EQ(value_through(DTM_DRAW), DTM_DRAW);
    EXPECT_TRUE(better(253, 523));  // the quicker win
    EXPECT_TRUE(better(523, DTM_DRAW));
    EXPECT_TRUE(better(DTM_DRAW, 4000));
    EXPECT_TRUE(better(4000, 254));  // the slower loss
    EXPECT_EQ(describe(523), "win 523");
    EXPECT_EQ(mate_in_moves(523), 262);
    EXPECT_EQ(mate_in_moves(1096), -548);
}

TEST(LongDistance, TableKeepsLongValuesBesideItsBytes) {
    Table t(Material::parse("KQvK"));
    t.set(WHITE, 7, 523);
    t.set(WHITE, 3, 254);
    t.set(BLACK, 7, 253);
    t.set(WHITE, 9, 4001);
    EXPECT_EQ(t.value(WHITE, 7), 523);
    EXPECT_EQ(t.value(WHITE, 3), 254);
    EXPECT_EQ(t.value(BLACK, 7), 253);
    EXPECT_EQ(t.value(WHITE, 9), 4001);
    EXPECT_EQ(t.value(BLACK, 3), DTM_DRAW);
    EXPECT_EQ(t.bytes(WHITE)[7], Table::LONG_BYTE);
    EXPECT_EQ(t.bytes(BLACK)[7], 253);
    ASSERT_EQ(t.long_values(WHITE).size(), 3u);
    EXPECT_EQ(uint64_t(t.long_values(WHITE)[0].index), 3u);  // sorted by index
    static_assert(sizeof(Table::LongValue) == 8);
    t.set(WHITE, 7, 17);  // short again: off the list
    EXPECT_EQ(t.value(WHITE, 7), 17);
    EXPECT_EQ(t.long_values(WHITE).size(), 2u);

    Table::Bytes bytes{t.bytes(WHITE), t.bytes(BLACK)};
    Table::LongValues unsorted{{{{9, 4001}, {3, 254}}, {}}};
    EXPECT_TRUE(Table(t.material(), Table::Bytes(bytes), Table::LongValues(unsorted)) == t);
    Table::LongValues missing{{{{9, 4001}}, {}}};
    EXPECT_THROW(Table(t.material(), Table::Bytes(bytes), std::move(missing)), std::invalid_argument);
}

// KQvK with the first `count` legal white-to-move entries given distinct long distances from 255
// up (a synthetic table: the values need not be consistent with the moves).
struct LongTable {
    std::shared_ptr<Table> table;
    std::vector<std::pair<Position, Dtm>> changed;
};

LongTable long_table(int count) {
    LongTable out{std::make_shared<Table>(*test::solved_table("KQvK")), {}};
    Table& t = *out.table;
    for_each_legal_entry(t.scheme, WHITE, 0, t.size(),
                         [&](uint64_t i, const Placement&, const Position& pos) {
                             if (int(out.changed.size()) == count) return;
                             const Dtm v = Dtm(255 + out.changed.size());
                             t.set(WHITE, i, v);
                             out.changed.emplace_back(pos, v);
                         });
    return out;
}

TEST(LongDistance, FileRoundTripInVersion2) {
    ScratchDir dir("long-distance");
    for (int count : {3, 300}) {  // 300 distinct long values need 16-bit codes
        const LongTable lt = long_table(count);
        const Table& t = *lt.table;
        const auto path = table_path(dir.path, t.material());
        write_table(t, path);
        const TableReader reader(path, format::Metric::Dtm);
        EXPECT_EQ(reader.header().version, format::VERSION_WIDE_VALUES);
        EXPECT_EQ(reader.header().sides[WHITE].bits, count > 200 ? 16 : 8);
        EXPECT_EQ(reader.header().sides[BLACK].bits, 8);
        for (const auto& [pos, v] : lt.changed) ASSERT_EQ(reader.value(pos), v) << pos.fen();

        const auto back = read_table(path);
        EXPECT_EQ(back->long_values(WHITE).size(), size_t(count));
        for (const auto& [pos, v] : lt.changed) ASSERT_EQ(back->value(pos), v);

        // Probing through the directory, from the file, and its report.
        const Tablebase files(dir.path);
        const auto& [pos, v] = lt.changed.back();
        EXPECT_EQ(files.probe(pos), v);
        EXPECT_EQ(files.probe(pos.color_flipped()), v);
        EXPECT_NE(value_summary(pos, 523).find("White mates in 262"), std::string::npos);
        const int longest = 254 + count;  // the largest distance set; the longest win is odd
        const SideStatistics stats = compute_statistics(t).side[WHITE];
        const int longest_win = longest % 2 ? longest : longest - 1;
        EXPECT_EQ(stats.longest_win(), longest_win);
        EXPECT_EQ(stats.longest_win_fen, lt.changed[size_t(longest_win - 255)].first.fen());
    }
}

TEST(LongDistance, TablesWithinABytesReachStayVersion1) {
    ScratchDir dir("short-distance");
    const auto t = test::solved_table("KQvK");
    const auto path = table_path(dir.path, t->material());
    write_table(*t, path);
    EXPECT_EQ(TableReader(path, format::Metric::Dtm).header().version, format::VERSION_BYTE_VALUES);
    // A value of 254 (KPPvKP's longest loss) is long in memory, but a byte in the file.
    Table edge = *t;
    edge.set(BLACK, 0, 254);
    write_table(edge, path, {.fill_holes = false});
    EXPECT_EQ(TableReader(path, format::Metric::Dtm).header().version, format::VERSION_BYTE_VALUES);
    EXPECT_EQ(read_table(path)->value(BLACK, 0), 254);
}

TEST(LongDistance, Version2FileClaimingVersion1IsRefused) {
    ScratchDir dir("long-refused");
    const LongTable lt = long_table(300);
    const auto path = table_path(dir.path, lt.table->material());
    write_table(*lt.table, path);
    std::string bytes = store_test::read_bytes(path);
    bytes[8] = 1;  // claim version 1, then mend the header's CRC: its 16-bit values no longer fit
    const uint32_t length = uint32_t(uint8_t(bytes[12])) | uint32_t(uint8_t(bytes[13])) << 8;
    const uint32_t crc = crc32_of(bytes.data(), length - 4);
    for (int i = 0; i < 4; ++i) bytes[length - 4 + i] = char(crc >> (8 * i));
    try {
        TableReader reader(bytes, path, format::Metric::Dtm);
        FAIL() << "a version 1 file with 16-bit codes was read";
    } catch (const StoreError& e) {
        EXPECT_NE(std::string(e.what()).find("corrupted header"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace retro
