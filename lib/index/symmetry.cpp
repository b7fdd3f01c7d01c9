#include "index/symmetry.hpp"

#include <cassert>
#include <cstdlib>

namespace retro {

namespace {

bool adjacent_or_same(Square a, Square b) {
    return std::abs(file_of(a) - file_of(b)) <= 1 && std::abs(rank_of(a) - rank_of(b)) <= 1;
}

bool in_triangle(Square s) { return file_of(s) <= 3 && rank_of(s) <= file_of(s); }
bool on_diagonal(Square s) { return file_of(s) == rank_of(s); }
bool below_or_on_diagonal(Square s) { return rank_of(s) <= file_of(s); }

bool canonical_pawnless(Square wk, Square bk) {
    return in_triangle(wk) && (!on_diagonal(wk) || below_or_on_diagonal(bk));
}
bool canonical_with_pawns(Square wk, Square) { return file_of(wk) <= 3; }

// Whether the index folds the board along the a1-h8 diagonal when both kings stand on it: the
// pawnless index does; with pawns the transpose is no symmetry.
enum class Diagonal { Folded, Kept };

template <bool (*Canonical)(Square, Square)>
KingPairs build(std::initializer_list<Symmetry> allowed, Diagonal diagonal) {
    KingPairs kp;
    for (auto& row : kp.number) row.fill(-1);
    for (Square wk = SQ_A1; wk <= SQ_H8; ++wk)
        for (Square bk = SQ_A1; bk <= SQ_H8; ++bk) {
            if (adjacent_or_same(wk, bk)) continue;
            if (Canonical(wk, bk)) {
                kp.squares[kp.count] = {wk, bk};
                kp.number[wk][bk] = int16_t(kp.count++);
            }
            for (Symmetry s : allowed) {
                const Square w = apply_symmetry(s, wk), b = apply_symmetry(s, bk);
                if (Canonical(w, b)) {
                    kp.symmetry[wk][bk] = uint8_t(s);
                    kp.diagonal[wk][bk] = diagonal == Diagonal::Folded && on_diagonal(w) && on_diagonal(b);
                    break;
                }
            }
            if (kp.diagonal[wk][bk]) continue;
            const Symmetry s = kp.symmetry[wk][bk];
            kp.oriented_by[WHITE][bk][s] |= square_bb(wk);
            kp.oriented_by[BLACK][wk][s] |= square_bb(bk);
        }
    return kp;
}

}  // namespace

Square apply_symmetry(Symmetry s, Square sq) {
    int f = file_of(sq), r = rank_of(sq);
    if (s & TRANSPOSE) std::swap(f, r);
    if (s & MIRROR_FILE) f = 7 - f;
    if (s & 4) r = 7 - r;
    return make_square(f, r);
}

namespace {

// The bit of (file, rank) moved to (rank, file): three delta swaps of blocks, 4, 2, then 1 square wide.
Bitboard transpose(Bitboard b) {
    const auto swap = [&b](Bitboard mask, int shift) {
        const Bitboard t = mask & (b ^ (b << shift));
        b ^= t ^ (t >> shift);
    };
    swap(0x0f0f0f0f00000000, 28);
    swap(0x3333000033330000, 14);
    swap(0x5500550055005500, 7);
    return b;
}

}  // namespace

Bitboard apply_symmetry(Symmetry s, Bitboard b) {
    if (s & TRANSPOSE) b = transpose(b);
    if (s & MIRROR_FILE) b = mirror_files(b);
    if (s & 4) b = __builtin_bswap64(b);  // the ranks reversed
    return b;
}

int men_off_symmetry(const Position& pos, Symmetry s) {
    assert(apply_symmetry(s, apply_symmetry(s, Square(1))) == Square(1));
    int off = 0;
    for (Color c : {WHITE, BLACK})
        for (int t = KING; t <= PAWN; ++t) {
            const Bitboard men = pos.pieces(c, PieceType(t));
            if (men) off += popcount(men & ~apply_symmetry(s, men));
        }
    return off;
}

const KingPairs& pawnless_king_pairs() {
    static const KingPairs kp = build<canonical_pawnless>({0, 1, 2, 3, 4, 5, 6, 7}, Diagonal::Folded);
    return kp;
}

const KingPairs& pawn_king_pairs() {
    static const KingPairs kp = build<canonical_with_pawns>({IDENTITY, MIRROR_FILE}, Diagonal::Kept);
    return kp;
}

}  // namespace retro
