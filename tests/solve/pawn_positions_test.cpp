// Positions where pawns decide: wins only an underpromotion brings (a queen would stalemate), en
// passant rights that change the value, double pushes spoiled by en passant, and impossible en
// passant squares.
//
// The values were read from the solved tables. So that the test is not circular, each is checked
// against something else too: stalemates and mates by the rules alone, capture values from the 3-man
// tables (checked exactly against the oracle in oracle_test.cpp), and for every win or loss the
// line of best moves, which must lose exactly one ply per move and end in a checkmate under the rules
// after exactly that many plies.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "chess/movegen.hpp"
#include "probe/successors.hpp"
#include "support/solved_tables.hpp"

using namespace retro;

namespace {

Position fen(const std::string& text) { return Position::from_fen(text); }

Move find_move(const Position& pos, const std::string& uci) {
    MoveList moves;
    generate_legal_moves(pos, moves);
    for (const Move& m : moves)
        if (to_uci(m) == uci) return m;
    ADD_FAILURE() << uci << " is not a legal move in " << pos.fen();
    return moves.moves[0];
}

Position after(const Position& pos, const std::string& uci) { return make_move(pos, find_move(pos, uci)); }

bool stalemated(const Position& pos) { return !pos.in_check(pos.side_to_move()) && !has_legal_move(pos); }
bool checkmated(const Position& pos) { return pos.in_check(pos.side_to_move()) && !has_legal_move(pos); }

// The value of `uci` for the mover, as rank_moves gives it.
Dtm move_value(const Tablebase& tb, const Position& pos, const std::string& uci) {
    for (const auto& [m, v] : tb.rank_moves(pos))
        if (to_uci(m) == uci) return v;
    ADD_FAILURE() << uci << " is not a legal move in " << pos.fen();
    return DTM_DRAW;
}

// Plays the best move n times from a position worth a win or loss in n plies: each move's successor
// is worth exactly one ply less (to the other side), no move is worth more than the position, and
// after n plies the side to move is checkmated.
void expect_line_to_mate(const Tablebase& tb, Position pos) {
    const Dtm value = tb.probe(pos);
    ASSERT_FALSE(is_draw(value)) << pos.fen();
    const std::string start = pos.fen();
    for (int n = value; n > 0; --n) {
        const auto ranked = tb.rank_moves(pos);
        ASSERT_FALSE(ranked.empty()) << "no move at " << pos.fen() << ", " << n << " plies before mate";
        ASSERT_EQ(int(ranked[0].second), n) << pos.fen() << " on the line from " << start;
        pos = make_move(pos, ranked[0].first);
        ASSERT_EQ(int(tb.probe(pos)), n - 1) << pos.fen() << " on the line from " << start;
    }
    EXPECT_TRUE(checkmated(pos)) << pos.fen() << " ends the line from " << start;
}

// The moves of pos that win for the mover.
std::vector<std::string> winning_moves(const Tablebase& tb, const Position& pos) {
    std::vector<std::string> out;
    for (const auto& [m, v] : tb.rank_moves(pos))
        if (is_win(v)) out.push_back(to_uci(m));
    return out;
}

}  // namespace

// KPvK: c8=Q stalemates the king on a7, c8=B and c8=N leave a lone minor piece; only c8=R wins.
TEST(PawnPositions, OnlyARookPromotionWinsInKPvK) {
    const Tablebase& tb = retro::test::solved_tables({"KPvK"});
    const Position pos = fen("8/k1P5/8/K7/8/8/8/8 w - - 0 1");
    EXPECT_EQ(tb.probe(pos), 11);
    EXPECT_EQ(winning_moves(tb, pos), std::vector<std::string>{"c7c8r"});
    EXPECT_EQ(to_uci(tb.rank_moves(pos)[0].first), "c7c8r");

    EXPECT_TRUE(stalemated(after(pos, "c7c8q")));  // by the rules: a7 has no square left
    EXPECT_EQ(move_value(tb, pos, "c7c8q"), DTM_DRAW);
    EXPECT_EQ(move_value(tb, pos, "c7c8b"), DTM_DRAW);  // KBvK and KNvK cannot mate
    EXPECT_EQ(move_value(tb, pos, "c7c8n"), DTM_DRAW);
    EXPECT_EQ(tb.probe(after(pos, "c7c8r")), 10);
    expect_line_to_mate(tb, pos);
}

// Saavedra's study (1895), probed with colours swapped in KRvKP: 1.c7 is the only win (in 51 plies);
// after 1...Rd6+ 2.Kb5 Rd5+ 3.Kb4 Rd4+ 4.Kb3 Rd3+ 5.Kc2 Rd4, 6.c8=Q is met by Rc4+ 7.Qxc4 stalemate,
// while 6.c8=R wins in 13 plies.
TEST(PawnPositions, SaavedraRookPromotion) {
    const Tablebase& tb = retro::test::solved_tables({"KRvKP"});
    const Position start = fen("8/8/1KP5/3r4/8/8/8/k7 w - - 0 1");
    EXPECT_EQ(tb.probe(start), 51);
    EXPECT_EQ(winning_moves(tb, start), std::vector<std::string>{"c6c7"});

    Position pos = start;
    for (const char* m : {"c6c7", "d5d6", "b6b5", "d6d5", "b5b4", "d5d4", "b4b3", "d4d3", "b3c2", "d3d4"})
        pos = after(pos, m);
    ASSERT_EQ(pos.fen(), "8/2P5/8/8/3r4/8/2K5/k7 w - - 0 1");
    EXPECT_EQ(tb.probe(pos), 13);
    EXPECT_EQ(to_uci(tb.rank_moves(pos)[0].first), "c7c8r");
    EXPECT_EQ(move_value(tb, pos, "c7c8r"), 13);
    EXPECT_EQ(move_value(tb, pos, "c7c8q"), DTM_DRAW);

    // After 6.c8=Q Rc4+ taking the rook stalemates, and White has nothing better.
    const Position check = after(after(pos, "c7c8q"), "d4c4");
    EXPECT_TRUE(stalemated(after(check, "c8c4")));
    EXPECT_EQ(tb.probe(check), DTM_DRAW);
    for (const auto& [m, v] : tb.rank_moves(check)) EXPECT_FALSE(is_win(v)) << to_uci(m);

    expect_line_to_mate(tb, pos);
}

// KBPvK with a dark-squared bishop on g1 (it guards a7 and b6): b8=Q and b8=R stalemate, b8=B gives
// two bishops on dark squares; b8=N gives KBNvK, won in 51 plies.
TEST(PawnPositions, OnlyAKnightPromotionWinsInKBPvK) {
    const Tablebase& tb = retro::test::solved_tables({"KBPvK"});
    const Position pos = fen("8/1P6/k7/8/K7/8/8/6B1 w - - 0 1");
    EXPECT_EQ(tb.probe(pos), 51);
    EXPECT_EQ(winning_moves(tb, pos), std::vector<std::string>{"b7b8n"});

    EXPECT_TRUE(stalemated(after(pos, "b7b8q")));
    EXPECT_EQ(move_value(tb, pos, "b7b8q"), DTM_DRAW);
    EXPECT_EQ(move_value(tb, pos, "b7b8b"), DTM_DRAW);
    EXPECT_TRUE(stalemated(after(pos, "b7b8r")));
    EXPECT_EQ(move_value(tb, pos, "b7b8r"), DTM_DRAW);
    expect_line_to_mate(tb, pos);
}

// KPvKP, both ways round: rights that change the value, and double pushes spoiled by en passant.
// One test, so that ctest solves KPvKP and its sub-tables once.
TEST(PawnPositions, EnPassant) {
    const Tablebase& tb = retro::test::solved_tables({"KPvKP"});

    // Black to move after b2-b4: axb3 e.p. leaves White stalemated; without the right Black loses.
    {
        const Position with = fen("8/8/8/8/pP6/8/8/K1k5 b - b3 0 1");
        const Position without = fen("8/8/8/8/pP6/8/8/K1k5 b - - 0 1");
        EXPECT_TRUE(has_legal_ep_capture(with));
        EXPECT_TRUE(stalemated(after(with, "a4b3")));
        EXPECT_EQ(tb.probe(with), DTM_DRAW);
        EXPECT_EQ(tb.probe(without), 30);
        EXPECT_EQ(move_value(tb, with, "a4b3"), DTM_DRAW);
        for (const auto& [m, v] : tb.rank_moves(without)) EXPECT_TRUE(is_loss(v)) << to_uci(m);
        expect_line_to_mate(tb, without);
    }
    // White to move after b7-b5: axb6 e.p. wins (the pawn runs, KPvK); without it White loses.
    {
        const Position with = fen("8/8/8/Pp6/8/8/2k5/K7 w - b6 0 1");
        const Position without = fen("8/8/8/Pp6/8/8/2k5/K7 w - - 0 1");
        EXPECT_EQ(tb.probe(with), 23);
        EXPECT_EQ(tb.probe(without), 28);
        EXPECT_EQ(to_uci(tb.rank_moves(with)[0].first), "a5b6");
        const Position captured = after(with, "a5b6");
        EXPECT_EQ(Material::of(captured).name(), "KPvK");
        EXPECT_EQ(tb.probe(captured), 22);  // from the 3-man table
        expect_line_to_mate(tb, with);
        expect_line_to_mate(tb, without);
    }
    // Black to move after e2-e4: dxe3 e.p. wins; without the right it is a draw.
    {
        const Position with = fen("8/8/8/8/3pP3/8/8/K6k b - e3 0 1");
        EXPECT_EQ(tb.probe(with), 23);
        EXPECT_EQ(tb.probe(fen("8/8/8/8/3pP3/8/8/K6k b - - 0 1")), DTM_DRAW);
        EXPECT_EQ(tb.probe(after(with, "d4e3")), 22);
        expect_line_to_mate(tb, with);
    }
    // The verifier's one-ply search takes an en passant capture out of the table, to the capture's
    // sub-table, like every other capture.
    {
        const auto kpkp = tb.find(Material::parse("KPvKP"));
        ASSERT_TRUE(kpkp);
        const Successors successors(*kpkp, tb);
        for (const char* with : {"8/8/8/8/pP6/8/8/K1k5 b - b3 0 1", "8/8/8/Pp6/8/8/2k5/K7 w - b6 0 1",
                                 "8/8/8/8/3pP3/8/8/K6k b - e3 0 1"})
            EXPECT_EQ(successors.expected(fen(with)), tb.probe(fen(with))) << with;
    }
    // A plausible en passant square that no pawn can use changes nothing.
    {
        const Position with = fen("8/8/8/8/1P5p/8/8/K1k5 b - b3 0 1");
        EXPECT_FALSE(has_legal_ep_capture(with));
        EXPECT_EQ(tb.probe(with), tb.probe(fen("8/8/8/8/1P5p/8/8/K1k5 b - - 0 1")));
    }

    // The solver's en passant edges. White: b2-b4 would reach the first position above, lost for
    // Black in 30 plies without the right, so it would win in 31; but it grants axb3 e.p., which
    // stalemates White. The stored value must be a draw (as the other moves give), not a win in 31.
    {
        const Position pos = fen("8/8/8/8/p7/8/1P6/K1k5 w - - 0 1");
        const Position pushed = after(pos, "b2b4");
        EXPECT_EQ(pushed.fen(), "8/8/8/8/pP6/8/8/K1k5 b - b3 0 1");
        Position no_right = pushed;
        no_right.set_ep_square(NO_SQUARE);
        EXPECT_EQ(tb.probe(no_right), 30);
        EXPECT_EQ(move_value(tb, pos, "b2b4"), DTM_DRAW);
        EXPECT_EQ(tb.probe(pos), DTM_DRAW);
        EXPECT_TRUE(winning_moves(tb, pos).empty());
    }
    // Black: b7-b5 would win in 29 plies without the right (White, to move, lost in 28), but it
    // reaches the en passant position above, where axb6 e.p. wins for White: b7-b5 loses in 24.
    {
        const Position pos = fen("8/1p6/8/P7/8/8/2k5/K7 b - - 0 1");
        const Position pushed = after(pos, "b7b5");
        EXPECT_EQ(pushed.fen(), "8/8/8/Pp6/8/8/2k5/K7 w - b6 0 1");
        Position no_right = pushed;
        no_right.set_ep_square(NO_SQUARE);
        EXPECT_EQ(tb.probe(no_right), 28);
        EXPECT_EQ(tb.probe(pushed), 23);
        EXPECT_EQ(tb.probe(after(pushed, "a5b6")), 22);  // KPvK
        EXPECT_EQ(move_value(tb, pos, "b7b5"), 24);
        EXPECT_EQ(tb.probe(pos), DTM_DRAW);
        EXPECT_TRUE(winning_moves(tb, pos).empty());
    }
}

// Black to move after d2-d4 in KQPvKP: without the right Black would be stalemated, so the
// capture cxd3 e.p. is forced, and it loses (KQvKP). The value is that of the capture alone, not
// the better of it and the stalemate; the table without the right is not even needed.
TEST(PawnPositions, AForcedEnPassantCaptureIsNoStalemate) {
    const Tablebase& tb = retro::test::solved_tables({"KQvKP"});
    const Position with = fen("k7/8/1Q6/8/2pP4/2K5/8/8 b - d3 0 1");
    Position without = with;
    without.set_ep_square(NO_SQUARE);
    EXPECT_TRUE(stalemated(without));
    ASSERT_EQ(tb.rank_moves(with).size(), 1u);
    const Position captured = after(with, "c4d3");
    EXPECT_EQ(Material::of(captured).name(), "KQvKP");
    const Dtm capture = tb.probe(captured);
    ASSERT_TRUE(is_win(capture));
    EXPECT_EQ(tb.probe(with), value_through(capture));
    expect_line_to_mate(tb, with);
}

// Black to move in KRvKP, its king boxed in: its only moves are the pawn's two pushes, each leaving
// the slice and each lost. The first pass decides such a position at once, lost in one ply more than
// the longer of those wins: no quiet move will ever report to it.
TEST(PawnPositions, APositionWhoseEveryMoveLeavesTheSliceAndLosesIsLost) {
    const Tablebase& tb = retro::test::solved_tables({"KRvKP"});
    const Position pos = fen("k7/p1K5/8/8/8/8/8/1R6 b - - 0 1");
    EXPECT_FALSE(pos.in_check(BLACK));
    MoveList moves;
    generate_legal_moves(pos, moves);
    std::vector<std::string> played;
    for (const Move& m : moves) played.push_back(to_uci(m));
    std::sort(played.begin(), played.end());
    EXPECT_EQ(played, (std::vector<std::string>{"a7a5", "a7a6"}));
    const Dtm single = tb.probe(after(pos, "a7a6")), twice = tb.probe(after(pos, "a7a5"));
    ASSERT_TRUE(is_win(single));
    ASSERT_TRUE(is_win(twice));
    EXPECT_EQ(tb.probe(pos), value_through(std::max(single, twice)));
    expect_line_to_mate(tb, pos);
}

TEST(PawnPositions, ImpossibleEnPassantSquaresAreRejected) {
    for (const char* bad : {
             "8/8/8/8/pP6/8/8/K1k5 b - b6 0 1",   // wrong rank for Black to move
             "8/8/8/8/pP6/8/8/K1k5 b - a3 0 1",   // no white pawn on a4
             "8/8/8/8/pP6/8/1K6/3k4 b - b3 0 1",  // b2, which the pawn passed, is occupied
             "8/8/8/8/pP6/2k5/8/K7 b - b3 0 1",   // before b2-b4 Black was in check from b2
             "8/8/8/Pp6/8/8/2k5/K7 w - a6 0 1",   // no black pawn on a5
         }) {
        try {
            Position::from_fen(bad);
            ADD_FAILURE() << "accepted " << bad;
        } catch (const PositionError& e) {
            EXPECT_NE(std::string(e.what()).find("en passant square"), std::string::npos)
                << bad << ": " << e.what();
        }
    }
}
