// IndexCursor, which steps the placement digit by digit, against IndexScheme::decode of every entry
// it passes, on walks from random starts and across king-pair boundaries (where every digit wraps),
// in index order and in the storage orders of table files (the digits permuted).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "index/index_cursor.hpp"
#include "index/legal_entries.hpp"
#include "index/pawn_slices.hpp"
#include "support/random_positions.hpp"

using namespace retro;
using namespace retro::test;

namespace {

// The index of the entry stored at `position` when the digits are stored in `order` (empty: index
// order), by plain mixed-radix arithmetic.
uint64_t index_stored_at(const IndexScheme& scheme, const std::vector<uint8_t>& order, uint64_t position) {
    if (order.empty()) return position;
    const std::vector<uint64_t> radix = scheme.digit_radices();
    std::vector<uint64_t> digit(radix.size());
    for (size_t k = order.size(); k-- > 0;) {
        digit[order[k]] = position % radix[order[k]];
        position /= radix[order[k]];
    }
    uint64_t idx = 0;
    for (size_t d = 0; d < radix.size(); ++d) idx = idx * radix[d] + digit[d];
    return idx;
}

// Walks `steps` entries from stored position `first` (or to the end of the index), comparing each
// with decode. Returns how many entries were compared.
int walk_and_compare(const IndexScheme& scheme, uint64_t first, int steps,
                     const std::vector<uint8_t>& order = {}) {
    int compared = 0;
    IndexCursor cursor(scheme, first, order);
    for (uint64_t position = first; position < scheme.size() && compared < steps; ++position, cursor.next()) {
        EXPECT_EQ(cursor.index(), index_stored_at(scheme, order, position));
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
    if (compared < steps) {
        EXPECT_EQ(cursor.index(), scheme.size()) << "past the end";
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

TEST_P(IndexCursorTest, WalksEveryStorageOrderAsDecodeReads) {
    const IndexScheme scheme(Material::parse(GetParam()));
    auto rng = seeded_rng(GetParam());
    std::uniform_int_distribution<uint64_t> any_entry(0, scheme.size() - 1);
    std::vector<int> digits(scheme.digit_radices().size());
    std::iota(digits.begin(), digits.end(), 0);
    int orders = 0;
    do {  // at most 24 orders: the first permutations of larger indices
        const std::vector<uint8_t> order(digits.begin(), digits.end());
        constexpr int STEPS = 300;
        int compared = walk_and_compare(scheme, any_entry(rng), STEPS, order);
        compared += walk_and_compare(scheme, scheme.size() - STEPS / 2, STEPS, order);
        EXPECT_EQ(compared, STEPS + STEPS / 2) << "order " << orders;
        ++orders;
    } while (std::next_permutation(digits.begin(), digits.end()) && orders < 24 && !HasFailure());
    EXPECT_EQ(orders, std::min<int>(24, int(std::tgamma(double(digits.size()) + 1) + 0.5)));
}

// The legal walk shifts the stepped man on the position it keeps: every entry it passes is the one
// decode_legal reads, and it passes every legal entry, in whole tables and in slices.
TEST_P(IndexCursorTest, TheLegalWalkReadsThePositionsDecodeReads) {
    const Material m = Material::parse(GetParam());
    std::vector<IndexScheme> schemes{IndexScheme(m)};
    if (m.has_pawns()) schemes.emplace_back(m, pawn_configs(m).back());
    auto rng = seeded_rng(GetParam());
    uint64_t walked = 0;
    for (const IndexScheme& scheme : schemes) {
        std::uniform_int_distribution<uint64_t> any_entry(0, scheme.size() - 1);
        for (int w = 0; w < 4 && !HasFailure(); ++w) {
            const uint64_t first = any_entry(rng), end = std::min<uint64_t>(scheme.size(), first + 2000);
            for (Color side : {WHITE, BLACK}) {
                uint64_t expected = first;
                for_each_legal_entry(scheme, side, first, end,
                                     [&](uint64_t i, const Placement&, const Position& pos) {
                                         Position decoded;
                                         while (!decode_legal(scheme, expected, side, decoded)) ++expected;
                                         EXPECT_EQ(i, expected);
                                         EXPECT_EQ(pos, decoded) << "entry " << i;
                                         ++expected;
                                         ++walked;
                                     });
                Position decoded;
                while (expected < end) EXPECT_FALSE(decode_legal(scheme, expected++, side, decoded));
            }
        }
    }
    EXPECT_GT(walked, 0u);
}

// The walk in runs passes every entry that decodes, and says Walked::InRun only when the entry before
// it had every man but the fastest slot's on the same square (what RunExits relies on).
TEST_P(IndexCursorTest, TheWalkInRunsTellsARunByTheMenThatStood) {
    const Material m = Material::parse(GetParam());
    const IndexScheme scheme(m);
    const int fastest = scheme.fastest_slot();
    auto rng = seeded_rng(GetParam());
    std::uniform_int_distribution<uint64_t> any_entry(0, scheme.size() - 1);
    int same = 0, fresh = 0;
    for (int w = 0; w < 4 && !HasFailure(); ++w) {
        const uint64_t first = any_entry(rng), end = std::min<uint64_t>(scheme.size(), first + 2000);
        uint64_t expected = first;
        std::optional<Placement> before;
        for_each_entry_in_runs(scheme, BLACK, first, end,
                               [&](uint64_t i, const Placement& p, const Position& pos, Walked walked) {
                                   Position decoded;
                                   while (!scheme.decode(expected, decoded)) ++expected;
                                   decoded.set_side_to_move(BLACK);
                                   ASSERT_EQ(i, expected++);
                                   EXPECT_EQ(pos, decoded) << "entry " << i;
                                   bool stood = before && fastest >= 0;
                                   for (int s = 0; s < scheme.men() && stood; ++s)
                                       stood =
                                           s == fastest || p.square[size_t(s)] == before->square[size_t(s)];
                                   // A new run may start where the men stood (the cursor placed them
                                   // again); never a run where one moved.
                                   EXPECT_TRUE(walked == Walked::NewRun || stood) << "entry " << i;
                                   ++(walked == Walked::InRun ? same : fresh);
                                   before = p;
                               });
    }
    if (fastest >= 0) {
        EXPECT_GT(same, 10 * fresh);  // runs of most of a square's worth
    }
}

INSTANTIATE_TEST_SUITE_P(FastPath, IndexCursorTest,
                         testing::Values("KQvK", "KPvK", "KRvKB", "KPvKP", "KBBvK", "KQRvKR", "KRPvKP",
                                         "KRBvKQN", "KPPvKPP", "KNNPvKP", "KNNNNNvK", "KQRBvKRN", "KRPPvKPP",
                                         "KPPPPPvK"));
