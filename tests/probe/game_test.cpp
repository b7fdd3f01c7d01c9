#include "probe/game.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "support/probe_test_tables.hpp"

using namespace retro;
using retro::testing::three_man_tables;

namespace {

struct Played {
    GameResult result;
    std::string out;
};

Played play(const std::string& fen, Color human, const std::string& input) {
    std::istringstream in(input);
    std::ostringstream out;
    const GameResult r = play_game(three_man_tables(), Position::from_fen(fen), human, in, out);
    return {r, out.str()};
}

bool contains(const std::string& haystack, const std::string& needle) {
    return haystack.find(needle) != std::string::npos;
}

}  // namespace

TEST(ProbeGame, IllegalMoveRefusedThenLegalAccepted) {
    const Played p = play("8/8/8/4k3/8/8/8/4K2Q w - - 0 1", WHITE, "Qh9\nKd3\nQc6\nquit\n");
    EXPECT_EQ(p.result, GameResult::Quit);
    EXPECT_TRUE(contains(p.out, "Illegal move: 'Qh9' is neither SAN")) << p.out;
    EXPECT_TRUE(contains(p.out, "Illegal move: Kd3: the white king on e1 cannot move to d3")) << p.out;
    EXPECT_TRUE(contains(p.out, "You play 1. Qc6 (h1c6)")) << p.out;
    EXPECT_TRUE(contains(p.out, "I play 1... Kd4 (e5d4)")) << p.out;
    EXPECT_TRUE(contains(p.out, "Black to move (me): loss in 12 plies (mated in 6)")) << p.out;
    EXPECT_TRUE(contains(p.out, "White to move (you): win in 11 plies (mate in 6)")) << p.out;
    EXPECT_TRUE(contains(p.out, "  8  . . . . . . . .\n")) << p.out;
    EXPECT_TRUE(contains(p.out, "     a b c d e f g h\n")) << p.out;
    EXPECT_TRUE(contains(p.out, "Game abandoned.")) << p.out;
}

TEST(ProbeGame, ProgramMatesTheUser) {
    // Mate in one for White, the tables play White: the user, Black, is mated at once.
    const Played p = play("k7/8/1K6/8/8/8/8/6Q1 w - - 0 1", BLACK, "");
    EXPECT_EQ(p.result, GameResult::WhiteWins) << p.out;
    EXPECT_TRUE(contains(p.out, "I play 1. Qg8# (g1g8)")) << p.out;
    EXPECT_TRUE(contains(p.out, "Game over: checkmate, White wins.")) << p.out;
}

TEST(ProbeGame, UserMatesAndCommands) {
    const Played p =
        play("k7/8/1K6/8/8/8/8/6Q1 w - - 0 1", WHITE, "help\nhint\nmoves\nline\nfen\nboard\ng1g8\n");
    EXPECT_EQ(p.result, GameResult::WhiteWins) << p.out;
    EXPECT_TRUE(contains(p.out, "undo")) << p.out;
    EXPECT_TRUE(contains(p.out, "Hint: Qg8# (g1g8), win in 1 ply (mate in 1)")) << p.out;
    EXPECT_TRUE(contains(p.out, "Legal moves: ")) << p.out;
    EXPECT_TRUE(contains(p.out, "Line to mate: 1. Qg8#")) << p.out;
    EXPECT_TRUE(contains(p.out, "k7/8/1K6/8/8/8/8/6Q1 w - - 0 1")) << p.out;
    EXPECT_TRUE(contains(p.out, "Game over: checkmate, White wins.")) << p.out;
}

TEST(ProbeGame, UndoTakesBackAPairOfPlies) {
    const Played p = play("8/8/8/4k3/8/8/8/4K2Q w - - 0 1", WHITE, "undo\nQc6\nundo\nfen\nquit\n");
    EXPECT_TRUE(contains(p.out, "Nothing to undo")) << p.out;
    EXPECT_TRUE(contains(p.out, "Taking back 2 plies.")) << p.out;
    EXPECT_TRUE(contains(p.out, "Taking back 2 plies.\n\n  8  . . . . . . . .")) << p.out;
    const auto after_undo = p.out.rfind("Taking back");
    EXPECT_NE(p.out.find("8/8/8/4k3/8/8/8/4K2Q w - - 0 1", after_undo), std::string::npos) << p.out;
}

TEST(ProbeGame, DrawsEndTheGame) {
    // The user's queen is taken: insufficient material.
    const Played taken = play("8/8/8/4k3/8/8/8/4K2Q w - - 0 1", WHITE, "Ke2\nQc6+\n");
    EXPECT_EQ(taken.result, GameResult::Draw) << taken.out;
    EXPECT_TRUE(contains(taken.out, "I play 2... Kxc6")) << taken.out;
    EXPECT_TRUE(contains(taken.out, "Game over: a draw by insufficient material.")) << taken.out;
    // The user stalemates.
    const Played stalemate = play("k7/8/2K5/8/8/8/8/1Q6 w - - 0 1", WHITE, "Qb6\n");
    EXPECT_EQ(stalemate.result, GameResult::Draw) << stalemate.out;
    EXPECT_TRUE(contains(stalemate.out, "Game over: stalemate, a draw.")) << stalemate.out;
    // End of input.
    EXPECT_EQ(play("8/8/8/4k3/8/8/8/4K2Q w - - 0 1", WHITE, "").result, GameResult::Quit);
}

TEST(ProbeGame, PositionNotInTables) {
    const Played p = play("8/8/8/4k3/8/8/8/4KB1Q w - - 0 1", WHITE, "");
    EXPECT_EQ(p.result, GameResult::Stopped);
    EXPECT_TRUE(contains(p.out, "not in the tables: no table for KQBvK")) << p.out;
}

TEST(ProbeGame, GameEnds) {
    auto reason = [](const std::string& fen) { return game_end(Position::from_fen(fen)).reason(); };
    EXPECT_EQ(reason("k7/1Q6/1K6/8/8/8/8/8 b - - 0 1"), "checkmate, White wins");
    EXPECT_EQ(reason("8/8/8/4k3/8/8/8/4KB2 w - - 0 1"), "a draw by insufficient material");
    EXPECT_EQ(reason("8/8/8/4k3/8/8/b7/4KB2 w - - 0 1"),
              "a draw by insufficient material");  // bishops on squares of one colour
    EXPECT_EQ(reason("8/8/8/4k3/8/b7/8/4KB2 w - - 0 1"), "");
    EXPECT_EQ(reason("8/8/8/4k3/8/8/8/4KN1N w - - 0 1"), "");
    const Position p = Position::from_fen("8/8/8/4k3/8/8/8/4K2Q w - - 0 1");
    EXPECT_FALSE(game_end(p, {p}).over());
    EXPECT_EQ(game_end(p, {p, Position::from_fen("8/8/8/4k3/8/8/8/4K2Q b - - 0 1"), p}).reason(),
              "a draw by threefold repetition");
}

// Who won follows from the kind of ending and the side mated, not from the words.
TEST(ProbeGame, ResultsOfTheEnds) {
    const GameEnd white_mated = game_end(Position::from_fen("K7/1q6/1k6/8/8/8/8/8 w - - 0 1"));
    EXPECT_EQ(white_mated.kind, GameEnd::Kind::Checkmate);
    EXPECT_EQ(white_mated.mated, WHITE);
    EXPECT_EQ(white_mated.result(), GameResult::BlackWins);
    EXPECT_EQ(white_mated.reason(), "checkmate, Black wins");
    const GameEnd black_mated = game_end(Position::from_fen("k7/1Q6/1K6/8/8/8/8/8 b - - 0 1"));
    EXPECT_EQ(black_mated.result(), GameResult::WhiteWins);
    const GameEnd stalemate = game_end(Position::from_fen("k7/8/1QK5/8/8/8/8/8 b - - 0 1"));
    EXPECT_EQ(stalemate.kind, GameEnd::Kind::Stalemate);
    EXPECT_EQ(stalemate.result(), GameResult::Draw);
    EXPECT_EQ(stalemate.reason(), "stalemate, a draw");
}
