// The moves of an entry that leave its scheme (captures and promotions into sub-tables, pawn pushes
// into slices solved before) and what their values make of the entry: a win bound, a draw kept, or a
// loss once every other move is known to lose. The first pass folds them into the entry's code;
// the sweeps and the far-code scans derive a distance from them again.
#pragma once

#include <algorithm>
#include <array>

#include "chess/movegen.hpp"
#include "solve/run_exits.hpp"
#include "solve/scheme_context.hpp"

namespace retro {

// Whether m leaves the table: a capture or a promotion, the exits a file's reader searches
// (solve/exit_settled.hpp).
inline bool promotes(const Move& m) { return m.promotion != NO_PIECE_TYPE; }
inline bool leaves_table(const Move& m) { return captures_or_promotes(m); }
// Whether m leaves the scheme: it leaves the table, or moves a pawn (which reaches another slice).
inline bool leaves_scheme(const Entry& e, const Move& m) { return captures_or_moves_pawn(e.pos, m); }

// Whether a move of the side to move may leave the scheme: it has a pawn, or one of its men attacks
// one of the other side's. Most positions have neither.
inline bool may_leave(const Position& pos) {
    const Color us = pos.side_to_move();
    return pos.pieces(us, PAWN) || (attacks_by(pos, us) & pos.pieces(~us));
}
// The legal moves that leave the scheme: captures and pawn moves (none listed when none may).
inline MoveList leaving_moves(const Position& pos) {
    MoveList moves;
    if (may_leave(pos)) generate_legal_captures_and_pawn_moves(pos, moves);
    return moves;
}

constexpr int NO_WIN = 1 << 30;

// Folds the value of one move that leaves the table into a win bound or a never-lost mark.
inline void fold_exit(Dtm reached, int& best_win, bool& drawn) {
    if (is_loss(reached))
        best_win = std::min<int>(best_win, reached + 1);
    else if (is_draw(reached))
        drawn = true;
}

// The longest win for the opponent among the moves that leave the scheme (-1 if none), or NO_WIN
// when one of them does not lose; and among those that leave the table.
struct ExitWins {
    int longest = -1, longest_table = -1;
    // Whether a capture or promotion achieves the loss in `plies` these exits allow.
    bool settle(int plies) const { return longest_table + 1 == plies; }
};

// The exits of one entry folded: into a win bound or a draw kept, over every move that leaves the
// scheme and over those that leave the table alone; and the opponent's longest win among them, which
// decides the loss when every move is an exit and none wins or draws.
struct ExitFold {
    int best_win = NO_WIN, table_win = NO_WIN;
    bool drawn = false, table_drawn = false;
    ExitWins wins;  // over the exits that lose: the entry's loss when all_lose()
    void add(Dtm reached, bool by_leaving_table) {
        fold_exit(reached, best_win, drawn);
        if (by_leaving_table) fold_exit(reached, table_win, table_drawn);
        if (!is_win(reached)) return;
        wins.longest = std::max<int>(wins.longest, reached);
        if (by_leaving_table) wins.longest_table = std::max<int>(wins.longest_table, reached);
    }
    // Whether every exit loses: none wins or draws.
    bool all_lose() const { return best_win == NO_WIN && !drawn; }
    // Whether a capture or promotion achieves what these exits give the entry: its win bound, or
    // the draw kept when there is no win.
    bool settles() const { return best_win != NO_WIN ? table_win == best_win : table_drawn; }
};

// The values of an entry's moves that leave its scheme, through `run` when the entry is walked in
// runs. Otherwise the tables promoted into, as large as this one and reached at random: the entries
// of the promotions are found and asked for together, then read.
class ExitReader {
public:
    ExitReader(const ExitProbe& exits, const Entry& e, const MoveList& moves, RunExits* run = nullptr)
        : exits_(exits), e_(e), run_(run) {
        if (run) return;
        for (int k = 0; k < moves.size; ++k)
            if (promotes(moves.moves[size_t(k)]))
                asked_[size_t(k)] = exits.ask(e.pos.side_to_move(), e.placement, moves.moves[size_t(k)]);
    }
    // The value of moves[k], which leaves the scheme.
    Dtm value(const MoveList& moves, int k) const {
        const Move& m = moves.moves[size_t(k)];
        if (run_) return run_->value(e_.index, e_.placement, e_.pos, m);
        if (promotes(m) && asked_[size_t(k)].table) return ExitProbe::read_asked(asked_[size_t(k)]);
        return exits_.value_after(e_.pos, e_.placement, m, e_.index);
    }

private:
    const ExitProbe& exits_;
    const Entry& e_;
    RunExits* run_;
    // Set for the promotions only, and left unset elsewhere: zeroing 6 KiB for every entry cost the
    // first pass more than the promotions gain.
    std::array<ExitProbe::Asked, MoveList{}.moves.size()> asked_;
};

// The exits among `moves` folded (their quickest win: best_win, or NO_WIN).
inline ExitFold fold_exits(const ExitProbe& exits, const Entry& e, const MoveList& moves,
                           RunExits* run = nullptr) {
    const ExitReader reader(exits, e, moves, run);
    ExitFold fold;
    for (int k = 0; k < moves.size; ++k) {
        const Move& m = moves.moves[size_t(k)];
        if (leaves_scheme(e, m)) fold.add(reader.value(moves, k), leaves_table(m));
    }
    return fold;
}

// The opponent's longest wins among the exits in `moves`, or NO_WIN when one of them does not lose.
inline ExitWins longest_exit_wins(const ExitProbe& exits, const Entry& e, const MoveList& moves) {
    const ExitFold fold = fold_exits(exits, e, moves);
    return fold.all_lose() ? fold.wins : ExitWins{NO_WIN, NO_WIN};
}

// Entry e's code `code` after its exits among `moves` (a win bound, a draw kept, or a loss at once
// when every move is a losing exit), in the first pass (ply 0); surveys whether a capture or
// promotion settles it. Called by the first pass, with e's run when it walks in runs.
inline state::Code take_exits(SchemeContext& c, const Entry& e, const MoveList& moves, state::Code code,
                              RunExits* run) {
    const Color side = e.pos.side_to_move();
    const ExitFold fold = fold_exits(c.exits, e, moves, run);
    c.mark_settled(side, e.index, fold.settles());
    if (fold.best_win != NO_WIN) {
        // A far code already is the quickest exit's bound, derived again from all exits.
        if (c.quicker(code, fold.best_win, 0)) code = c.decided(side, e.index, fold.best_win, 0);
    } else if (fold.drawn && state::undecided(code)) {
        code = state::NEVER_LOST;
    }
    if (code != 0 || moves.size == 0) return code;  // a counter of 0 without a move: stalemate
    // A position whose every move leaves the scheme and loses is lost at once: no quiet successor
    // will ever report to it. A counter of 0 is left only when no exit wins or draws.
    assert(fold.all_lose());
    c.mark_settled(side, e.index, fold.wins.settle(fold.wins.longest + 1));
    return c.decided(side, e.index, fold.wins.longest + 1, 0);
}

}  // namespace retro
