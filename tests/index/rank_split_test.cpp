// The split of an index over ranks by king pair: contiguous runs of whole king pairs, as even as they go.
#include "index/rank_split.hpp"

#include <gtest/gtest.h>

using namespace retro;

TEST(RankSplit, KingPairsDealtInContiguousRunsCoveringTheIndex) {
    const IndexScheme scheme(Material::parse("KQvKR"));
    // 462 king pairs (the pawnless kings under 8 symmetries), each with the queen's and the rook's
    // digits: 62 squares each.
    ASSERT_EQ(scheme.digit_radices().front(), 462u);
    const uint64_t per_pair = 62 * 62;
    ASSERT_EQ(scheme.size(), 462 * per_pair);
    EXPECT_EQ(king_pair_ranges(scheme, 1).front().end, scheme.size());
    // 462 / 4: 115, 116, 115, 116 pairs.
    const std::vector<IndexRange> four = king_pair_ranges(scheme, 4);
    ASSERT_EQ(four.size(), 4u);
    const uint64_t pairs[] = {115, 116, 115, 116};
    uint64_t begin = 0;
    for (size_t r = 0; r < 4; ++r) {
        EXPECT_EQ(four[r].begin, begin);
        EXPECT_EQ(four[r].size(), pairs[r] * per_pair);
        begin = four[r].end;
    }
    EXPECT_EQ(begin, scheme.size());
    EXPECT_EQ(largest_rank_entries(scheme, 4), 116 * per_pair);
    EXPECT_EQ(largest_rank_entries(scheme, 2), 231 * per_pair);
    EXPECT_EQ(rank_holding(four, 0), 0);
    EXPECT_EQ(rank_holding(four, 115 * per_pair - 1), 0);
    EXPECT_EQ(rank_holding(four, 115 * per_pair), 1);
    EXPECT_EQ(rank_holding(four, scheme.size() - 1), 3);
}

TEST(RankSplit, MoreRanksThanKingPairsLeaveSomeEmpty) {
    const IndexScheme scheme(Material::parse("KQvK"));
    const uint64_t pairs = scheme.digit_radices().front();
    const std::vector<IndexRange> ranges = king_pair_ranges(scheme, int(pairs) + 3);
    uint64_t empty = 0, covered = 0;
    for (const IndexRange& r : ranges) {
        empty += r.size() == 0;
        covered += r.size();
        if (r.size()) {
            EXPECT_EQ(ranges[size_t(rank_holding(ranges, r.begin))].begin, r.begin);
        }
    }
    EXPECT_EQ(empty, 3u);
    EXPECT_EQ(covered, scheme.size());
    EXPECT_THROW(king_pair_ranges(scheme, 0), std::invalid_argument);
}
