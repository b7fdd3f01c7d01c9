// A chess position without castling rights: pieces, side to move and the en passant square.
#pragma once

#include <cassert>
#include <stdexcept>
#include <string>

#include "chess/bitboard.hpp"

namespace retro {

// Thrown for a FEN or position that cannot be a tablebase position; what() says why.
class PositionError : public std::runtime_error {
    using std::runtime_error::runtime_error;
};

class Position {
public:
    Position() = default;

    // Parses a FEN ("pieces side castling ep [halfmove fullmove]"). Throws PositionError naming the fault.
    static Position from_fen(const std::string& fen);
    std::string fen() const;

    void put(Piece p, Square s) {
        by_color_[p.color] |= square_bb(s);
        by_type_[p.type] |= square_bb(s);
    }
    // Every man of colour c, or of type t, at once; the caller sets the colours and the types of the
    // same men.
    void set_pieces(Color c, Bitboard b) { by_color_[c] = b; }
    void set_pieces(PieceType t, Bitboard b) { by_type_[t] = b; }
    // Man p, on `from`, to the empty square `to`.
    void shift(Piece p, Square from, Square to) {
        assert((by_color_[p.color] & by_type_[p.type] & square_bb(from)) && !(occupied() & square_bb(to)));
        by_color_[p.color] ^= square_bb(from) | square_bb(to);
        by_type_[p.type] ^= square_bb(from) | square_bb(to);
    }
    void remove(Square s) {
        by_color_[WHITE] &= ~square_bb(s);
        by_color_[BLACK] &= ~square_bb(s);
        for (auto& b : by_type_) b &= ~square_bb(s);
    }
    PieceType type_on(Square s) const {
        for (int t = 0; t < PIECE_TYPE_COUNT; ++t)
            if (by_type_[t] & square_bb(s)) return PieceType(t);
        return NO_PIECE_TYPE;
    }
    Color color_on(Square s) const { return (by_color_[BLACK] & square_bb(s)) ? BLACK : WHITE; }

    Bitboard occupied() const { return by_color_[WHITE] | by_color_[BLACK]; }
    Bitboard pieces(Color c) const { return by_color_[c]; }
    Bitboard pieces(PieceType t) const { return by_type_[t]; }
    Bitboard pieces(Color c, PieceType t) const { return by_color_[c] & by_type_[t]; }
    Square king(Color c) const {
        assert(pieces(c, KING));  // a board without that king has no square to give
        return lsb(pieces(c, KING));
    }

    Color side_to_move() const { return side_to_move_; }
    void set_side_to_move(Color c) { side_to_move_ = c; }
    Square ep_square() const { return ep_square_; }
    void set_ep_square(Square s) { ep_square_ = s; }

    // Pieces of colour `by` that attack square s.
    Bitboard attackers(Square s, Color by, Bitboard occupied) const;
    bool attacked(Square s, Color by) const { return attackers(s, by, occupied()) != 0; }
    bool in_check(Color c) const { return attacked(king(c), ~c); }

    // Why this position cannot stand in a tablebase (kings, pawns on back ranks, side not to move
    // in check, impossible en passant square), or an empty string when it can.
    std::string illegality() const;
    // True when the en passant square could follow a double push just played: on the right rank, the
    // pushed pawn in front of it, the square and the pawn's origin empty, and the side to move not
    // already in check before the push. (Whether a pawn can capture onto it is not required.)
    bool ep_square_plausible() const;

    // The same position with colours swapped and the board flipped top to bottom.
    Position color_flipped() const;

    friend bool operator==(const Position&, const Position&) = default;

private:
    Bitboard by_color_[2] = {};
    Bitboard by_type_[PIECE_TYPE_COUNT] = {};
    Color side_to_move_ = WHITE;
    Square ep_square_ = NO_SQUARE;
};

}  // namespace retro
