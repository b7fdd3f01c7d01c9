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
    // Before the move the side now to move was not in check: a check standing now came from the
    // piece that moved, or that piece blocked it from its origin; from its origin it gave no check;
    // and the square it now holds did not shield the king from a slider.
    auto add_if_legal = [&](PieceType t, Square from, Square to) {
        const Bitboard before = (occupied ^ square_bb(to)) | square_bb(from);
        const Bitboard other_checkers = checkers & ~square_bb(to);
        if (other_checkers &&
            (popcount(other_checkers) > 1 || !(between(king, lsb(other_checkers)) & square_bb(from))))
            return;
        const Bitboard from_attacks = t == PAWN ? pawn_attacks(mover, from) : piece_attacks(t, from, before);
        if (from_attacks & square_bb(king)) return;
        if ((king_lines & square_bb(to)) &&
            (((rook_attacks(king, before) & rooks) | (bishop_attacks(king, before) & bishops)) &
             ~square_bb(to)))
            return;
        list.push({from, to});
    };
    const int push = pawn_push(mover);
    if (pos.ep_square() != NO_SQUARE) {  // only the double push that made this position
        const Square to = pos.ep_square() + push;
        if (which == Unmoves::All) add_if_legal(PAWN, to - 2 * push, to);
        return;
    }
    for (int t = KING; t < PAWN; ++t)
        for (Bitboard b = pos.pieces(mover, PieceType(t)); b;) {
            const Square to = pop_lsb(b);
            for (Bitboard f = piece_attacks(PieceType(t), to, occupied) & ~occupied; f;)
                add_if_legal(PieceType(t), pop_lsb(f), to);
        }
    if (which == Unmoves::PiecesOnly) return;
    for (Bitboard b = pos.pieces(mover, PAWN); b;) {
        const Square to = pop_lsb(b);
        const int rank = relative_rank(mover, to);
        if (rank < 2 || (occupied & square_bb(to - push))) continue;
        add_if_legal(PAWN, to - push, to);
        // A double push leads here only if it grants no en passant right (this position has none).
        if (rank == 3 && !(occupied & square_bb(to - 2 * push))) {
            const int before = list.size;
            add_if_legal(PAWN, to - 2 * push, to);
            if (list.size > before &&
                !(make_move(predecessor(pos, list.moves[before]), list.moves[before]) == pos))
                list.size = before;
        }
    }
}

}  // namespace retro
