// IndexCursor, which steps the placement digit by digit, against IndexScheme::decode of every entry
// it passes, on walks from random starts and across king-pair boundaries (where every digit wraps).
#include "index/index_cursor.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>

#include "random_positions.hpp"

using namespace retro;
using namespace retro::test;

namespace {

// Walks `steps` entries from `first` (or to the end of the index), comparing each with decode.
// Returns how many entries were compared.
int walk_and_compare(const IndexScheme& scheme, uint64_t first, int steps) {
    int compared = 0;
    for (IndexCursor cursor(scheme, first); cursor.index() < scheme.size() && compared < steps;
         cursor.next()) {
        EXPECT_EQ(cursor.index(), first + uint64_t(compared));
        Placement decoded;
        const bool valid = scheme.decode(cursor.index(), decoded);
        ++compared;
        EXPECT_EQ(cursor.valid(), valid) << "entry " << cursor.index() << " from " << first;
        if (!valid) continue;
        for (int s = 0; s < scheme.men(); ++s)
            EXPECT_EQ(cursor.placement().square[s], decoded.square[s])
                << "slot " << s << " of entry " << cursor.index() << " from " << first;
        if (testing::Test::HasFailure()) break;
    }
    return compared;
}

}  // namespace

class IndexCursorTest : public testing::TestWithParam<const char*> {};

TEST_P(IndexCursorTest, WalksAsDecodeReads) {
    const IndexScheme scheme(Material::parse(GetParam()));
    auto rng = seeded_rng(GetParam());
    // The king pair is the top digit: one pair's block of entries is the product of the group sizes.
    const uint64_t per_king_pair = scheme.size() / (scheme.has_pawns() ? 1806 : 462);
    std::uniform_int_distribution<uint64_t> any_entry(0, scheme.size() - 1);
    constexpr int WALKS = 8, STEPS = 500;
    int compared = 0;
    for (int w = 0; w < WALKS && !HasFailure(); ++w) {
        const uint64_t start = any_entry(rng);
        compared += walk_and_compare(scheme, start, STEPS);
        const uint64_t next_pair = (start / per_king_pair + 1) * per_king_pair;
        if (next_pair < scheme.size())
            compared += walk_and_compare(scheme, next_pair - std::min<uint64_t>(next_pair, STEPS / 2), STEPS);
    }
    compared += walk_and_compare(scheme, 0, STEPS);
    compared += walk_and_compare(scheme, scheme.size() - STEPS / 2, STEPS);
    if (!HasFailure()) {  // a failure stops its walk
        EXPECT_GT(compared, WALKS * STEPS);
    }
}

INSTANTIATE_TEST_SUITE_P(FastPath, IndexCursorTest,
                         testing::Values("KQvK", "KPvK", "KRvKB", "KPvKP", "KBBvK", "KQRvKR", "KRPvKP",
                                         "KRBvKQN", "KPPvKPP", "KNNPvKP"));
