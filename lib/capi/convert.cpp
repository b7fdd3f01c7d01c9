#include "capi/convert.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <string>

namespace retro::capi {

namespace {

// In PieceType order (KING = 0 ... PAWN).
std::array<uint64_t, PIECE_TYPE_COUNT> by_type(const retro_position& b) {
    return {b.kings, b.queens, b.rooks, b.bishops, b.knights, b.pawns};
}

}  // namespace

Position to_position(const retro_position& bits) {
    if (bits.white & bits.black) throw PositionError("a square is in both the white and the black bitboard");
    uint64_t typed = 0;
    for (const uint64_t b : by_type(bits)) {
        if (typed & b) throw PositionError("a square is in two piece bitboards");
        typed |= b;
    }
    if (typed != (bits.white | bits.black))
        throw PositionError("the piece bitboards and the colour bitboards hold different squares");
    if (bits.side_to_move != RETRO_WHITE && bits.side_to_move != RETRO_BLACK)
        throw PositionError("side_to_move must be RETRO_WHITE or RETRO_BLACK, not " +
                            std::to_string(bits.side_to_move));
    if (bits.ep_square < 0 || bits.ep_square > 63)
        throw PositionError("ep_square must be a square from 0 to 63 (0: none), not " +
                            std::to_string(bits.ep_square));
    Position pos;
    const auto types = by_type(bits);
    for (int t = 0; t < PIECE_TYPE_COUNT; ++t)
        for (uint64_t b = types[t]; b;) {
            const Square s = pop_lsb(b);
            pos.put({(bits.black & square_bb(s)) ? BLACK : WHITE, PieceType(t)}, s);
        }
    pos.set_side_to_move(Color(bits.side_to_move));
    pos.set_ep_square(bits.ep_square == 0 ? NO_SQUARE : Square(bits.ep_square));
    if (const std::string why = pos.illegality(); !why.empty()) throw PositionError(why);
    return pos;
}

retro_position to_bits(const Position& pos) {
    retro_position b{};
    b.white = pos.pieces(WHITE);
    b.black = pos.pieces(BLACK);
    b.kings = pos.pieces(KING);
    b.queens = pos.pieces(QUEEN);
    b.rooks = pos.pieces(ROOK);
    b.bishops = pos.pieces(BISHOP);
    b.knights = pos.pieces(KNIGHT);
    b.pawns = pos.pieces(PAWN);
    b.side_to_move = pos.side_to_move() == WHITE ? RETRO_WHITE : RETRO_BLACK;
    b.ep_square = pos.ep_square() == NO_SQUARE ? 0 : int(pos.ep_square());
    return b;
}

retro_value to_value(Dtm v) { return {v, is_win(v) ? RETRO_WIN : is_loss(v) ? RETRO_LOSS : RETRO_DRAW}; }

retro_move to_move(const Move& m, Dtm value) {
    retro_move out{};
    out.from = m.from;
    out.to = m.to;
    out.promotion = m.promotion == NO_PIECE_TYPE ? 0 : char(piece_letter(m.promotion) - 'A' + 'a');
    const std::string uci = to_uci(m);
    std::memcpy(out.uci, uci.c_str(), std::min(uci.size() + 1, sizeof out.uci));
    out.value = to_value(value);
    return out;
}

}  // namespace retro::capi
