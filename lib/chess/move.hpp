// A move, its application to a position, and UCI notation.
#pragma once

#include <array>
#include <cassert>
#include <string>

#include "chess/position.hpp"

namespace retro {

// Trivially constructible so that move lists cost nothing to create.
struct Move {
    Move() = default;
    constexpr Move(Square f, Square t, PieceType promo = NO_PIECE_TYPE, bool capt = false, bool ep = false)
        : from(f), to(t), promotion(promo), capture(capt), en_passant(ep) {}
    Square from, to;
    PieceType promotion;
    bool capture;
    bool en_passant;
    friend bool operator==(const Move&, const Move&) = default;
};

// Enough for any legal position (the maximum is 218).
struct MoveList {
    std::array<Move, 256> moves;
    int size = 0;
    void push(const Move& m) {
        assert(size < int(moves.size()));
        moves[size++] = m;
    }
    const Move* begin() const { return moves.data(); }
    const Move* end() const { return moves.data() + size; }
};

// Whether m captures (en passant too, which Move::capture does not count) or promotes; or does that
// or moves a pawn, in pos.
inline bool captures_or_promotes(const Move& m) {
    return m.capture || m.en_passant || m.promotion != NO_PIECE_TYPE;
}
inline bool captures_or_moves_pawn(const Position& pos, const Move& m) {
    return captures_or_promotes(m) || pos.type_on(m.from) == PAWN;
}
// Whether m, a pawn's move that captures nothing, advances two ranks.
inline bool is_double_push(const Move& m) { return (m.to ^ m.from) == 16; }

// Plays m (assumed legal) and returns the new position. After a double push the en passant square
// is set only when an en passant capture is legal, so equal positions compare equal.
Position make_move(const Position& pos, const Move& m);

std::string to_uci(const Move& m);

}  // namespace retro
