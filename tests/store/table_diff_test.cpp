// diff_tables: every legal entry of both sides compared, holes and illegal entries skipped.
#include "store/table_diff.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

#include "index/legal_entries.hpp"
#include "support/store_test_util.hpp"

namespace retro {
namespace {

using store_test::small_table;

// The legal entries of both sides to move, counted the slow way.
uint64_t legal_entries(const IndexScheme& scheme) {
    uint64_t n = 0;
    store_test::for_each_legal(scheme, [&](Color, uint64_t, const Position&) { ++n; });
    return n;
}

// The first index that is no legal position with `side` to move.
uint64_t first_hole(const IndexScheme& scheme, Color side) {
    Position pos;
    for (uint64_t i = 0; i < scheme.size(); ++i)
        if (!decode_legal(scheme, i, side, pos)) return i;
    throw std::logic_error("no hole");
}

// The n-th legal entry with `side` to move, and its position.
uint64_t nth_legal(const IndexScheme& scheme, Color side, uint64_t n, Position& pos) {
    for (uint64_t i = 0; i < scheme.size(); ++i)
        if (decode_legal(scheme, i, side, pos) && n-- == 0) return i;
    throw std::logic_error("too few legal entries");
}

TEST(TableDiff, ATableIsIdenticalToItself) {
    const Table& t = *small_table("KRvK");
    const TableDifferences d = diff_tables(t, t);
    EXPECT_TRUE(d.identical());
    EXPECT_EQ(d.compared, legal_entries(t.scheme));
    EXPECT_TRUE(d.first.empty());
}

TEST(TableDiff, OneChangedEntryIsFoundWithItsPosition) {
    const Table& a = *small_table("KQvK");
    Table b = a;
    Position pos;
    const uint64_t idx = nth_legal(b.scheme, BLACK, 1000, pos);
    const Dtm old = a.value(BLACK, idx), changed = is_draw(old) ? 7 : Dtm(old + 2);
    b.set(BLACK, idx, changed);

    const TableDifferences d = diff_tables(a, b);
    EXPECT_EQ(d.differing, 1u);
    EXPECT_EQ(d.compared, legal_entries(a.scheme));
    ASSERT_EQ(d.first.size(), 1u);
    EXPECT_EQ(d.first[0].side, BLACK);
    EXPECT_EQ(d.first[0].index, idx);
    EXPECT_EQ(d.first[0].fen, pos.fen());
    EXPECT_EQ(d.first[0].a, old);
    EXPECT_EQ(d.first[0].b, changed);
}

// A distance past 253 plies lives in the table's long-value list, not in its byte.
TEST(TableDiff, ALongValueIsCompared) {
    const Table& a = *small_table("KRvK");
    Table b = a;
    Position pos;
    const uint64_t idx = nth_legal(b.scheme, WHITE, 10, pos);
    b.set(WHITE, idx, 523);
    const TableDifferences d = diff_tables(a, b);
    ASSERT_EQ(d.differing, 1u);
    EXPECT_EQ(d.first[0].b, 523);
}

TEST(TableDiff, HolesAndIllegalEntriesAreSkipped) {
    const Table& a = *small_table("KQvK");
    Table b = a;
    for (Color side : {WHITE, BLACK}) b.set(side, first_hole(b.scheme, side), 3);
    EXPECT_FALSE(a == b);
    EXPECT_TRUE(diff_tables(a, b).identical());
}

// Many differences: the count is exact, and the examples are the first ones in (side, index) order.
TEST(TableDiff, KeepsTheFirstDifferencesInOrder) {
    const Table& a = *small_table("KRvK");
    Table b = a;
    std::vector<std::pair<Color, uint64_t>> changed;
    for (Color side : {BLACK, WHITE})
        for (uint64_t n : {5000, 17, 900, 20000}) {
            Position pos;
            const uint64_t idx = nth_legal(b.scheme, side, n, pos);
            b.set(side, idx, is_draw(a.value(side, idx)) ? 1 : DTM_DRAW);
            changed.push_back({side, idx});
        }
    std::sort(changed.begin(), changed.end());
    const TableDifferences d = diff_tables(a, b, 3);
    EXPECT_EQ(d.differing, 8u);
    ASSERT_EQ(d.first.size(), 3u);
    for (size_t i = 0; i < 3; ++i) {
        EXPECT_EQ(d.first[i].side, changed[i].first) << i;
        EXPECT_EQ(d.first[i].index, changed[i].second) << i;
    }
}

TEST(TableDiff, OtherMaterialsAreRefused) {
    EXPECT_THROW(diff_tables(*small_table("KQvK"), *small_table("KRvK")), std::invalid_argument);
}

}  // namespace
}  // namespace retro
