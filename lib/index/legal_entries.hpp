// The legal entries of a table for one side to move: the one legality test of a decoded entry and
// the one walk over them, shared by the solver, the statistics, the verifier, the table writer and
// tbindex.
#pragma once

#include <cassert>

#include "index/index_cursor.hpp"

namespace retro {

// A decoded entry has no colliding men, no pawn on rank 1 or 8 and no en passant right, so it is a
// legal position for its side to move exactly when the side not to move is not in check
// (Position::illegality() is then empty).
inline bool is_legal_entry(const Position& decoded) { return !decoded.in_check(~decoded.side_to_move()); }

// The position of a placement with `side` to move.
inline Position entry_position(const IndexScheme& scheme, const Placement& p, Color side) {
    Position pos = scheme.to_position(p);
    pos.set_side_to_move(side);
    return pos;
}

// Decodes entry idx with `side` to move into pos; false for a hole or an illegal position.
inline bool decode_legal(const IndexScheme& scheme, uint64_t idx, Color side, Position& pos) {
    if (!scheme.decode(idx, pos)) return false;
    pos.set_side_to_move(side);
    return is_legal_entry(pos);
}

// Whether an entry is in the run of the one walked before it: only the man of the scheme's fastest
// slot (IndexScheme::fastest_slot) has moved since.
enum class Walked { InRun, NewRun };

// Calls f(index, placement, position, walked) for every entry of [begin, end) that decodes to a
// position (legal or not) with `side` to move, `walked` telling whether the entry is in the run of
// the one before it. Steps a cursor (cheap) instead of decoding every entry, and the position with
// it: when the cursor moved one man alone, he is shifted on the board.
template <class F>
void for_each_entry_in_runs(const IndexScheme& scheme, Color side, uint64_t begin, uint64_t end, F&& f) {
    Position pos;
    uint64_t placements = 0;        // the cursor's count when pos was built: none yet
    Square stepped_on = NO_SQUARE;  // the stepped man's square in pos
    for (IndexCursor cursor(scheme, begin); cursor.index() < end; cursor.next()) {
        if (!cursor.valid()) continue;
        const Placement& p = cursor.placement();
        const int slot = cursor.stepped_slot();
        Walked walked = Walked::InRun;
        if (cursor.placements() == placements && slot >= 0) {
            pos.shift(scheme.piece_of_slot(slot), stepped_on, p.square[size_t(slot)]);
        } else {
            pos = entry_position(scheme, p, side);
            placements = cursor.placements();
            walked = Walked::NewRun;
        }
        if (slot >= 0) stepped_on = p.square[size_t(slot)];
        assert(pos == entry_position(scheme, p, side));
        f(cursor.index(), p, pos, walked);
    }
}

// Calls f(index, placement, position) for every legal entry of [begin, end) with `side` to move.
template <class F>
void for_each_legal_entry(const IndexScheme& scheme, Color side, uint64_t begin, uint64_t end, F&& f) {
    for_each_entry_in_runs(scheme, side, begin, end,
                           [&](uint64_t i, const Placement& p, const Position& pos, Walked) {
                               if (is_legal_entry(pos)) f(i, p, pos);
                           });
}

}  // namespace retro
