// The exits of a run of entries in which one man alone moves (index/board_walk.hpp), each found in
// its sub-table or slice once a run: the first pass walks every entry's exits, and along a run most
// of them reach entries a step apart, or one entry.
#pragma once

#include <array>
#include <cassert>

#include "solve/exits.hpp"
#include "solve/scheme_context.hpp"

namespace retro {

class RunExits {
public:
    // Along runs of the man in `slot`, a piece.
    RunExits(const ExitProbe& exits, int slot) : exits_(exits), slot_(slot) { assert(slot >= 2); }

    // The men other than the moving one have moved: forgets the exits found.
    void new_run() { size_ = 0; }

    // The value of exit m of entry e, which is in the current run.
    Dtm value(const Entry& e, const Move& m) {
        using Kind = ExitProbe::RunExit::Kind;
        if (m.en_passant) return exits_.value_after(e.pos, e.placement, m, e.index);
        const Square moving = e.placement.square[size_t(slot_)];
        const Color side = e.pos.side_to_move();
        // The move, with the moving man's square (as capturer or victim) as 64: one along the run. A
        // push and a capture never share their squares: a pawn pushes ahead and takes aside.
        const int from = m.from == moving ? 64 : m.from, to = m.to == moving ? 64 : m.to;
        const int key = ((int(side) * 65 + from) * 65 + to) * (NO_PIECE_TYPE + 1) + m.promotion;
        int k = 0;
        while (k < size_ && keys_[size_t(k)] != key) ++k;
        if (k == size_) {
            if (size_ == CAPACITY) return exits_.value_after(e.pos, e.placement, m, e.index);
            keys_[size_t(k)] = key;
            found_[size_t(k)] = captures_or_promotes(m) ? exits_.run_exit(e.placement, side, m, slot_)
                                                        : exits_.run_push(e.pos, m, e.index);
            ++size_;
        }
        const ExitProbe::RunExit& exit = found_[size_t(k)];
        const Dtm v = exit.kind == Kind::Fixed    ? exit.fixed
                      : exit.kind == Kind::Linear ? ExitProbe::run_value(exit, moving)
                      : exit.kind == Kind::Step   ? exit.table->value(exit.to_move, e.index + exit.step)
                                                  : exits_.value_after(e.pos, e.placement, m, e.index);
        assert(v == exits_.value_after(e.pos, e.placement, m, e.index));
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

}  // namespace retro
