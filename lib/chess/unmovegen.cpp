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

void generate_unmoves(const Position& pos, MoveList& list) {
    const Color mover = ~pos.side_to_move();
    const Bitboard occupied = pos.occupied();
    MoveList candidates;
    if (pos.ep_square() != NO_SQUARE) {
        const Square to = pos.ep_square() - pawn_push(pos.side_to_move());
        candidates.push({to + 2 * pawn_push(pos.side_to_move()), to});
    } else {
        for (int t = KING; t < PAWN; ++t)
            for (Bitboard b = pos.pieces(mover, PieceType(t)); b;) {
                const Square to = pop_lsb(b);
                for (Bitboard f = piece_attacks(PieceType(t), to, occupied) & ~occupied; f;)
                    candidates.push({pop_lsb(f), to});
            }
        const int push = pawn_push(mover);
        for (Bitboard b = pos.pieces(mover, PAWN); b;) {
            const Square to = pop_lsb(b);
            const int rank = relative_rank(mover, to);
            if (rank < 2 || (occupied & square_bb(to - push))) continue;
            candidates.push({to - push, to});
            if (rank == 3 && !(occupied & square_bb(to - 2 * push))) candidates.push({to - 2 * push, to});
        }
    }
    const Color stm = pos.side_to_move();
    const Square king = pos.king(stm);
    for (const Move& m : candidates) {
        // In the predecessor the side now to move must not be in check.
        const PieceType t = pos.type_on(m.to);
        const Bitboard before = (occupied ^ square_bb(m.to)) | square_bb(m.from);
        if (pos.attackers(king, mover, before) & ~square_bb(m.to)) continue;
        const Bitboard from_attacks = t == PAWN ? pawn_attacks(mover, m.from) : piece_attacks(t, m.from, before);
        if (from_attacks & square_bb(king)) continue;
        // A double push leads here only if it grants exactly this position's en passant right.
        const bool double_push = m.to - m.from == 16 || m.from - m.to == 16;
        if (double_push && t == PAWN && !(make_move(predecessor(pos, m), m) == pos)) continue;
        list.push(m);
    }
}

}  // namespace retro
