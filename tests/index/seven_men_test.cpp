// Seven men: the index's sizes, its legal entries for one king pair against the board enumerated
// square by square, and a slice of a 7-man pawn table against the whole table's index. (The round
// trips, the cursor and the cheap index of a move take 7-man materials among their others.)
#include <gtest/gtest.h>

#include <array>
#include <functional>
#include <vector>

#include "index/index_scheme.hpp"
#include "index/legal_entries.hpp"
#include "index/pawn_slices.hpp"
#include "support/random_positions.hpp"

using namespace retro;

TEST(SevenMen, IndexSizes) {
    // C(62, 5) = 6,471,002; C(62, 3) = 37,820; C(48, 2) = 1,128; C(48, 5) = 1,712,304.
    EXPECT_EQ(IndexScheme(Material::parse("KNNNNNvK")).size(), 462ull * 6471002);  // 3.0e9
    EXPECT_EQ(IndexScheme(Material::parse("KQRBvKRN")).size(), 462ull * 62 * 62 * 62 * 62 * 62);
    EXPECT_EQ(IndexScheme(Material::parse("KRRRvKQQ")).size(), 462ull * 37820 * 1891);
    EXPECT_EQ(IndexScheme(Material::parse("KRPPvKPP")).size(), 1806ull * 62 * 1128 * 1128);
    EXPECT_EQ(IndexScheme(Material::parse("KPPPPPvK")).size(), 1806ull * 1712304);
    // The largest 7-man index: four like-less pieces and a pawn, 1.28e12 entries a side.
    EXPECT_EQ(IndexScheme(Material::parse("KQRBvKNP")).size(), 1806ull * 62 * 62 * 62 * 62 * 48);
    EXPECT_EQ(slice_entries(Material::parse("KPPPPPvK")), 2u * 1806);
}

namespace {

// The legal positions, by side to move, with the kings on wk and bk and the other men of m anywhere:
// every placement enumerated square by square, each group's like men on rising squares.
std::array<uint64_t, 2> count_on_board(const Material& m, Square wk, Square bk) {
    struct Group {
        Piece piece;
        int count;
    };
    std::vector<Group> groups;
    for (Color c : {WHITE, BLACK})
        for (int t = QUEEN; t <= PAWN; ++t)
            if (m.count(c, PieceType(t))) groups.push_back({{c, PieceType(t)}, m.count(c, PieceType(t))});
    Position pos;
    pos.put({WHITE, KING}, wk);
    pos.put({BLACK, KING}, bk);
    std::array<uint64_t, 2> legal{};
    std::function<void(size_t, int, Square)> place = [&](size_t g, int left, Square from) {
        if (g == groups.size()) {
            for (Color c : {WHITE, BLACK}) {
                pos.set_side_to_move(c);
                legal[c] += pos.illegality().empty();
            }
            return;
        }
        if (left == 0) return place(g + 1, g + 1 < groups.size() ? groups[g + 1].count : 0, SQ_A1);
        for (Square s = from; s <= SQ_H8; ++s) {
            if (pos.occupied() & square_bb(s)) continue;
            if (groups[g].piece.type == PAWN && !(PAWN_RANKS & square_bb(s))) continue;
            pos.put(groups[g].piece, s);
            place(g, left - 1, s + 1);
            pos.remove(s);
        }
    };
    place(0, groups.empty() ? 0 : groups[0].count, SQ_A1);
    return legal;
}

// The legal entries of the index's king pair (wk, bk), by side to move, as the solver walks them.
std::array<uint64_t, 2> count_in_index(const IndexScheme& scheme, Square wk, Square bk) {
    const KingPairs& pairs = scheme.has_pawns() ? pawn_king_pairs() : pawnless_king_pairs();
    const int pair = pairs.number[wk][bk];
    EXPECT_GE(pair, 0) << "not a canonical king pair";
    const uint64_t per_pair = scheme.size() / uint64_t(pairs.count);
    std::array<uint64_t, 2> legal{};
    for (Color c : {WHITE, BLACK})
        for_each_legal_entry(scheme, c, uint64_t(pair) * per_pair, uint64_t(pair + 1) * per_pair,
                             [&](uint64_t, const Placement&, const Position&) { ++legal[c]; });
    return legal;
}

}  // namespace

// Kings off the a1-h8 diagonal, in a canonical pair no symmetry but the identity keeps: each of the
// pair's legal entries stands for exactly one board placement.
TEST(SevenMen, LegalEntriesOfAKingPairMatchTheBoard) {
    const struct {
        const char* material;
        const char *wk, *bk;
        uint64_t entries_per_pair;  // the index's, holes included
    } cases[] = {
        {"KNNNNNvK", "b1", "f5", 6471002},
        {"KPPPPPvK", "c2", "f6", 1712304},
        {"KPPPPvKP", "d3", "e7", 194580 * 48},
    };
    for (const auto& c : cases) {
        const Material m = Material::parse(c.material);
        const IndexScheme scheme(m);
        EXPECT_EQ(scheme.size() / (m.has_pawns() ? 1806 : 462), c.entries_per_pair) << c.material;
        const Square wk = parse_square(c.wk), bk = parse_square(c.bk);
        const auto board = count_on_board(m, wk, bk);
        const auto index = count_in_index(scheme, wk, bk);
        EXPECT_GT(board[WHITE], c.entries_per_pair / 4) << c.material;
        EXPECT_GT(board[BLACK], c.entries_per_pair / 4) << c.material;
        EXPECT_EQ(index[WHITE], board[WHITE]) << c.material << ", white to move";
        EXPECT_EQ(index[BLACK], board[BLACK]) << c.material << ", black to move";
    }
}

// A slice of a 7-man pawn table: its valid entries name the same placements as the whole table's
// (table_index and encode both ways, and the locator finds the slice back).
TEST(SevenMen, SliceEntriesAreTheTablesEntries) {
    for (const char* name : {"KNNPPvKP", "KQPPvKRP"}) {  // three pawns: 26,000 slices, not millions
        const Material m = Material::parse(name);
        const IndexScheme table(m);
        const SliceLocator locator(m);
        const std::vector<PawnConfig> configs = pawn_configs(m);
        auto rng = test::seeded_rng(name);
        for (int i = 0; i < 300 && !HasFailure(); ++i) {
            const Position pos = test::random_position(m, rng);
            Placement p;
            ASSERT_TRUE(table.decode(table.encode(pos), p)) << pos.fen();
            const auto where = locator.locate(table.encode(pos));
            ASSERT_TRUE(where) << pos.fen();
            const IndexScheme slice(m, configs[where->slice]);
            EXPECT_EQ(slice.encode(p), where->index) << pos.fen();
            EXPECT_EQ(slice.table_index(where->index), table.encode(pos)) << pos.fen();
        }
    }
}
