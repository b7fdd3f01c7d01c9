// The first pass over a scheme, before any layer is swept: mates and stalemates; captures and
// promotions into sub-tables and pushes into earlier slices (a move into a lost position is a win
// bound, into a drawn one makes the position never lost); for every other entry, the counter of
// distinct quiet successors that the sweeps count down.
#pragma once

#include <optional>

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

// The side to move whose entries without an exit or a check leave their quiet moves uncounted
// (state::UNCOUNTED) until a count-down first reaches them: the side with more material, whose
// entries are mostly won before any of their moves is known to lose. None when a capture of its most
// valuable man would leave the other side a rook or so ahead, or the other side has a pawn to promote:
// then the other side's wins reach it early (KQvKR, KRvKP), and counting an entry late, decoded at
// random, costs about three times counting it here.
std::optional<Color> side_counted_late(const Material& m);

// The counter of entry e (no exits) when the first count-down reaches it, as the first pass counts.
state::Code count_late(const IndexScheme& scheme, const Entry& e);

// The counter of a position whose side to move has `quiet` distinct quiet successors. More than
// COUNTER_MAX happen up to 7 men only with four queens and a fifth piece against a bare king, which
// never mates: such a position is never lost, and no count-down reaches it.
state::Code quiet_counter(const Position& pos, int quiet);

}  // namespace retro
