#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <string>

#include "chess/movegen.hpp"
#include "support/oracle.hpp"

using namespace retro;

namespace {

// Leaf nodes at the given depth; at depth 1 the legal moves are counted, not played (bulk counting).
uint64_t perft(const Position& pos, int depth) {
    MoveList moves;
    generate_legal_moves(pos, moves);
    if (depth == 1) return uint64_t(moves.size);
    uint64_t nodes = 0;
    for (const Move& m : moves) nodes += perft(make_move(pos, m), depth - 1);
    return nodes;
}

// To keep the suite fast (under a second), rows with more than this many nodes are skipped; in
// perft.tsv that is three rows: depth 6 of 8/2p5/... (11 million nodes), depth 5 of the middlegame
// position (164 million) and depth 6 of n1n5/PPPk4/... (71 million). Rows up to depth 4 are always
// checked whatever their count (the largest has 3.9 million nodes), so every position is checked to
// depth 4 at least.
constexpr uint64_t MAX_NODES = 5'000'000;

}  // namespace

TEST(Perft, MatchesOracle) {
    const auto rows = test::read_oracle("perft.tsv");
    ASSERT_FALSE(rows.empty());
    std::map<std::string, int> deepest;  // per position, the deepest depth checked
    for (const auto& row : rows) {
        const int depth = std::stoi(row.at("depth"));
        const uint64_t expected = std::stoull(row.at("nodes"));
        if (expected > MAX_NODES && depth > 4) continue;
        const Position pos = Position::from_fen(row.at("fen"));
        EXPECT_EQ(perft(pos, depth), expected) << row.at("fen") << " depth " << depth;
        deepest[row.at("fen")] = std::max(deepest[row.at("fen")], depth);
    }
    for (const auto& [fen, depth] : deepest) EXPECT_GE(depth, 4) << fen;
}

TEST(Perft, FenOfEveryOraclePositionRoundTrips) {
    for (const auto& row : test::read_oracle("perft.tsv")) {
        const Position pos = Position::from_fen(row.at("fen"));
        EXPECT_EQ(Position::from_fen(pos.fen()), pos) << row.at("fen");
    }
}
