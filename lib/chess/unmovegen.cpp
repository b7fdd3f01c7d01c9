#include "chess/unmovegen.hpp"

#include "chess/movegen.hpp"

namespace retro {

Position predecessor(const Position& pos, const Move& m) {
    Position prev = pos;
    const Color mover = ~pos.side_to_move();
    const PieceType t = pos.type_on(m.to);
    prev.remove(m.to);
    prev.put({mover, t}, m.from);
    prev.set_side_to_move(mover);
    prev.set_ep_square(NO_SQUARE);
    return prev;
}

void generate_unmoves(const Position& pos, MoveList& list, Unmoves which) {
    const Color stm = pos.side_to_move(), mover = ~stm;
    const Bitboard occupied = pos.occupied();
    const Square king = pos.king(stm);
    const Bitboard checkers = pos.attackers(king, mover, occupied);
    const Bitboard king_lines = queen_attacks(king, occupied);
    const Bitboard rooks = pos.pieces(mover, ROOK) | pos.pieces(mover, QUEEN);
    const Bitboard bishops = pos.pieces(mover, BISHOP) | pos.pieces(mover, QUEEN);
    // The empty squares the man of type t on `to` may have come from: before its move the side now
    // to move was not in check. So a check standing now came from that man, or a slider its origin
    // blocked; from its origin it gave no check (attacks are symmetric, a pawn's seen from the
    // king's side); and a slider that `to` shields the king from was blocked by the origin too.
    // Masks for all origins at once: an origin only adds a blocker to the board without `to`.
    const auto legal_origins = [&](PieceType t, Square to) {
        const Bitboard vacated = occupied ^ square_bb(to);
        Bitboard origins = ~occupied;
        const Bitboard other_checkers = checkers & ~square_bb(to);
        if (other_checkers) {
            if (popcount(other_checkers) > 1) return Bitboard(0);
            origins &= between(king, lsb(other_checkers));
        }
        origins &= ~(t == PAWN ? pawn_attacks(stm, king) : piece_attacks(t, king, vacated));
        if (king_lines & square_bb(to))
            for (Bitboard shielded =
                     ((rook_attacks(king, vacated) & rooks) | (bishop_attacks(king, vacated) & bishops)) &
                     ~square_bb(to);
                 shielded;)
                origins &= between(king, pop_lsb(shielded));
        return origins;
    };
    const int push = pawn_push(mover);
    if (pos.ep_square() != NO_SQUARE) {  // only the double push that made this position
        const Square to = pos.ep_square() + push, from = to - 2 * push;
        if (which == Unmoves::All && (legal_origins(PAWN, to) & square_bb(from))) list.push({from, to});
        return;
    }
    for (int t = KING; t < PAWN; ++t)
        for (Bitboard b = pos.pieces(mover, PieceType(t)); b;) {
            const Square to = pop_lsb(b);
            for (Bitboard f = piece_attacks(PieceType(t), to, occupied) & legal_origins(PieceType(t), to); f;)
                list.push({pop_lsb(f), to});
        }
    if (which == Unmoves::PiecesOnly) return;
    for (Bitboard b = pos.pieces(mover, PAWN); b;) {
        const Square to = pop_lsb(b);
        const int rank = relative_rank(mover, to);
        if (rank < 2 || (occupied & square_bb(to - push))) continue;
        const Bitboard origins = legal_origins(PAWN, to);
        if (origins & square_bb(to - push)) list.push({to - push, to});
        // A double push leads here only if it grants no en passant right (this position has none).
        if (rank == 3 && (origins & square_bb(to - 2 * push))) {
            const Move m{to - 2 * push, to};
            if (make_move(predecessor(pos, m), m) == pos) list.push(m);
        }
    }
}

}  // namespace retro
