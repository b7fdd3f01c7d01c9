#include "chess/move.hpp"

#include <cctype>

#include "chess/movegen.hpp"

namespace retro {

Position make_move(const Position& pos, const Move& m) {
    Position next = pos;
    const Color us = pos.side_to_move();
    const PieceType moved = pos.type_on(m.from);
    next.remove(m.from);
    if (m.en_passant) next.remove(m.to - pawn_push(us));
    if (m.capture) next.remove(m.to);
    next.put({us, m.promotion == NO_PIECE_TYPE ? moved : m.promotion}, m.to);
    next.set_side_to_move(~us);
    next.set_ep_square(NO_SQUARE);
    if (moved == PAWN && (m.to - m.from == 16 || m.from - m.to == 16)) {
        next.set_ep_square(Square((m.from + m.to) / 2));
        if (!has_legal_ep_capture(next)) next.set_ep_square(NO_SQUARE);
    }
    return next;
}

std::string to_uci(const Move& m) {
    std::string s = square_name(m.from) + square_name(m.to);
    if (m.promotion != NO_PIECE_TYPE) s += char(std::tolower(piece_letter(m.promotion)));
    return s;
}

}  // namespace retro
