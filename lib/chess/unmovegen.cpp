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
    const Color mover = ~pos.side_to_move();
    const Bitboard occupied = pos.occupied();
    const UnmoveOrigins origins(pos);
    const int push = pawn_push(mover);
    if (pos.ep_square() != NO_SQUARE) {  // only the double push that made this position
        const Square to = pos.ep_square() + push, from = to - 2 * push;
        if (which == Unmoves::All && (origins.legal(PAWN, to) & square_bb(from))) list.push({from, to});
        return;
    }
    for (int t = KING; t < PAWN; ++t)
        for (Bitboard b = pos.pieces(mover, PieceType(t)); b;) {
            const Square to = pop_lsb(b);
            for (Bitboard f = origins.of_piece(PieceType(t), to); f;) list.push({pop_lsb(f), to});
        }
    if (which == Unmoves::PiecesOnly) return;
    for (Bitboard b = pos.pieces(mover, PAWN); b;) {
        const Square to = pop_lsb(b);
        const int rank = relative_rank(mover, to);
        if (rank < 2 || (occupied & square_bb(to - push))) continue;
        const Bitboard legal = origins.legal(PAWN, to);
        if (legal & square_bb(to - push)) list.push({to - push, to});
        // A double push leads here only if it grants no en passant right (this position has none).
        if (rank == 3 && (legal & square_bb(to - 2 * push))) {
            const Move m{to - 2 * push, to};
            if (make_move(predecessor(pos, m), m) == pos) list.push(m);
        }
    }
}

}  // namespace retro
