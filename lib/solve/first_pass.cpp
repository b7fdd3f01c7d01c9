#include "solve/first_pass.hpp"

#include <array>
#include <cassert>
#include <optional>
#include <string>

#include "chess/movegen.hpp"
#include "index/board_walk.hpp"
#include "index/index_cursor.hpp"
#include "index/symmetry.hpp"
#include "parallel/shared_progress.hpp"
#include "solve/entry_exits.hpp"

namespace retro {

namespace {

using namespace state;

// The symmetry other than the identity that keeps the square of the king that does not move, or
// IDENTITY when there is none. Two quiet successors share an entry only when a symmetry of the index
// maps one onto the other, and that king stands on the same square in both: so only through this
// one. With pawns there is none (the mirror keeps no square), nor with that king off both diagonals.
Symmetry folding_symmetry(const IndexScheme& scheme, const Position& pos) {
    if (scheme.has_pawns()) return IDENTITY;
    const Square other = pos.king(~pos.side_to_move());
    return file_of(other) == rank_of(other)       ? TRANSPOSE
           : file_of(other) == 7 - rank_of(other) ? ANTI_TRANSPOSE
                                                  : IDENTITY;
}

// Whether two quiet moves may reach one entry through s: the successor of one is the image of the
// other's. Each move changes two (man, square) pairs, so the position and its image under s then
// differ in at most four: at most two men are off s.
bool moves_may_meet_through(const Position& pos, Symmetry s) {
    return s != IDENTITY && !more_men_off_symmetry(pos, s, 2);
}

// How many quiet moves of the summary reach a successor whose image under s is another quiet
// successor: twice the entries they share, s being its own inverse. The image of a move's successor
// differs from the position in the squares that s's image of the board differs in, and the images of
// the move's two squares; it is a successor when that leaves one man of the side to move on
// another's squares, a quiet move's. A man's targets split by whether their image stands in that
// difference (then it loses a square, else gains one), so most are never looked at one by one.
int successors_met(const Position& pos, const MoveSummary& moves, Symmetry s) {
    std::array<std::array<Bitboard, PIECE_TYPE_COUNT>, 2> differ{};  // each kind of man against its image
    int off = 0;  // the squares of the board and its image that differ
    for (Color c : {WHITE, BLACK})
        for (int t = KING; t <= PAWN; ++t)
            if (const Bitboard men = pos.pieces(c, PieceType(t))) {
                differ[c][t] = men ^ apply_symmetry(s, men);
                off += popcount(differ[c][t]);
            }
    const Color side = pos.side_to_move();
    const Square king = pos.king(side);
    // Whether the image of the successor of from-to, which differs from the board by `moved` in the
    // moving man's kind (`type`), is another quiet successor.
    const auto image_of_another = [&](Square from, Square to, PieceType type, Bitboard moved) {
        for (Color c : {WHITE, BLACK})
            for (int t = KING; t <= PAWN; ++t) {
                // Each kind keeps its number of men: the two squares belong to one kind.
                const Bitboard d = c == side && t == type ? moved : differ[c][t];
                if (popcount(d) != 2) continue;
                const Bitboard men = pos.pieces(c, PieceType(t));
                const Square other_from = lsb(d & men), other_to = lsb(d & ~men);
                if (other_from == from && other_to == to) return false;  // the successor is its own image
                return c == side && bool(moves.quiet_targets(other_from, king) & square_bb(other_to));
            }
        return false;
    };
    int met = 0;
    const auto count_from = [&](Square from, Bitboard targets) {
        const PieceType type = pos.type_on(from);
        const Bitboard kind = differ[side][type];
        const Bitboard lifted = kind ^ square_bb(apply_symmetry(s, from));  // the kind less the man's image
        const int rest = off - popcount(kind) + popcount(lifted);
        const Bitboard in_lifted = targets & apply_symmetry(s, lifted);  // their image in `lifted`
        const Bitboard candidates =
            (rest - 1 == 2 ? in_lifted : 0) | (rest + 1 == 2 ? targets & ~in_lifted : 0);
        for (Bitboard b = candidates; b;) {
            const Square to = pop_lsb(b);
            met += image_of_another(from, to, type, lifted ^ square_bb(apply_symmetry(s, to)));
        }
    };
    for (int i = 0; i < moves.pieces; ++i)
        count_from(moves.piece_targets[size_t(i)].from, moves.piece_targets[size_t(i)].to);
    count_from(king, moves.king_targets);
    return met;
}

// Whether the entry leaves its quiet moves uncounted: its side counts late, and it has no exit (it
// captures nothing and has no pawn) and no mate (it is not in check).
bool waits_to_be_counted(const Position& pos, const BoardAttacks& attacks, std::optional<Color> late) {
    const Color side = pos.side_to_move();
    return side == late && !attacks.in_check(side) && !pos.pieces(side, PAWN) &&
           !(attacks.attacked(side) & pos.pieces(~side));
}

// Entry e's code from its moves: a mate, a stalemate, a counter of its quiet successors (or the mark
// that they are not counted yet), or what its exits (captures, promotions, pushes) make of it.
Code first_code(SchemeContext& c, const Entry& e, const BoardAttacks& attacks, RunExits* run,
                std::optional<Color> late) {
    if (waits_to_be_counted(e.pos, attacks, late)) return UNCOUNTED;
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
    const std::optional<Color> late = side_counted_late(scheme.material());
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
            if (walk.place(cursor) == BoardWalk::Placed::NewRun && run) run->new_run();
            Entry e{cursor.index(), scheme.kings_on_diagonal(p), p, walk.board()};
            const BoardAttacks& attacks = walk.attacks();
            for (Color side : {WHITE, BLACK}) {
                if (attacks.in_check(~side)) continue;  // not an entry of `side` to move
                e.pos.set_side_to_move(side);
                c.mark_legal(side, e.index);
                c.code(side, e.index) = first_code(c, e, attacks, run ? &*run : nullptr, late);
            }
        }
        examined.add(2 * (last - first));
    });
    if (!c.stop_requested()) examined.finish();
}

QuietSuccessors quiet_successors(const IndexScheme& scheme, const Entry& e, const BoardAttacks& attacks,
                                 MoveSummary& moves, SuccessorPath path) {
    const bool counted = path == SuccessorPath::Counted && summarize_legal_moves(e.pos, attacks, moves);
    if (!counted) list_legal_moves(e.pos, moves);
    const Symmetry fold = folding_symmetry(scheme, e.pos);
    const int met = moves_may_meet_through(e.pos, fold) ? successors_met(e.pos, moves, fold) : 0;
    return {moves.quiet_moves() - met / 2, counted ? SuccessorPath::Counted : SuccessorPath::Listed};
}

std::optional<Color> side_counted_late(const Material& m) {
    // A rook's edge less a pawn: KQvKR's (5 after the queen is taken) and KQRvKQ's (4) count early.
    constexpr int WINNING_EDGE = 4;
    for (Color c : {WHITE, BLACK}) {
        const int left = m.value(c) - m.largest_value(c);
        if (m.value(c) > m.value(~c) && m.value(~c) - left < WINNING_EDGE && !m.count(~c, PAWN)) return c;
    }
    return std::nullopt;
}

state::Code count_late(const IndexScheme& scheme, const Entry& e) {
    MoveSummary moves;
    const int quiet = quiet_successors(scheme, e, BoardAttacks(e.pos), moves).count;
    assert(moves.exits.size == 0 && quiet > 0);  // a count-down came through a quiet move
    return quiet_counter(e.pos, quiet);
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
