#include "solve/first_pass.hpp"

#include <cassert>
#include <optional>
#include <string>

#include "chess/movegen.hpp"
#include "index/board_walk.hpp"
#include "index/index_cursor.hpp"
#include "index/symmetry.hpp"
#include "parallel/shared_progress.hpp"
#include "solve/entry_exits.hpp"
#include "solve/neighbours.hpp"

namespace retro {

namespace {

using namespace state;

// How many distinct entries the quiet moves reach. Moves of men other than kings keep the
// orientation and reach distinct entries; only king moves need their indices compared, and all
// moves when a king move re-orients onto the same king pair or the kings share the diagonal.
int distinct_successors(const IndexScheme& scheme, const Entry& e, const MoveList& quiet) {
    const Bitboard kings = e.pos.pieces(KING);
    bool compare_all = e.diagonal;
    for (const Move& m : quiet)
        if (!compare_all && (kings & square_bb(m.from)))
            compare_all = scheme.king_move_returns_to_pair(e.placement, e.placement.slot_of(m.from, 2), m.to);
    IndexList compared;
    int others = 0;
    for (const Move& m : quiet) {
        if (compare_all || (kings & square_bb(m.from)))
            add_moved(scheme, compared, e, m.from, m.to);
        else
            ++others;
    }
    return compared.size + others;
}

// How many of the king's quiet moves (to `targets`) reach the entry of another of them: none unless
// symmetry s maps every other man onto a like man; then each pair of targets that s swaps counts once.
int king_moves_met(const Position& pos, Bitboard targets, Symmetry s) {
    if (more_men_off_symmetry(pos, s, 1)) return 0;  // the king is off s's diagonal, so one is the king
    // The targets whose image is another target.
    int swapped = 0;
    for (Bitboard t = targets; t;) {
        const Square x = pop_lsb(t), y = apply_symmetry(s, x);
        swapped += y != x && (targets & square_bb(y));
    }
    return swapped / 2;
}

// Two quiet moves reach one entry only through a symmetry s that maps the position after one onto
// the position after the other. Each move changes two (man, square) pairs, so the position and its
// image under s then differ in at most four: at most two men are off s. Past that, every quiet move
// reaches an entry of its own.
bool moves_may_meet_through(const Position& pos, Symmetry s) { return !more_men_off_symmetry(pos, s, 2); }

// The distinct entries the quiet moves of a summary reach, or -1 when the moves must be listed to
// tell: a symmetry that keeps the kings' places may fold them, and the men are nearly symmetric.
int quick_quiet_count(const IndexScheme& scheme, const Entry& e, const MoveSummary& moves) {
    const int quiet = moves.quiet_piece_moves + popcount(moves.king_targets);
    if (scheme.has_pawns()) return quiet;  // the mirror keeps no square, so no king in place
    // Both kings on the a1-h8 diagonal: the transpose keeps them and may fold any two moves.
    if (e.diagonal) return moves_may_meet_through(e.pos, TRANSPOSE) ? -1 : quiet;
    // Otherwise a king move meets another quiet move's entry only through a symmetry that fixes the
    // other king: the transpose or anti-transpose with that king on its diagonal.
    if (!moves.king_targets) return quiet;
    const Color side = e.pos.side_to_move();
    const Square other = e.pos.king(~side);
    const Symmetry fixing = file_of(other) == rank_of(other)       ? TRANSPOSE
                            : file_of(other) == 7 - rank_of(other) ? ANTI_TRANSPOSE
                                                                   : IDENTITY;
    if (fixing == IDENTITY || !moves_may_meet_through(e.pos, fixing)) return quiet;
    const int king_slot = side == WHITE ? 0 : 1;
    for (Bitboard t = moves.king_targets; t;)
        if (scheme.king_move_returns_to_pair(e.placement, king_slot, pop_lsb(t))) return -1;
    return quiet - king_moves_met(e.pos, moves.king_targets, fixing);
}

// Generates the moves one by one into `exits` (emptied first); returns the number of distinct
// entries the other (quiet) moves reach.
int listed_quiet_count(const IndexScheme& scheme, const Entry& e, MoveList& exits) {
    MoveList all, quiet;
    generate_legal_moves(e.pos, all);
    exits.size = 0;
    for (const Move& m : all) {
        if (leaves_scheme(e, m))
            exits.push(m);
        else
            quiet.push(m);
    }
    return distinct_successors(scheme, e, quiet);
}

// Entry e's code from its moves: a mate, a stalemate, a counter of its quiet successors, or what its
// exits (captures, promotions, pushes) make of it.
Code first_code(SchemeContext& c, const Entry& e, const BoardAttacks& attacks, RunExits* run) {
    const Color side = e.pos.side_to_move();
    MoveSummary moves;
    const int quiet = quiet_successors(c.scheme, e, attacks, moves).count;
    if (quiet + moves.exits.size == 0)
        return attacks.in_check(side) ? c.decided(side, e.index, 0, 0) : NEVER_LOST;  // mate or stalemate
    if (moves.exits.size) c.mark_exits(side, e.index);
    const Code counter = quiet_counter(e.pos, quiet);
    return take_exits(c, e, moves.exits, counter, run);
}

}  // namespace

void first_pass(SchemeContext& c) {
    const IndexScheme& scheme = c.scheme;
    c.state = blank_sweep_state(c.owned.size());
    if (c.options.survey_exits) c.survey = empty_survey(c.owned.size());
    par::SharedProgress examined(c.options.control.teller(Control::Count::FirstPassEntries),
                                 2 * c.owned.size());
    // Both sides to move in one walk: each entry is placed, and its men's attacks looked up, once.
    c.for_each_block([&](uint64_t first, uint64_t last) {
        BoardWalk walk(scheme);
        std::optional<RunExits> run;  // none when no man moves alone (a slice of kings and pawns)
        if (walk.stepping_slot() >= 0) run.emplace(c.exits, walk.stepping_slot());
        for (IndexCursor cursor(scheme, first); cursor.index() < last; cursor.next()) {
            if (!cursor.valid()) continue;
            const Placement& p = cursor.placement();
            if (walk.place(p) == BoardWalk::Placed::NewRun && run) run->new_run();
            Entry e{cursor.index(), scheme.kings_on_diagonal(p), p, walk.board()};
            const BoardAttacks& attacks = walk.attacks();
            for (Color side : {WHITE, BLACK}) {
                if (attacks.in_check(~side)) continue;  // not an entry of `side` to move
                e.pos.set_side_to_move(side);
                c.mark_legal(side, e.index);
                c.code(side, e.index) = first_code(c, e, attacks, run ? &*run : nullptr);
            }
        }
        examined.add(2 * (last - first));
    });
    if (!c.stop_requested()) examined.finish();
}

QuietSuccessors quiet_successors(const IndexScheme& scheme, const Entry& e, const BoardAttacks& attacks,
                                 MoveSummary& moves, SuccessorPath path) {
    if (path == SuccessorPath::Counted && summarize_legal_moves(e.pos, attacks, moves)) {
        const int quiet = quick_quiet_count(scheme, e, moves);
        if (quiet >= 0) return {quiet, SuccessorPath::Counted};
    }
    return {listed_quiet_count(scheme, e, moves.exits), SuccessorPath::Listed};
}

state::Code quiet_counter(const Position& pos, int quiet) {
    assert(quiet >= 0);
    if (quiet <= state::COUNTER_MAX) return state::Code(quiet);
    if (popcount(pos.pieces(~pos.side_to_move())) != 1)
        throw SolveError("a position with more than " + std::to_string(state::COUNTER_MAX) +
                         " quiet moves against more than a king: " + pos.fen());
    return state::NEVER_LOST;
}

}  // namespace retro
