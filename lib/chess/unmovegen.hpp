// Un-move generation: the non-capturing moves that lead *into* a position. Captures and promotions
// change the material and so come from another table; they are not un-moves here.
#pragma once

#include "chess/move.hpp"

namespace retro {

// Whose un-moves: every man's, or only the kings' and pieces' (a pawn's step back leaves a slice of
// a pawn table, so the solver never follows one).
enum class Unmoves { All, PiecesOnly };

// The squares each man of the side that just moved (not the side to move) may have come from by a
// quiet move, as one bitboard per man: before its move the side now to move was not in check. So a
// check standing now came from that man, or a slider its origin blocked; from its origin it gave no
// check (attacks are symmetric, a pawn's seen from the king's side); and a slider that the man's
// square shields the king from was blocked by the origin too. An origin only adds a blocker to the
// board without the man, so a few masks per man serve all its origins at once.
class UnmoveOrigins {
public:
    explicit UnmoveOrigins(const Position& pos)
        : stm_(pos.side_to_move()),
          occupied_(pos.occupied()),
          king_(pos.king(stm_)),
          checkers_(pos.attackers(king_, ~stm_, occupied_)),
          king_lines_(queen_attacks(king_, occupied_)),
          rooks_(pos.pieces(~stm_, ROOK) | pos.pieces(~stm_, QUEEN)),
          bishops_(pos.pieces(~stm_, BISHOP) | pos.pieces(~stm_, QUEEN)) {}

    // The empty squares from which the man of type t on `to` may have moved there, if it had
    // moved like a piece (a pawn's steps are tested against this by generate_unmoves).
    Bitboard legal(PieceType t, Square to) const {
        const Bitboard vacated = occupied_ ^ square_bb(to);
        Bitboard origins = ~occupied_;
        const Bitboard other_checkers = checkers_ & ~square_bb(to);
        if (other_checkers) {
            if (popcount(other_checkers) > 1) return 0;
            origins &= between(king_, lsb(other_checkers));
        }
        origins &= ~(t == PAWN ? pawn_attacks(stm_, king_) : piece_attacks(t, king_, vacated));
        if (king_lines_ & square_bb(to))
            for (Bitboard shielded =
                     ((rook_attacks(king_, vacated) & rooks_) | (bishop_attacks(king_, vacated) & bishops_)) &
                     ~square_bb(to);
                 shielded;)
                origins &= between(king_, pop_lsb(shielded));
        return origins;
    }
    // The origins of the king's or piece's (not a pawn's) un-moves onto `to`: all at once.
    Bitboard of_piece(PieceType t, Square to) const {
        assert(t != PAWN);
        return piece_attacks(t, to, occupied_) & legal(t, to);
    }

private:
    Color stm_;
    Bitboard occupied_;
    Square king_;
    Bitboard checkers_, king_lines_, rooks_, bishops_;
};

// Appends every move m of the side that just moved (not the side to move in `pos`) such that
// playing m in predecessor(pos, m) gives `pos`, and the predecessor is legal (its side not to move
// is not in check). A position with an en passant square only has the double push that made it.
void generate_unmoves(const Position& pos, MoveList& list, Unmoves which = Unmoves::All);

// The position before `m` (a move from generate_unmoves) was played. It has no en passant square.
Position predecessor(const Position& pos, const Move& m);

}  // namespace retro
