#include "index/men_on_squares.hpp"

#include <algorithm>
#include <cassert>

#include "index/symmetry.hpp"

namespace retro {

MenOnSquares::MenOnSquares(const IndexScheme& scheme, int slot, Bitboard squares)
    : digit_(scheme.digit_of_slot(slot)) {
    const Piece piece = scheme.piece_of_slot(slot);
    assert(!scheme.is_slice() && slot >= 2 && piece.type != PAWN);
    for (int s = 2; s < scheme.men(); ++s) count_ += scheme.piece_of_slot(s) == piece;
    const KingPairs& kings = scheme.has_pawns() ? pawn_king_pairs() : pawnless_king_pairs();
    pair_digits_.assign(size_t(kings.count), 0);
    for (int pair = 0; pair < kings.count; ++pair) {
        const auto [wk, bk] = kings.squares[size_t(pair)];
        const Square low = std::min(wk, bk), high = std::max(wk, bk);
        for (Bitboard b = squares & ~square_bb(wk) & ~square_bb(bk); b;)
            pair_digits_[size_t(pair)] |= uint64_t(1)
                                          << IndexScheme::digit_square(pop_lsb(b), piece.type, low, high);
    }
    if (count_ == 1 || count_ > MAX_TOLD) return;
    rank_digits_.resize(scheme.digit_radices()[digit_]);
    for (uint64_t r = 0; r < rank_digits_.size(); ++r)
        rank_digits_[r] = IndexScheme::combination_digits(count_, r);
}

}  // namespace retro
