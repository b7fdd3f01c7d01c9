#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "index/index_scheme.hpp"
#include "support/random_positions.hpp"

using namespace retro;

namespace {

// The image of pos under symmetry s (side to move kept, no en passant square).
Position transformed(const Position& pos, Symmetry s) {
    Position out;
    for (Color c : {WHITE, BLACK})
        for (int t = 0; t < PIECE_TYPE_COUNT; ++t)
            for (Bitboard b = pos.pieces(c, PieceType(t)); b;)
                out.put({c, PieceType(t)}, apply_symmetry(s, pop_lsb(b)));
    out.set_side_to_move(pos.side_to_move());
    return out;
}

// The symmetries the index folds: all 8 without pawns, the left-right mirror with pawns.
std::vector<Symmetry> folded_symmetries(const Material& m) {
    if (m.has_pawns()) return {IDENTITY, MIRROR_FILE};
    return {0, 1, 2, 3, 4, 5, 6, 7};
}

bool is_symmetric_image(const Position& image, const Position& pos, const Material& m) {
    for (Symmetry s : folded_symmetries(m))
        if (transformed(pos, s) == image) return true;
    return false;
}

bool legal_for_some_side(Position pos) {
    for (Color c : {WHITE, BLACK}) {
        pos.set_side_to_move(c);
        if (pos.illegality().empty()) return true;
    }
    return false;
}

// Checks one legal position: its entry decodes to a symmetric image of it, and every symmetric image
// has the same index. Returns the index.
uint64_t check_position(const IndexScheme& scheme, const Position& pos) {
    const uint64_t idx = scheme.encode(pos);
    EXPECT_LT(idx, scheme.size()) << pos.fen();
    Position decoded;
    decoded.set_side_to_move(pos.side_to_move());
    EXPECT_TRUE(scheme.decode(idx, decoded)) << pos.fen() << " encodes to the hole " << idx;
    EXPECT_TRUE(is_symmetric_image(decoded, pos, scheme.material()))
        << pos.fen() << " encodes to " << idx << ", which decodes to " << decoded.fen();
    for (Symmetry s : folded_symmetries(scheme.material()))
        EXPECT_EQ(scheme.encode(transformed(pos, s)), idx) << pos.fen() << " under symmetry " << s;
    return idx;
}

}  // namespace

class FullRoundTrip : public testing::TestWithParam<const char*> {};

// Every entry that is not a hole encodes back to itself; every legal placement on the full board
// encodes to an entry that decodes to a symmetric image of it; and every such entry is reached.
TEST_P(FullRoundTrip, EveryPosition) {
    const Material m = Material::parse(GetParam());
    const IndexScheme scheme(m);
    std::vector<bool> entry(scheme.size());
    uint64_t entries = 0;
    for (uint64_t i = 0; i < scheme.size(); ++i) {
        Position pos;
        pos.set_side_to_move(BLACK);
        if (!scheme.decode(i, pos)) continue;
        ASSERT_EQ(pos.side_to_move(), BLACK) << "decode must leave the side to move untouched";
        ASSERT_EQ(Material::of(pos), m) << i;
        ASSERT_EQ(scheme.encode(pos), i) << pos.fen();
        entry[i] = true;
        ++entries;
    }
    std::vector<bool> reached(scheme.size());
    uint64_t positions = 0;
    const PieceType piece = m.count(WHITE, QUEEN) ? QUEEN : ROOK;
    for (Square wk = SQ_A1; wk <= SQ_H8; ++wk)
        for (Square bk = SQ_A1; bk <= SQ_H8; ++bk)
            for (Square sq = SQ_A1; sq <= SQ_H8; ++sq) {
                if (wk == bk || sq == wk || sq == bk) continue;
                Position pos;
                pos.put({WHITE, KING}, wk);
                pos.put({BLACK, KING}, bk);
                pos.put({WHITE, piece}, sq);
                if (!legal_for_some_side(pos)) continue;
                ++positions;
                const uint64_t idx = check_position(scheme, pos);
                ASSERT_LT(idx, scheme.size());
                ASSERT_TRUE(entry[idx]) << pos.fen();
                reached[idx] = true;
                if (HasFailure()) return;
            }
    uint64_t reached_entries = 0;
    for (bool r : reached) reached_entries += r;
    EXPECT_EQ(reached_entries, entries);
    EXPECT_GT(positions, entries * 4);
}

INSTANTIATE_TEST_SUITE_P(Index, FullRoundTrip, testing::Values("KQvK", "KRvK"));

class SampledRoundTrip : public testing::TestWithParam<const char*> {};

// Random legal positions: decode(encode(P)) is a symmetric image of P and every symmetric image of P
// has the same index. Random entries that are not holes encode back to themselves.
TEST_P(SampledRoundTrip, RandomPositions) {
    const Material m = Material::parse(GetParam());
    const IndexScheme scheme(m);
    std::mt19937_64 rng(std::hash<std::string>{}(GetParam()) ^ 12345);
    for (int i = 0; i < 20000 && !HasFailure(); ++i) check_position(scheme, test::random_position(m, rng));

    std::uniform_int_distribution<uint64_t> any_entry(0, scheme.size() - 1);
    int decoded = 0;
    for (int i = 0; i < 20000 && !HasFailure(); ++i) {
        const uint64_t idx = any_entry(rng);
        Position pos;
        if (!scheme.decode(idx, pos)) continue;
        ++decoded;
        EXPECT_EQ(Material::of(pos), m);
        EXPECT_EQ(scheme.encode(pos), idx) << pos.fen();
    }
    EXPECT_GT(decoded, 10000);
}

INSTANTIATE_TEST_SUITE_P(Index, SampledRoundTrip,
                         testing::Values("KQvKR", "KRPvKR", "KRBvKR", "KQRvKQ", "KPPvKP", "KRRvKB", "KBNPvKQ",
                                         "KPvKP", "KNNvKP", "KRvKN", "KNNNNNvK", "KQRBvKRN", "KRPPvKPP",
                                         "KPPPPPvK"));
