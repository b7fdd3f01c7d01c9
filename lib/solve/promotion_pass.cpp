#include "solve/promotion_pass.hpp"

#include <algorithm>

#include "solve/entry_exits.hpp"

namespace retro {

void promotion_pass(SchemeContext& c) {
    const IndexScheme& scheme = c.scheme;
    for (Color side : {WHITE, BLACK}) {
        if (!scheme.material().count(side, PAWN)) continue;
        // A slice's pawns stand on the same ranks in every entry: most slices have none to promote.
        if (scheme.is_slice() && !(scheme.slice_config().pawns[side] & seventh_rank(side))) continue;
        const auto on_seventh = [&](const Placement& p) {
            for (int s = 2; s < scheme.men(); ++s)
                if (scheme.piece_of_slot(s) == Piece{side, PAWN} && relative_rank(side, p.square[s]) == 6)
                    return true;
            return false;
        };
        c.for_each_wanted_entry(
            side,
            [&](const Entry& e) {
                state::Code& code = c.code(side, e.index);
                if (code == c.window.code(0)) return;  // checkmated
                // The exits alone: the quiet moves are in the first pass's counter.
                const MoveList moves = leaving_moves(e.pos);
                if (std::ranges::none_of(moves, promotes)) return;  // a blocked pawn: the first pass did
                code = take_exits(c, e, moves, code);
            },
            on_seventh);
    }
}

}  // namespace retro
