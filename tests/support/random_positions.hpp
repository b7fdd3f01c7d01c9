// Random legal positions of a material, for tests that check a fast path against its slow reference
// position by position, as perft checks move generation.
#pragma once

#include <random>
#include <string>
#include <vector>

#include "chess/movegen.hpp"
#include "index/material.hpp"

namespace retro::test {

// A generator seeded from a name, so that each material draws its own fixed sequence.
inline std::mt19937_64 seeded_rng(const std::string& name) {
    std::seed_seq seed(name.begin(), name.end());
    return std::mt19937_64(seed);
}

// Puts `piece` on a random empty square of `allowed`.
inline void put_at_random(Position& pos, Piece piece, Bitboard allowed, std::mt19937_64& rng) {
    Bitboard free = allowed & ~pos.occupied();
    for (int n = std::uniform_int_distribution<int>(0, popcount(free) - 1)(rng); n > 0; --n) free &= free - 1;
    pos.put(piece, lsb(free));
}

// Adds the men of m that pos does not hold yet on random empty squares outside `keep_empty`,
// kings first, pawns on ranks 2-7.
inline void add_missing_men(Position& pos, const Material& m, Bitboard keep_empty, std::mt19937_64& rng) {
    for (Color c : {WHITE, BLACK})
        for (int t = 0; t < PIECE_TYPE_COUNT; ++t)
            for (int k = popcount(pos.pieces(c, PieceType(t))); k < m.count(c, PieceType(t)); ++k)
                put_at_random(pos, {c, PieceType(t)}, ~keep_empty & (t == PAWN ? PAWN_RANKS : ~Bitboard(0)),
                              rng);
}

// Kings::OnDiagonal puts both kings on the a1-h8 diagonal, where the pawnless index also folds the
// board along that diagonal and moves may re-orient it.
enum class Kings { Anywhere, OnDiagonal };

// A random legal position of m with a random side to move and no en passant right.
inline Position random_position(const Material& m, std::mt19937_64& rng, Kings kings = Kings::Anywhere) {
    constexpr Bitboard A1_H8 = 0x8040201008040201ULL;
    for (;;) {
        Position pos;
        if (kings == Kings::OnDiagonal)
            for (Color c : {WHITE, BLACK}) put_at_random(pos, {c, KING}, A1_H8, rng);
        add_missing_men(pos, m, 0, rng);
        pos.set_side_to_move(Color(rng() & 1));
        if (pos.illegality().empty()) return pos;
    }
}

// A random legal position of m just after a double push, with an en passant capture to play.
// m must have a pawn of each colour.
inline Position random_en_passant_position(const Material& m, std::mt19937_64& rng) {
    for (;;) {
        Position pos;
        const Color us = Color(rng() & 1);
        const int file = int(rng() % 8), capturer_file = file + ((rng() & 1) ? 1 : -1);
        if (capturer_file < 0 || capturer_file > 7) continue;
        const Square pushed = make_square(file, us == WHITE ? 4 : 3), ep = pushed + pawn_push(us);
        pos.put({~us, PAWN}, pushed);
        pos.put({us, PAWN}, make_square(capturer_file, rank_of(pushed)));
        add_missing_men(pos, m, square_bb(ep) | square_bb(ep + pawn_push(us)), rng);
        pos.set_side_to_move(us);
        pos.set_ep_square(ep);
        if (pos.illegality().empty() && has_legal_ep_capture(pos)) return pos;
    }
}

// Where sample_positions may draw from.
enum class EnPassant { Excluded, Included };

// `count` random legal positions of m from a fixed seed: one in four with both kings on the
// diagonal and, when both sides have pawns and en passant is included, one in four just after a
// double push that grants an en passant capture.
inline std::vector<Position> sample_positions(const Material& m, int count, EnPassant ep) {
    auto rng = seeded_rng(m.name());
    const bool with_ep = ep == EnPassant::Included && m.count(WHITE, PAWN) && m.count(BLACK, PAWN);
    std::vector<Position> out;
    for (int i = 0; i < count; ++i) {
        if (with_ep && i % 4 == 1)
            out.push_back(random_en_passant_position(m, rng));
        else
            out.push_back(random_position(m, rng, i % 4 == 0 ? Kings::OnDiagonal : Kings::Anywhere));
    }
    return out;
}

}  // namespace retro::test
