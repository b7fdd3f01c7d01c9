// The first pass over a scheme, before any layer is swept: mates and stalemates; captures and
// promotions into sub-tables and pushes into earlier slices (a move into a lost position is a win
// bound, into a drawn one makes the position never lost); for every other entry, the counter of
// distinct quiet successors that the sweeps count down.
#pragma once

#include "chess/movegen.hpp"
#include "solve/scheme_context.hpp"

namespace retro {

// Allocates c.state's codes (and c.survey when the options ask for one) and fills them. Stops early,
// leaving blocks unvisited, once a stop is requested.
void first_pass(SchemeContext& c);

// How quiet_successors gathers an entry's moves: summarized from the board's attacks (attack sets
// per man), or listed move by move, which any position allows (a pinned pawn, en passant).
enum class SuccessorPath { Counted, Listed };
struct QuietSuccessors {
    int count;
    SuccessorPath path;  // the one taken
};
// The distinct entries e's quiet moves reach, and its exits in moves.exits (moves empty before).
// Summarized when `path` asks for it and the summary can tell (no pinned pawn), listed otherwise.
// Moves that meet, through the symmetry that keeps the other king, count once. `attacks` are e.pos's.
QuietSuccessors quiet_successors(const IndexScheme& scheme, const Entry& e, const BoardAttacks& attacks,
                                 MoveSummary& moves, SuccessorPath path = SuccessorPath::Counted);

// The counter of a position whose side to move has `quiet` distinct quiet successors. More than
// COUNTER_MAX happen up to 7 men only with four queens and a fifth piece against a bare king, which
// never mates: such a position is never lost, and no count-down reaches it.
state::Code quiet_counter(const Position& pos, int quiet);

}  // namespace retro
