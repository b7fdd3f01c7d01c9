// The sweeps' predecessors of an entry (solve/neighbours.hpp), found as bitboards of origins and
// stepped to indices, against the un-moves themselves: each played back and its position encoded.
// Whole tables and slices of pawn tables, both sides to move.
#include "solve/neighbours.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "index/pawn_slices.hpp"

using namespace retro;

namespace {

// How many entries were checked, how many had both kings on the diagonal, and how many others had a
// king's un-move that needed a symmetry.
struct Coverage {
    int entries = 0, diagonal = 0, reoriented = 0;
};

// predecessors() of `count` random legal entries of `scheme` against their played-back un-moves.
void check_entries(const IndexScheme& scheme, int count, uint32_t seed, Coverage& coverage) {
    std::mt19937_64 rng(seed);
    IndexList found;
    for (int tries = 0; coverage.entries < count && tries < 100 * count; ++tries) {
        Entry e{rng() % scheme.size(), false, {}, {}};
        if (!scheme.decode(e.index, e.placement)) continue;
        e.diagonal = scheme.kings_on_diagonal(e.placement);
        e.pos = scheme.to_position(e.placement);
        e.pos.set_side_to_move(Color(rng() & 1));
        if (!e.pos.illegality().empty()) continue;
        ++coverage.entries;
        coverage.diagonal += e.diagonal;

        MoveList unmoves;
        generate_unmoves(e.pos, unmoves, Unmoves::PiecesOnly);
        std::set<uint64_t> expected;
        bool turned = false;  // a king's un-move needed a symmetry
        for (const Move& u : unmoves) {
            expected.insert(scheme.encode(predecessor(e.pos, u)));
            const int slot = e.placement.slot_of(u.to, scheme.men());
            bool reoriented = false;
            if (slot < 2) scheme.encode_moved(e.index, e.placement, slot, u.from, &reoriented);
            turned |= reoriented && !e.diagonal;
        }
        coverage.reoriented += turned;

        predecessors(scheme, e, found);
        const std::vector<uint64_t> listed(found.items.begin(), found.items.begin() + found.size);
        const std::set<uint64_t> distinct(listed.begin(), listed.end());
        EXPECT_EQ(distinct.size(), listed.size()) << e.pos.fen() << ": a predecessor listed twice";
        EXPECT_EQ(distinct, expected) << e.pos.fen() << " (entry " << e.index << ")";
        if (testing::Test::HasFailure()) return;
    }
}

class PredecessorsTest : public testing::TestWithParam<const char*> {};

TEST_P(PredecessorsTest, AreTheUnmovesPlayedBack) {
    const Material m = Material::parse(GetParam());
    Coverage coverage;
    if (!m.has_pawns()) {
        check_entries(IndexScheme(m), 3000, 71, coverage);
        EXPECT_GT(coverage.diagonal, 20);
    } else {
        const auto configs = pawn_configs(m);
        for (size_t k = 0; k < configs.size(); k += (configs.size() + 7) / 8)
            check_entries(IndexScheme(m, configs[k]), coverage.entries + 300, uint32_t(k), coverage);
    }
    EXPECT_GE(coverage.entries, 2000);
    EXPECT_GT(coverage.reoriented, 100);
}

INSTANTIATE_TEST_SUITE_P(WholeAndSlices, PredecessorsTest,
                         testing::Values("KQvK", "KRvKN", "KBBvK", "KQRvKR", "KRBvKQN", "KNNNvK", "KPvK",
                                         "KRPvKR", "KPPvKP", "KRPPvKP"));

}  // namespace
