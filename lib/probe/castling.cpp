#include "probe/castling.hpp"

#include <cctype>

namespace retro {

std::optional<Position> castled(const Position& pos, const std::string& uci) {
    if (uci.size() != 4) return std::nullopt;
    const Square from = parse_square(uci.substr(0, 2)), to = parse_square(uci.substr(2, 2));
    const Color us = pos.side_to_move();
    const int rank = us == WHITE ? 0 : 7;
    if (from != make_square(4, rank) || (to != make_square(6, rank) && to != make_square(2, rank)))
        return std::nullopt;
    if (pos.type_on(from) != KING || pos.color_on(from) != us) return std::nullopt;
    const bool king_side = file_of(to) == 6;
    const Square rook_from = make_square(king_side ? 7 : 0, rank),
                 rook_to = make_square(king_side ? 5 : 3, rank);
    if (pos.type_on(rook_from) != ROOK || pos.color_on(rook_from) != us) return std::nullopt;
    const Bitboard between = king_side ? square_bb(make_square(5, rank)) | square_bb(make_square(6, rank))
                                       : square_bb(make_square(1, rank)) | square_bb(make_square(2, rank)) |
                                             square_bb(make_square(3, rank));
    if (pos.occupied() & between) return std::nullopt;
    for (Square s : {from, rook_to, to})
        if (pos.attacked(s, ~us)) return std::nullopt;
    Position next = pos;
    next.remove(from);
    next.remove(rook_from);
    next.put({us, KING}, to);
    next.put({us, ROOK}, rook_to);
    next.set_side_to_move(~us);
    next.set_ep_square(NO_SQUARE);
    return next;
}

std::string usable_castling(const Position& pos, const std::string& rights) {
    std::string out;
    for (char r : rights) {
        const Color c = std::isupper(static_cast<unsigned char>(r)) ? WHITE : BLACK;
        const char side = char(std::tolower(static_cast<unsigned char>(r)));
        if (side != 'k' && side != 'q') continue;
        const int rank = c == WHITE ? 0 : 7;
        const Square king = make_square(4, rank), rook = make_square(side == 'k' ? 7 : 0, rank);
        const auto holds = [&](Square s, PieceType t) { return pos.type_on(s) == t && pos.color_on(s) == c; };
        if (holds(king, KING) && holds(rook, ROOK)) out += r;
    }
    return out;
}

}  // namespace retro
