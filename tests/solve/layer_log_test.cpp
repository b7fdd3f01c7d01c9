// The layer log: records appended, replayed in order, counted from a ply on, and reopened at a
// checkpoint's length and checksum.
#include "solve/layer_log.hpp"

#include <gtest/gtest.h>

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

TEST(LayerLog, ReplaysAndCountsFromAPly) {
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
    reopened.replay([&](int ply, Color side, uint64_t i) { seen.emplace_back(ply, side, i); });
    const std::vector<std::tuple<int, Color, uint64_t>> expected{
        {3, WHITE, 5},   {3, WHITE, 9},   {3, WHITE, 200000},      {254, BLACK, 1},
        {254, BLACK, 2}, {523, WHITE, 7}, {523, WHITE, 1ull << 40}};
    EXPECT_EQ(seen, expected);
    EXPECT_THROW(LayerLog(path, length, checksum + 1), SolveError);
}
