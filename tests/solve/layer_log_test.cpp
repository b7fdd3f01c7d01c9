// The layer log: records appended, read back, counted from a ply on, and reopened at a checkpoint's
// length and checksum.
#include "solve/layer_log.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <tuple>
#include <vector>

#include "solve/solve_error.hpp"
#include "support/store_test_util.hpp"

using namespace retro;

namespace {

LayerChunk chunk(std::initializer_list<uint64_t> indices) {
    LayerChunk c;
    for (uint64_t i : indices) c.add(i);
    return c;
}

}  // namespace

TEST(LayerLog, ReadsBackAndCountsFromAPly) {
    store_test::ScratchDir dir("layer-log");
    const auto path = dir.path / "KQvK.layers";
    uint64_t length = 0, checksum = 0;
    {
        LayerLog log(path, 0, 0);
        log.append(3, WHITE, chunk({5, 9, 200000}));
        log.append(254, BLACK, chunk({1, 2}));
        log.append(523, WHITE, chunk({7, 1ull << 40}));
        log.sync();
        length = log.length();
        checksum = log.checksum();
        EXPECT_EQ(log.count_from(254), (std::array<uint64_t, 2>{2, 2}));
        EXPECT_EQ(log.count_from(0), (std::array<uint64_t, 2>{5, 2}));
        EXPECT_EQ(log.count_from(524), (std::array<uint64_t, 2>{0, 0}));
        log.append(600, BLACK, chunk({3}));  // still appends after counting
        EXPECT_EQ(log.count_from(600), (std::array<uint64_t, 2>{0, 1}));
    }
    LayerLog reopened(path, length, checksum);  // the first three records, as a checkpoint named them
    std::vector<std::tuple<int, Color, uint64_t>> seen;
    std::mutex seen_mutex;
    reopened.read_back(0, [&](const LayerRecord& r) {
        std::lock_guard lock(seen_mutex);
        r.for_each_entry([&](uint64_t i) { seen.emplace_back(r.ply, r.side, i); });
    });
    std::ranges::sort(seen);  // the records come in any order, each one's entries in order
    const std::vector<std::tuple<int, Color, uint64_t>> expected{
        {3, WHITE, 5},   {3, WHITE, 9},   {3, WHITE, 200000},      {254, BLACK, 1},
        {254, BLACK, 2}, {523, WHITE, 7}, {523, WHITE, 1ull << 40}};
    EXPECT_EQ(seen, expected);
    EXPECT_THROW(LayerLog(path, length, checksum + 1), SolveError);
}

// A log of several read blocks (of 64 KiB, the smallest), one of its records longer than a block:
// every record is read back whole, once.
TEST(LayerLog, ReadsBackRecordsAcrossBlocksAndOneLongerThanABlock) {
    LayerLog log({}, 0, 0);
    uint64_t count = 0, sum = 0;
    for (int ply = 0; ply < 40; ++ply) {
        const uint64_t entries = ply == 20 ? 700000 : 5000;  // gaps of two bytes: 1.4 MB, 10 kB
        LayerChunk c;
        for (uint64_t k = 0; k < entries; ++k) {
            c.add(k * 200 + uint64_t(ply));
            sum += k * 200 + uint64_t(ply);
        }
        count += entries;
        log.append(ply, Color(ply % 2), c);
    }
    std::atomic<uint64_t> records{0}, read_count{0}, read_sum{0};
    log.read_back(0, [&](const LayerRecord& r) {
        uint64_t s = 0;
        r.for_each_entry([&](uint64_t i) { s += i; });
        ++records;
        read_count += r.size();
        read_sum += s;
    });
    EXPECT_EQ(records, 40u);
    EXPECT_EQ(read_count, count);
    EXPECT_EQ(read_sum, sum);
    EXPECT_EQ(log.count_from(20), (std::array<uint64_t, 2>{700000 + 9 * 5000, 10 * 5000}));
}
