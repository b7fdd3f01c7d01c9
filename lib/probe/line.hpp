// Perfect play from the tables: the best move of a position and the whole line to mate.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "probe/tablebase.hpp"

namespace retro {

// "win in 19 plies (mate in 10)", "loss in 18 plies (mated in 9)", "checkmated", "draw".
std::string describe_long(Dtm v);

// The mate distance in moves as UCI's "score mate": positive when the side to move wins.
int mate_in_moves(Dtm v);

struct ScoredMove {
    Move move;
    Dtm value;  // for the side to move before the move: win n means this move mates in n plies
};

// Every legal move with its value, best first: the quickest win, then draws, then the longest
// resistance; equally good moves in UCI order ("a1a2" before "b1b2"), so the order never depends on
// move generation order. Empty when the side to move has no legal move. Throws ProbeError when a
// table is missing.
std::vector<ScoredMove> ranked_moves(const Tablebase& tables, const Position& pos);

// The best move by the tables: the first of ranked_moves. Empty when the side to move has no legal
// move. Throws ProbeError when a table is missing.
std::optional<ScoredMove> best_move(const Tablebase& tables, const Position& pos);

struct Line {
    enum class End {
        Checkmate,  // the line ends in checkmate (also: the start position is checkmate)
        Stalemate,  // the start position is stalemate
        Draw,       // the position is a draw: no line to mate
        Stopped,    // stopped early: missing table or tables that contradict themselves (see note)
    };
    Dtm value = DTM_DRAW;     // value of the start position for its side to move
    std::vector<Move> moves;  // the line to mate, value plies long when complete
    End end = End::Draw;
    std::string note;  // why the line stopped, or a remark for draws
};

// The line to mate from pos: each side plays best_move, so the winner picks the quickest mate and the
// loser the longest resistance. Stops at mate, and at the latest after the start's DTM plies (a
// guard against loops). For a draw, no moves and a note. Throws ProbeError only when the start
// position itself cannot be probed; a missing table later on stops the line with a note.
Line line_to_mate(const Tablebase& tables, const Position& pos);

}  // namespace retro
