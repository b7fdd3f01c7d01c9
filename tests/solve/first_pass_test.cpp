// The first pass's count of the distinct entries an entry's quiet moves reach, its moves summarized
// from the board's attacks (the fast path) and listed move by move (the general path), against the
// entries themselves: every quiet move played and the position it reaches encoded.
#include "solve/first_pass.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "index/legal_entries.hpp"
#include "solve/entry_exits.hpp"
#include "support/random_positions.hpp"

using namespace retro;
using namespace retro::test;

namespace {

// Entry `index` of `side` to move, placed as the first pass places it.
Entry entry_at(const IndexScheme& scheme, uint64_t index, Color side) {
    Entry e{index, false, {}, {}};
    EXPECT_TRUE(scheme.decode(index, e.placement));
    e.diagonal = scheme.kings_on_diagonal(e.placement);
    e.pos = entry_position(scheme, e.placement, side);
    return e;
}

// The distinct entries e's quiet moves reach, each move played and its position encoded.
int encoded_successors(const IndexScheme& scheme, const Entry& e) {
    MoveList all;
    generate_legal_moves(e.pos, all);
    std::set<uint64_t> reached;
    for (const Move& m : all)
        if (!leaves_scheme(e, m)) reached.insert(scheme.encode(make_move(e.pos, m)));
    return int(reached.size());
}

std::vector<std::string> sorted_uci(const MoveList& moves) {
    std::vector<std::string> out;
    for (const Move& m : moves) out.push_back(to_uci(m) + (m.capture ? "x" : ""));
    std::sort(out.begin(), out.end());
    return out;
}

// How many entries each path counted, and how many had quiet moves that meet on one entry.
struct Paths {
    int counted = 0, listed = 0, folded = 0;
};

// Both paths of entry e against the encoded successors, and the exits they list against each other.
void check_entry(const IndexScheme& scheme, const Entry& e, Paths& paths) {
    const BoardAttacks attacks(e.pos);
    MoveSummary fast, general;
    const QuietSuccessors counted = quiet_successors(scheme, e, attacks, fast);
    const QuietSuccessors listed = quiet_successors(scheme, e, attacks, general, SuccessorPath::Listed);
    ASSERT_EQ(listed.path, SuccessorPath::Listed);
    const int expected = encoded_successors(scheme, e);
    ASSERT_EQ(counted.count, expected) << e.pos.fen();
    ASSERT_EQ(listed.count, expected) << e.pos.fen();
    ASSERT_EQ(sorted_uci(fast.exits), sorted_uci(general.exits)) << e.pos.fen();
    ++(counted.path == SuccessorPath::Counted ? paths.counted : paths.listed);
    paths.folded += counted.count < fast.quiet_moves();
}

}  // namespace

// Every entry of both sides of three 3-man tables, where the kings meet through every symmetry, and
// of KRvKB, where two men may stand off the symmetry that keeps the other king.
TEST(FirstPass, EveryEntryOfSmallTablesCountsItsQuietSuccessorsBothWays) {
    for (const char* name : {"KQvK", "KRvK", "KNvK", "KRvKB"}) {
        const IndexScheme scheme(Material::parse(name));
        Paths paths;
        for (Color side : {WHITE, BLACK})
            for_each_legal_entry(
                scheme, side, 0, scheme.size(), [&](uint64_t i, const Placement&, const Position&) {
                    ASSERT_NO_FATAL_FAILURE(check_entry(scheme, entry_at(scheme, i, side), paths));
                });
        // Every entry is counted (no pawns); in many two moves meet: one or two men are never off
        // the symmetry that keeps the other king by more than two.
        EXPECT_EQ(paths.listed, 0) << name;
        EXPECT_GT(paths.folded, 200) << name;
    }
}

class FirstPassSample : public testing::TestWithParam<const char*> {};

// Random entries of larger materials: groups of several men, pawns (the whole table's index, where
// a pawn's move is an exit as in a slice), both kings on the diagonal in one sample of four. With
// four men, some entries have moves that meet (two men are never off the transpose by more than two).
TEST_P(FirstPassSample, CountedQuietSuccessorsEqualTheListedOnes) {
    const IndexScheme scheme(Material::parse(GetParam()));
    const int count = 2000;
    Paths paths;
    for (const Position& pos : sample_positions(scheme.material(), count, EnPassant::Excluded))
        ASSERT_NO_FATAL_FAILURE(
            check_entry(scheme, entry_at(scheme, scheme.encode(pos), pos.side_to_move()), paths));
    EXPECT_GT(paths.counted, count / 2);
    if (scheme.men() == 4) {
        EXPECT_GT(paths.folded, 0);
    }
}

INSTANTIATE_TEST_SUITE_P(Materials, FirstPassSample,
                         testing::Values("KQvKR", "KRBvKR", "KBBvKN", "KRRvKQ", "KRPvKR", "KPPvKP",
                                         "KQNvKRB"));
