// Files that store their entries in another order of the index's digits (format v3): the order's
// arithmetic, round trips of DTM tables and WDL bitbases, the search and its sample, and bad orders in
// a header.
#include "store/digit_order.hpp"

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>

#include "store/format.hpp"
#include "store/layout_sample.hpp"
#include "store/table_reader.hpp"
#include "support/store_test_util.hpp"

using namespace retro;
using namespace retro::store_test;

namespace {

// The fixed header's byte offsets (docs/format.md).
constexpr size_t VERSION_AT = 8, ORDER_AT = 52;

}  // namespace

TEST(DigitOrder, StoresEveryEntryOnceAndTheOdometerAgrees) {
    const std::vector<uint64_t> radices = {3, 4, 5, 2};
    const uint64_t size = 3 * 4 * 5 * 2;
    for (const std::vector<uint8_t>& o :
         std::vector<std::vector<uint8_t>>{{3, 2, 1, 0}, {0, 1, 3, 2}, {2, 0, 3, 1}}) {
        const DigitOrder order(radices, o);
        EXPECT_FALSE(order.natural());
        std::set<uint64_t> stored;
        for (uint64_t idx = 0; idx < size; ++idx) stored.insert(order.stored_of(idx));
        EXPECT_EQ(stored.size(), size);
        EXPECT_EQ(*stored.rbegin(), size - 1);
        for (uint64_t first : {0, 1, 7, 59, 119}) {
            uint64_t calls = 0;
            order.for_each_index(first, size - first, [&](uint64_t k, uint64_t idx) {
                EXPECT_EQ(k, calls++);
                EXPECT_EQ(order.stored_of(idx), first + k) << "first " << first;
            });
            EXPECT_EQ(calls, size - first);
        }
    }
    // The digit order {0, 1, 3, 2} swaps the two last digits: index 1 (last digit 1) is stored at 5.
    EXPECT_EQ(DigitOrder(radices, {0, 1, 3, 2}).stored_of(1), 5u);
}

// for_each_digits gives each entry's index digits (the mixed radix of the index, most significant
// first), in a permuted order and in the natural order that knows the radices.
TEST(DigitOrder, TheOdometerGivesEachEntrysDigits) {
    const std::vector<uint64_t> radices = {3, 4, 5, 2};
    const uint64_t size = 3 * 4 * 5 * 2;
    for (const DigitOrder& order : {DigitOrder(radices, {2, 0, 3, 1}), DigitOrder(radices)}) {
        uint64_t calls = 0;
        order.for_each_digits(7, size - 7, [&](uint64_t k, uint64_t idx, const uint64_t* digit) {
            EXPECT_EQ(k, calls++);
            EXPECT_EQ(order.stored_of(idx), 7 + k);
            EXPECT_EQ(((digit[0] * 4 + digit[1]) * 5 + digit[2]) * 2 + digit[3], idx);
            for (size_t d = 0; d < radices.size(); ++d) EXPECT_LT(digit[d], radices[d]);
        });
        EXPECT_EQ(calls, size - 7);
    }
    EXPECT_TRUE(DigitOrder(radices).natural());
}

TEST(DigitOrder, TheIdentityIsNaturalAndOtherListsAreRefused) {
    EXPECT_TRUE(DigitOrder({3, 4, 5}, {0, 1, 2}).natural());
    EXPECT_EQ(DigitOrder({3, 4, 5}, {0, 1, 2}).stored_of(17), 17u);
    EXPECT_THROW(DigitOrder({3, 4, 5}, {0, 0, 1}), std::invalid_argument);
    EXPECT_THROW(DigitOrder({3, 4, 5}, {0, 1}), std::invalid_argument);
    EXPECT_THROW(DigitOrder({3, 4, 5}, {0, 1, 3}), std::invalid_argument);
    EXPECT_THROW(DigitOrder({}, {}), std::invalid_argument);
}

TEST(StoreDigitOrder, TablesAndBitbasesRoundTripInAnotherOrder) {
    ScratchDir dir("digit-order");
    for (const char* name : {"KQvK", "KRvK", "KPvK"}) {
        const auto table = small_table(name);
        WriteOptions o;
        o.digit_order = {1, 0};  // the men's squares most significant, the king pair fastest
        const fs::path path = table_path(dir.path, table->material());
        write_table(*table, path, o);
        const TableReader reader(path, format::Metric::Dtm);
        EXPECT_EQ(reader.header().version, format::VERSION_DIGIT_ORDER) << name;
        EXPECT_EQ(reader.header().digit_order, (std::vector<uint8_t>{1, 0})) << name;
        const auto back = read_table(path);
        uint64_t checked = 0;
        for_each_legal(table->scheme, [&](Color side, uint64_t i, const Position&) {
            ++checked;
            ASSERT_EQ(back->value(side, i), table->value(side, i)) << name << " entry " << i;
            ASSERT_EQ(reader.value(side, i), table->value(side, i)) << name << " probe " << i;
        });
        EXPECT_GT(checked, 20000u) << name;

        const fs::path wdl = wdl_path(dir.path, table->material());
        write_wdl(*table, wdl, o);
        const auto bits = read_wdl(wdl);
        for_each_legal(table->scheme, [&](Color side, uint64_t i, const Position&) {
            ASSERT_EQ(bits->value(side, i), wdl_of(table->value(side, i))) << name << " WDL " << i;
        });
    }
}

TEST(StoreDigitOrder, TheSearchKeepsTheNaturalOrderUnlessAnotherIsSmaller) {
    ScratchDir dir("digit-search");
    const auto table = small_table("KPvK");
    const fs::path natural = dir.path / "natural" / "KPvK.rtb", searched = dir.path / "KPvK.rtb";
    fs::create_directories(natural.parent_path());
    WriteOptions o;
    o.search_digit_order = false;
    write_table(*table, natural, o);
    write_table(*table, searched);
    const TableReader n(natural, format::Metric::Dtm), s(searched, format::Metric::Dtm);
    EXPECT_EQ(n.header().version, format::VERSION_BYTE_VALUES);
    EXPECT_TRUE(n.header().digit_order.empty());
    EXPECT_LE(s.file_size(), n.file_size());
    EXPECT_EQ(s.header().version == format::VERSION_DIGIT_ORDER, !s.header().digit_order.empty());
}

// The layouts are ranked on 8 blocks a side, or on more runs of 2^17 entries when blocks are larger,
// one in each of as many equal strata of the side, at places that differ from stratum to stratum (runs
// at the same place in every stratum misranked KBPvKN's orders), the same places at every call; the
// wider sample that scales the finalists' bytes alike, with `widen` times as many.
TEST(StoreDigitOrder, TheSearchSamplesRunsOfAtMost2To17EntriesOnePerStratumOfEachSide) {
    const std::array<Color, 2> both{WHITE, BLACK};
    const uint64_t entries = 110'000'000;  // 840 runs of 2^17 entries, the last one short
    const auto check = [&](uint32_t block, uint32_t run, uint64_t per_side, uint32_t widen = 1) {
        const std::vector<SampledRun> sample = layout_sample(entries, block, both, widen);
        ASSERT_EQ(sample.size(), 2 * per_side) << "blocks of " << block;
        EXPECT_EQ(sample, layout_sample(entries, block, both, widen));
        const uint64_t runs = (entries + run - 1) / run;
        std::set<uint64_t> places_in_stratum;
        for (size_t k = 0; k < sample.size(); ++k) {
            const uint64_t stratum = k % per_side, first_run = stratum * runs / per_side;
            EXPECT_EQ(sample[k].side, k < per_side ? WHITE : BLACK);
            EXPECT_EQ(sample[k].first % run, 0u);
            EXPECT_GE(sample[k].first / run, first_run) << "blocks of " << block << ", run " << k;
            EXPECT_LT(sample[k].first / run, (stratum + 1) * runs / per_side) << "blocks of " << block;
            EXPECT_EQ(sample[k].n, std::min<uint64_t>(run, entries - sample[k].first));
            places_in_stratum.insert(sample[k].first / run - first_run);
        }
        // Places vary (at most as many as a stratum has runs).
        EXPECT_GE(places_in_stratum.size(), std::min(per_side, runs / per_side) / 2) << "blocks of " << block;
    };
    check(1 << 17, 1 << 17, 8);
    check(1 << 15, 1 << 15, 8);  // 3357 blocks
    check(1 << 18, 1 << 17, 16);
    check(1 << 19, 1 << 17, 32);
    check(1 << 20, 1 << 17, 32);
    check(1 << 24, 1 << 17, 32);
    check(1 << 17, 1 << 17, 64, 8);
    check(1 << 19, 1 << 17, 256, 8);
    check(1 << 19, 1 << 17, 840, 32);  // more than the side has: every run

    // A side smaller than a run is sampled whole; a kept side alone is sampled alone.
    const std::array<Color, 1> black{BLACK};
    const std::vector<SampledRun> small = layout_sample(1000, 1 << 20, black);
    ASSERT_EQ(small.size(), 1u);
    EXPECT_EQ(small[0].side, BLACK);
    EXPECT_EQ(small[0].first, 0u);
    EXPECT_EQ(small[0].n, 1000u);
    const std::vector<SampledRun> tail = layout_sample(5 * (1 << 17) + 7, 1 << 17, black);
    ASSERT_EQ(tail.size(), 6u);  // fewer runs than 8: every one
    EXPECT_EQ(tail.back().first, 5u << 17);
    EXPECT_EQ(tail.back().n, 7u);
}

TEST(StoreDigitOrder, BadOrdersInAHeaderAreRefused) {
    ScratchDir dir("digit-bad");
    const fs::path path = write_in_swapped_digit_order("KQvK", dir.path);
    const auto table = small_table("KQvK");
    const std::string good = read_bytes(path);
    ASSERT_EQ(good[ORDER_AT], 2);

    std::string bad = good;
    bad[ORDER_AT + 2] = 1;  // {1, 1}
    EXPECT_NE(open_error(with_header_crc(bad), path).find("bad digit order"), std::string::npos);
    bad = good;
    bad[ORDER_AT] = 3;  // KQvK has two digits
    EXPECT_NE(open_error(with_header_crc(bad), path).find("bad digit order in header (3 digits, KQvK has 2)"),
              std::string::npos);
    bad = good;
    bad[ORDER_AT + 5] = 1;  // after the order: reserved
    EXPECT_NE(open_error(with_header_crc(bad), path).find("reserved header bytes are not zero"),
              std::string::npos);
    bad = good;
    bad[VERSION_AT] = 2;  // a version 2 file has no order
    EXPECT_NE(open_error(with_header_crc(bad), path).find("reserved header bytes are not zero"),
              std::string::npos);
    bad = good;
    bad[VERSION_AT] = 7;
    EXPECT_NE(open_error(bad, path).find("unsupported format version 7 (this reader reads versions 1 to 6"),
              std::string::npos);
    EXPECT_THROW(write_table(*table, path,
                             [] {
                                 WriteOptions w;
                                 w.digit_order = {0, 0};
                                 return w;
                             }()),
                 StoreError);
}
