// The exits of a run of entries in which one man alone moves (index/board_walk.hpp), each found in
// its sub-table or slice once a run: the first pass walks every entry's exits, as do the completion
// of a file that exits settle and the writer's search for its settled entries, and along a run most
// of them reach entries a step apart, or one entry.
#pragma once

#include <array>
#include <cassert>
#include <optional>

#include "chess/movegen.hpp"
#include "index/legal_entries.hpp"
#include "solve/exits.hpp"

namespace retro {

class RunExits {
public:
    // Along runs of the man in `slot`, a piece.
    RunExits(const ExitProbe& exits, int slot) : exits_(exits), slot_(slot) { assert(slot >= 2); }

    // The men other than the moving one have moved: forgets the exits found.
    void new_run() { size_ = 0; }

    // The value of exit m of the entry `index` (placement p, position pos), which is in the current run.
    Dtm value(uint64_t index, const Placement& p, const Position& pos, const Move& m) {
        using Kind = ExitProbe::RunExit::Kind;
        if (m.en_passant) return exits_.value_after(pos, p, m, index);
        const Square moving = p.square[size_t(slot_)];
        const Color side = pos.side_to_move();
        // The move, with the moving man's square (as capturer or victim) as 64: one along the run. A
        // push and a capture never share their squares: a pawn pushes ahead and takes aside.
        const int from = m.from == moving ? 64 : m.from, to = m.to == moving ? 64 : m.to;
        const int key = ((int(side) * 65 + from) * 65 + to) * (NO_PIECE_TYPE + 1) + m.promotion;
        int k = 0;
        while (k < size_ && keys_[size_t(k)] != key) ++k;
        if (k == size_) {
            if (size_ == CAPACITY) return exits_.value_after(pos, p, m, index);
            keys_[size_t(k)] = key;
            found_[size_t(k)] =
                captures_or_promotes(m) ? exits_.run_exit(p, side, m, slot_) : exits_.run_push(pos, m, index);
            ++size_;
        }
        const ExitProbe::RunExit& exit = found_[size_t(k)];
        const Dtm v = exit.kind == Kind::Fixed    ? exit.fixed
                      : exit.kind == Kind::Linear ? ExitProbe::run_value(exit, moving)
                      : exit.kind == Kind::Step   ? exit.table->value(exit.to_move, index + exit.step)
                                                  : exits_.value_after(pos, p, m, index);
        assert(v == exits_.value_after(pos, p, m, index));
        return v;
    }

private:
    static constexpr int CAPACITY = 32;  // the exits of a run past it are looked up entry by entry

    const ExitProbe& exits_;
    const int slot_;
    int size_ = 0;
    std::array<int, CAPACITY> keys_{};
    std::array<ExitProbe::RunExit, CAPACITY> found_{};
};

// Calls f(index, placement, position, moves, value_of) for every legal entry of [first, last) with
// `side` to move, in order: `moves` lists its legal captures and promotions, and value_of(move) gives
// the value one of them reaches, for the opponent. One attack set of the side's men tells whether the
// entry is legal and whether it may have an exit: most entries attack no man and have no pawn on
// their seventh rank, and no move is generated for them. Along a run, the exits are found once.
template <class F>
void for_each_legal_entry_and_exits(const ExitProbe& exits, const IndexScheme& scheme, Color side,
                                    uint64_t first, uint64_t last, F&& f) {
    std::optional<RunExits> run;  // none when no man moves alone
    if (scheme.fastest_slot() >= 0) run.emplace(exits, scheme.fastest_slot());
    MoveList moves;
    for_each_entry_in_runs(
        scheme, side, first, last, [&](uint64_t i, const Placement& p, const Position& pos, Walked walked) {
            if (walked == Walked::NewRun && run) run->new_run();
            const Bitboard attacked = attacks_by(pos, side);
            if (attacked & pos.pieces(~side, KING)) return;  // the other side in check
            moves.size = 0;
            if ((attacked & pos.pieces(~side)) || (pos.pieces(side, PAWN) & seventh_rank(side)))
                generate_legal_exits(pos, moves);
            f(i, p, pos, moves, [&](const Move& m) {
                return run ? run->value(i, p, pos, m) : exits.value_after(pos, p, m, i);
            });
        });
}

}  // namespace retro
