// Stored values: distance to mate in plies for the side to move, one byte per position.
//
// An odd n is a win in n plies, an even n a loss in n plies (0 = checkmated), DTM_DRAW a draw
// (and the value of index holes). A byte holds distances up to 254 plies: enough for every table
// of up to five men (the longest, KPPvKP, mates in 254 plies).
#pragma once

#include <cstdint>
#include <string>

namespace retro {

using Dtm = uint8_t;
constexpr Dtm DTM_DRAW = 255;
constexpr Dtm DTM_MAX = 254;

constexpr bool is_win(Dtm v) { return v <= DTM_MAX && (v & 1); }
constexpr bool is_loss(Dtm v) { return v <= DTM_MAX && !(v & 1); }
constexpr bool is_draw(Dtm v) { return v > DTM_MAX; }

// The mover's value of a move that leads to a position worth `next` to the opponent.
constexpr Dtm value_through(Dtm next) { return is_draw(next) ? DTM_DRAW : Dtm(next + 1); }
// Orders values for the side to move: quick wins first, then draws, slow losses before quick ones.
constexpr int preference(Dtm v) {
    if (is_win(v)) return 1000 - v;
    if (is_loss(v)) return -1000 + v;
    return 0;
}
constexpr bool better(Dtm a, Dtm b) { return preference(a) > preference(b); }

// "win 19", "loss 0", "draw".
inline std::string describe(Dtm v) {
    if (is_draw(v)) return "draw";
    return (is_win(v) ? "win " : "loss ") + std::to_string(v);
}

}  // namespace retro
