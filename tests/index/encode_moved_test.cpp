// IndexScheme::encode_moved, the solver's cheap index of a neighbour, against encode of the position
// the move or un-move reaches, for every quiet move and un-move of random entries; and the promise
// of its `reoriented` flag.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "chess/unmovegen.hpp"
#include "index/index_scheme.hpp"
#include "support/random_positions.hpp"

using namespace retro;
using namespace retro::test;

namespace {

int slot_on(const IndexScheme& scheme, const Placement& p, Square s) {
    for (int slot = 0; slot < scheme.men(); ++slot)
        if (p.square[slot] == s) return slot;
    ADD_FAILURE() << "no man on " << square_name(s);
    return 0;
}

struct Coverage {
    int moves = 0, diagonal_entries = 0, reoriented_king_moves = 0, kept_king_moves = 0;
};

// Checks the man on `from` of entry idx (canonical placement p) moving to `to`, which reaches
// `reached`. Returns the index reached when the move kept the orientation.
std::optional<uint64_t> check_move(const IndexScheme& scheme, uint64_t idx, const Placement& p, Square from,
                                   Square to, const Position& reached, Coverage& coverage) {
    const int slot = slot_on(scheme, p, from);
    bool reoriented = false;
    const uint64_t moved = scheme.encode_moved(idx, p, slot, to, &reoriented);
    const std::string where = reached.fen() + " from entry " + std::to_string(idx) + ", " +
                              square_name(from) + "-" + square_name(to);
    EXPECT_EQ(moved, scheme.encode(reached)) << where;
    ++coverage.moves;
    if (slot < 2) ++(reoriented ? coverage.reoriented_king_moves : coverage.kept_king_moves);
    if (reoriented) return std::nullopt;
    // Without re-orientation the moved placement is itself canonical: its entry decodes to it.
    Position decoded;
    decoded.set_side_to_move(reached.side_to_move());
    EXPECT_TRUE(scheme.decode(moved, decoded)) << where;
    Position plain = reached;  // the index holds no en passant right
    plain.set_ep_square(NO_SQUARE);
    EXPECT_EQ(decoded.fen(), plain.fen())
        << where << " kept the orientation, yet its entry decodes otherwise";
    return moved;
}

// Indices reached without re-orientation differ whenever the moves differ.
void expect_distinct(std::vector<uint64_t> indices, const Position& entry) {
    std::sort(indices.begin(), indices.end());
    EXPECT_EQ(std::adjacent_find(indices.begin(), indices.end()), indices.end())
        << "two moves of " << entry.fen() << " that kept the orientation reach the same entry";
}

}  // namespace

class EncodeMovedTest : public testing::TestWithParam<const char*> {};

TEST_P(EncodeMovedTest, MatchesEncodeOfTheReachedPosition) {
    const Material m = Material::parse(GetParam());
    const IndexScheme scheme(m);
    Coverage coverage;
    for (const Position& random : sample_positions(m, 2000, EnPassant::Excluded)) {
        // The solver's entries are canonical placements decoded from an index.
        const uint64_t idx = scheme.encode(random);
        Placement p;
        ASSERT_TRUE(scheme.decode(idx, p)) << random.fen();
        Position entry = scheme.to_position(p);
        entry.set_side_to_move(random.side_to_move());
        coverage.diagonal_entries += scheme.kings_on_diagonal(p);

        MoveList moves, unmoves;
        generate_legal_moves(entry, moves);
        std::vector<uint64_t> kept;
        for (const Move& mv : moves) {
            if (mv.capture || mv.en_passant || mv.promotion != NO_PIECE_TYPE) continue;
            if (auto i = check_move(scheme, idx, p, mv.from, mv.to, make_move(entry, mv), coverage))
                kept.push_back(*i);
        }
        expect_distinct(kept, entry);

        generate_unmoves(entry, unmoves);
        kept.clear();
        for (const Move& mv : unmoves)
            if (auto i = check_move(scheme, idx, p, mv.to, mv.from, predecessor(entry, mv), coverage))
                kept.push_back(*i);
        expect_distinct(kept, entry);
        if (HasFailure()) return;
    }
    EXPECT_GT(coverage.moves, 10000);
    EXPECT_GT(coverage.reoriented_king_moves, 100);
    EXPECT_GT(coverage.kept_king_moves, 100);
    if (!m.has_pawns()) {
        EXPECT_GT(coverage.diagonal_entries, 100);
    }
}

INSTANTIATE_TEST_SUITE_P(FastPath, EncodeMovedTest,
                         testing::Values("KQvK", "KPvK", "KRvKN", "KPvKP", "KBBvK", "KQRvKR", "KRPvKP",
                                         "KRBvKQN", "KPPvKPP", "KNNPvKP", "KNNNNNvK", "KQRBvKRN", "KRPPvKPP",
                                         "KPPPPPvK"));
