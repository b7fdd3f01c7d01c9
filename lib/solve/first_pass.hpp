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

// How quiet_successors tells the distinct entries an entry's quiet moves reach: counted from the
// summary of its moves (attack sets and popcounts, king moves compared only where a symmetry may fold
// them), or listed move by move, the successors of the moves that may meet encoded and compared.
enum class SuccessorPath { Counted, Listed };
struct QuietSuccessors {
    int count;
    SuccessorPath path;  // the one taken
};
// The distinct entries e's quiet moves reach, and its exits in moves.exits. Counted when `path`
// asks for it and the summary can tell (no pinned pawn, and no symmetry that keeps the kings'
// places maps the men nearly onto themselves); listed otherwise. `attacks` are e.pos's.
QuietSuccessors quiet_successors(const IndexScheme& scheme, const Entry& e, const BoardAttacks& attacks,
                                 MoveSummary& moves, SuccessorPath path = SuccessorPath::Counted);

// The counter of a position whose side to move has `quiet` distinct quiet successors. More than
// COUNTER_MAX happen up to 7 men only with four queens and a fifth piece against a bare king, which
// never mates: such a position is never lost, and no count-down reaches it.
state::Code quiet_counter(const Position& pos, int quiet);

}  // namespace retro
