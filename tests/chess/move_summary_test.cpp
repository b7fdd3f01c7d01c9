// summarize_legal_moves from a board's attacks (BoardAttacks), the solver's first-pass shortcut, and
// the generators of part of the moves against the full list of generate_legal_moves over random
// positions, as perft checks the list itself.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "chess/movegen.hpp"
#include "support/random_positions.hpp"

using namespace retro;
using namespace retro::test;

namespace {

// A move with the flags the summary must get right, for readable comparisons.
std::string describe(const Move& m) {
    return to_uci(m) + (m.capture ? " capture" : "") + (m.en_passant ? " en passant" : "");
}

std::vector<std::string> described(const MoveList& list) {
    std::vector<std::string> out;
    for (const Move& m : list) out.push_back(describe(m));
    std::sort(out.begin(), out.end());
    return out;
}

// When the summary promises to be complete: no en passant right, and no pawn whose removal would
// expose its own king.
bool summary_expected(const Position& pos) {
    const Color us = pos.side_to_move();
    if (pos.ep_square() != NO_SQUARE) return false;
    const Square king = pos.king(us);
    const Bitboard checkers = pos.attackers(king, ~us, pos.occupied());
    for (Bitboard b = pos.pieces(us, PAWN); b;) {
        Position without = pos;
        without.remove(pop_lsb(b));
        if (without.attackers(king, ~us, without.occupied()) != checkers) return false;
    }
    return true;
}

}  // namespace

class MoveSummaryTest : public testing::TestWithParam<const char*> {};

// One board's attacks summarize the moves of both sides to move: the side the position gives, and
// the other one where that is legal (the side then not to move is not in check).
TEST_P(MoveSummaryTest, MatchesTheClassifiedMoveList) {
    const Material m = Material::parse(GetParam());
    const int count = 3000;
    int summarized = 0, in_check = 0, other_side = 0;
    for (const Position& sampled : sample_positions(m, count, EnPassant::Included)) {
        const BoardAttacks attacks(sampled);
        for (Color c : {WHITE, BLACK}) ASSERT_EQ(attacks.in_check(c), sampled.in_check(c)) << sampled.fen();
        Position pos = sampled;
        for (int turn = 0; turn < 2; ++turn, pos.set_side_to_move(~pos.side_to_move())) {
            if (!pos.illegality().empty()) continue;
            MoveSummary summary;
            const bool complete = summarize_legal_moves(pos, attacks, summary);
            ASSERT_EQ(complete, summary_expected(pos)) << pos.fen();
            if (!complete) continue;
            ++summarized;
            other_side += turn;
            in_check += pos.in_check(pos.side_to_move());
            MoveSummary expected;
            list_legal_moves(pos, expected);
            ASSERT_EQ(described(summary.exits), described(expected.exits)) << pos.fen();
            ASSERT_EQ(summary.king_targets, expected.king_targets) << pos.fen();
            ASSERT_EQ(summary.pieces, expected.pieces) << pos.fen();
            for (int i = 0; i < summary.pieces; ++i)
                ASSERT_EQ(summary.quiet_targets(summary.piece_targets[size_t(i)].from,
                                                pos.king(pos.side_to_move())),
                          expected.quiet_targets(summary.piece_targets[size_t(i)].from,
                                                 pos.king(pos.side_to_move())))
                    << pos.fen();
        }
    }
    // Most positions are summarized (the rest have a pinned pawn or en passant), in check too, and
    // many with the other side to move.
    EXPECT_GT(summarized, count / 2);
    EXPECT_GT(other_side, count / 4);
    EXPECT_GT(in_check, 0);
}

// The generators of part of the moves list exactly that part of generate_legal_moves's list, in its
// order: the exits (captures and promotions), and the captures and pawn moves.
TEST_P(MoveSummaryTest, PartialGeneratorsListTheirPartOfTheMoveList) {
    const Material m = Material::parse(GetParam());
    const struct {
        void (*generate)(const Position&, MoveList&);
        bool (*belongs)(const Position&, const Move&);
    } parts[] = {
        {generate_legal_exits,
         [](const Position&, const Move& move) { return move.capture || move.promotion != NO_PIECE_TYPE; }},
        {generate_legal_captures_and_pawn_moves,
         [](const Position& pos, const Move& move) {
             return move.capture || pos.type_on(move.from) == PAWN;
         }},
    };
    for (const auto& part : parts) {
        int listed = 0;
        for (const Position& pos : sample_positions(m, 3000, EnPassant::Included)) {
            MoveList all, generated, expected;
            generate_legal_moves(pos, all);
            for (const Move& move : all)
                if (part.belongs(pos, move)) expected.push(move);
            part.generate(pos, generated);
            ASSERT_EQ(described(generated), described(expected)) << pos.fen();
            listed += generated.size > 0;
        }
        EXPECT_GT(listed, 100);  // the comparison was not between empty lists only
    }
}

INSTANTIATE_TEST_SUITE_P(FastPath, MoveSummaryTest,
                         testing::Values("KQvK", "KPvK", "KRvKB", "KPvKP", "KQRvKR", "KRPvKP", "KBNvKQ",
                                         "KRBvKQN", "KPPvKPP", "KQPvKRP"));
