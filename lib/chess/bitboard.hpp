// Bitboards and attack tables. Sliding attacks are looked up by occupancy: through PEXT where it is
// fast, else through magic bitboards whose magics are found at start-up with a fixed seed, so every
// run builds identical tables.
#pragma once

#include <bit>
#include <cassert>
#include <cstdint>

// AMD's processors before Zen 3 run PEXT and PDEP in microcode, slower than a magic multiply.
// RETRO_NO_PEXT (CMake's RETRO_PEXT=OFF) keeps the magics, so that a test build can check them.
#if defined(__BMI2__) && !defined(__znver1__) && !defined(__znver2__) && !defined(RETRO_NO_PEXT)
#include <immintrin.h>
#define RETRO_PEXT_ATTACKS 1
#else
#define RETRO_PEXT_ATTACKS 0
#endif

#include "chess/types.hpp"

namespace retro {

using Bitboard = uint64_t;

// Debug builds assert the invariants (square on the board, a piece where one must be) at the
// lookups that would otherwise read out of bounds; release builds (NDEBUG) pay nothing.
constexpr Bitboard square_bb(Square s) {
    assert(is_ok(s));
    return Bitboard(1) << s;
}
constexpr Bitboard RANK_1 = 0xFFULL;
constexpr Bitboard RANK_8 = RANK_1 << 56;
constexpr Bitboard PAWN_RANKS = ~(RANK_1 | RANK_8);  // pawns may stand on ranks 2-7 only
// The rank a pawn of c promotes from.
constexpr Bitboard seventh_rank(Color c) { return c == WHITE ? RANK_8 >> 8 : RANK_1 << 8; }

// The a-file to the h-file: the bits of each byte reversed.
constexpr Bitboard mirror_files(Bitboard b) {
    b = ((b >> 1) & 0x5555555555555555ULL) | ((b & 0x5555555555555555ULL) << 1);
    b = ((b >> 2) & 0x3333333333333333ULL) | ((b & 0x3333333333333333ULL) << 2);
    return ((b >> 4) & 0x0F0F0F0F0F0F0F0FULL) | ((b & 0x0F0F0F0F0F0F0F0FULL) << 4);
}

inline int popcount(Bitboard b) { return std::popcount(b); }
inline Square lsb(Bitboard b) {
    assert(b);
    return Square(std::countr_zero(b));
}
inline Square pop_lsb(Bitboard& b) {
    const Square s = lsb(b);
    b &= b - 1;
    return s;
}

namespace detail {
#if RETRO_PEXT_ATTACKS
// An attack set as the bits of its slider's rays (PEXT by `rays`): a rook's table shrinks from
// 800 KiB to 200 KiB, which stays in the level-2 cache beside the tables being solved.
using AttackEntry = uint16_t;
#else
using AttackEntry = Bitboard;
#endif
// A slider's attacks from one square, by the occupancy of the squares that can block it.
struct Magic {
    Bitboard mask;   // the squares that can block: the rays without their last square
    Bitboard rays;   // every square the slider attacks on an empty board
    Bitboard magic;  // the multiplier of the magic lookup (unused with PEXT)
    const AttackEntry* attacks;
    unsigned shift;
    unsigned offset(Bitboard occupied) const {
#if RETRO_PEXT_ATTACKS
        return unsigned(_pext_u64(occupied, mask));
#else
        return unsigned(((occupied & mask) * magic) >> shift);
#endif
    }
    Bitboard attacks_from(Bitboard occupied) const {
#if RETRO_PEXT_ATTACKS
        return _pdep_u64(attacks[offset(occupied)], rays);
#else
        return attacks[offset(occupied)];
#endif
    }
};
extern Magic ROOK_MAGICS[64];
extern Magic BISHOP_MAGICS[64];
extern Bitboard KING_ATTACKS[64];
extern Bitboard KNIGHT_ATTACKS[64];
extern Bitboard PAWN_ATTACKS[2][64];
extern Bitboard BETWEEN[64][64];
extern Bitboard LINE[64][64];
}  // namespace detail

// Builds the tables, once however often it is called and from however many threads (call_once).
void init_bitboards();

namespace detail {
// Every translation unit that includes this header builds the tables before its own namespace-scope
// variables are initialised: the order of static initialisation across translation units is
// unspecified, and one whose initialiser computes attacks could otherwise run first and read empty
// tables. Chosen over Stockfish's explicit init() in every main(): the tests and benchmarks use the
// library mains of GoogleTest and Google Benchmark, and any user of the library could forget it.
[[maybe_unused]] static const bool BITBOARDS_READY = (init_bitboards(), true);
}  // namespace detail

inline Bitboard king_attacks(Square s) {
    assert(is_ok(s));
    return detail::KING_ATTACKS[s];
}
inline Bitboard knight_attacks(Square s) {
    assert(is_ok(s));
    return detail::KNIGHT_ATTACKS[s];
}
// Squares a pawn of colour c on s attacks.
inline Bitboard pawn_attacks(Color c, Square s) {
    assert(is_ok(s));
    return detail::PAWN_ATTACKS[c][s];
}
inline Bitboard rook_attacks(Square s, Bitboard occupied) {
    assert(is_ok(s));
    return detail::ROOK_MAGICS[s].attacks_from(occupied);
}
inline Bitboard bishop_attacks(Square s, Bitboard occupied) {
    assert(is_ok(s));
    return detail::BISHOP_MAGICS[s].attacks_from(occupied);
}
// A rook's or bishop's attacks on an empty board: no lookup by occupancy.
inline Bitboard rook_rays(Square s) {
    assert(is_ok(s));
    return detail::ROOK_MAGICS[s].rays;
}
inline Bitboard bishop_rays(Square s) {
    assert(is_ok(s));
    return detail::BISHOP_MAGICS[s].rays;
}
// The squares strictly between a and b when they share a rank, file or diagonal; else empty.
inline Bitboard between(Square a, Square b) {
    assert(is_ok(a) && is_ok(b));
    return detail::BETWEEN[a][b];
}
// The whole rank, file or diagonal through a and b (both included); empty when not aligned.
inline Bitboard line_through(Square a, Square b) {
    assert(is_ok(a) && is_ok(b));
    return detail::LINE[a][b];
}
inline Bitboard queen_attacks(Square s, Bitboard occupied) {
    return rook_attacks(s, occupied) | bishop_attacks(s, occupied);
}
// Attacks of a non-pawn piece.
inline Bitboard piece_attacks(PieceType t, Square s, Bitboard occupied) {
    switch (t) {
        case KING:
            return king_attacks(s);
        case QUEEN:
            return queen_attacks(s, occupied);
        case ROOK:
            return rook_attacks(s, occupied);
        case BISHOP:
            return bishop_attacks(s, occupied);
        case KNIGHT:
            return knight_attacks(s);
        default:
            return 0;
    }
}

}  // namespace retro
