#include "solve/promotion_pass.hpp"

#include <algorithm>

#include "chess/movegen.hpp"
#include "solve/entry_exits.hpp"

namespace retro {

void promotion_pass(SchemeContext& c) {
    const IndexScheme& scheme = c.scheme;
    for (Color side : {WHITE, BLACK}) {
        if (!scheme.material().count(side, PAWN)) continue;
        auto& codes = c.state.codes[side];
        const auto on_seventh = [&](const Placement& p) {
            for (int s = 2; s < scheme.men(); ++s)
                if (scheme.piece_of_slot(s) == Piece{side, PAWN} && relative_rank(side, p.square[s]) == 6)
                    return true;
            return false;
        };
        c.for_each_wanted_entry(
            side,
            [&](const Entry& e) {
                const uint64_t i = e.index;
                if (codes[i] == c.window.code(0)) return;  // checkmated
                MoveList moves;
                generate_legal_moves(e.pos, moves);
                if (std::ranges::none_of(moves, promotes)) return;  // a blocked pawn: the first pass did
                codes[i] = take_exits(c, e, moves, codes[i]);
            },
            on_seventh);
    }
}

}  // namespace retro
