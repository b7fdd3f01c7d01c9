// One ply of minimax: the value of a position for its side to move from the values of the positions
// its legal moves reach. The verifier re-derives every stored value this way, and the shipping form's
// dropped side to move is rebuilt so; values settled by exits are completed by the exits alone
// (docs/format.md).
#pragma once

#include "chess/movegen.hpp"
#include "store/dtm.hpp"

namespace retro {

// value_of(position) gives the value of a successor for its side to move. Checkmated: 0 (a loss in
// 0 plies); stalemate: a draw.
template <class ValueOf>
Dtm one_ply_value(const Position& pos, ValueOf&& value_of) {
    MoveList moves;
    generate_legal_moves(pos, moves);
    if (moves.size == 0) return pos.in_check(pos.side_to_move()) ? 0 : DTM_DRAW;
    Dtm best = 0;  // checkmated: worse than any move
    for (const Move& m : moves) {
        const Dtm v = value_through(value_of(make_move(pos, m)));
        if (better(v, best)) best = v;
    }
    return best;
}

// The better of `stored` and the values of the legal moves that leave the table (captures and
// promotions): the value of an entry of a file whose values exits settle (format version 5).
template <class ValueOf>
Dtm with_exits(const Position& pos, Dtm stored, ValueOf&& value_of) {
    MoveList moves;
    generate_legal_exits(pos, moves);
    for (const Move& m : moves) {
        const Dtm v = value_through(value_of(make_move(pos, m)));
        if (better(v, stored)) stored = v;
    }
    return stored;
}

}  // namespace retro
