// One ply of minimax: the value of a position for its side to move from the values of the positions
// its legal moves reach. The verifier re-derives every stored value this way, and the shipping form's
// dropped side to move is rebuilt so; values settled by exits are completed by the exits alone
// (docs/format.md).
#pragma once

#include <algorithm>
#include <array>

#include "chess/movegen.hpp"
#include "store/dtm.hpp"

namespace retro {

// A successor's value, or only a floor of it: no better for its side to move than the true value (a
// value stored in a file whose exits settle values, before the exits are searched).
struct Bounded {
    Dtm value;
    bool exact;
};

// One ply of minimax where bounded_of(move) gives the value of the position a legal move reaches, or
// only a floor of it, which complete(move, floor) makes exact. Checkmated: 0 (a loss in 0 plies);
// stalemate: a draw. A floor caps the value of its move, so the exact moves go first, then the
// floored ones best cap first, each completed only while its cap beats the best value found: most
// positions complete one or two successors instead of every one.
template <class BoundedOfMove, class CompleteMove>
Dtm one_ply_value_of_moves(const Position& pos, BoundedOfMove&& bounded_of, CompleteMove&& complete) {
    MoveList moves;
    generate_legal_moves(pos, moves);
    if (moves.size == 0) return pos.in_check(pos.side_to_move()) ? 0 : DTM_DRAW;
    struct Capped {
        Dtm cap;
        int move;
    };
    std::array<Capped, std::tuple_size_v<decltype(moves.moves)>> capped;
    int floored = 0;
    Dtm best = 0;  // checkmated: worse than any move
    for (int i = 0; i < moves.size; ++i) {
        const Bounded b = bounded_of(moves.moves[i]);
        const Dtm v = value_through(b.value);
        if (!b.exact)
            capped[floored++] = {v, i};
        else if (better(v, best))
            best = v;
    }
    std::sort(capped.begin(), capped.begin() + floored,
              [](const Capped& a, const Capped& b) { return better(a.cap, b.cap); });
    for (int k = 0; k < floored && better(capped[k].cap, best); ++k) {
        const Dtm v = value_through(complete(moves.moves[capped[k].move], value_after(capped[k].cap)));
        if (better(v, best)) best = v;
    }
    return best;
}

// The same over the positions the moves reach: bounded_of(successor), complete(successor, floor).
template <class BoundedOf, class Complete>
Dtm one_ply_value_bounded(const Position& pos, BoundedOf&& bounded_of, Complete&& complete) {
    return one_ply_value_of_moves(
        pos, [&](const Move& m) { return bounded_of(make_move(pos, m)); },
        [&](const Move& m, Dtm floor) { return complete(make_move(pos, m), floor); });
}

// The same when value_of(move) gives the exact value of the position every legal move reaches.
template <class ValueOfMove>
Dtm one_ply_value_of_exact_moves(const Position& pos, ValueOfMove&& value_of) {
    return one_ply_value_of_moves(
        pos,
        [&](const Move& m) {
            return Bounded{value_of(m), true};
        },
        [](const Move&, Dtm exact) { return exact; });
}

// The better of `stored` and the values value_of_move(move) of the positions the moves of `exits`
// reach: the value of an entry of a file whose values exits settle (format version 5), `exits`
// being its legal captures and promotions.
template <class ValueOfMove>
Dtm with_exit_values(const MoveList& exits, Dtm stored, ValueOfMove&& value_of_move) {
    for (const Move& m : exits) {
        const Dtm v = value_through(value_of_move(m));
        if (better(v, stored)) stored = v;
    }
    return stored;
}

// The same over the legal moves of pos that leave the table, value_of(position) giving the value of
// the position one reaches.
template <class ValueOf>
Dtm with_exits(const Position& pos, Dtm stored, ValueOf&& value_of) {
    MoveList exits;
    generate_legal_exits(pos, exits);
    return with_exit_values(exits, stored, [&](const Move& m) { return value_of(make_move(pos, m)); });
}

}  // namespace retro
