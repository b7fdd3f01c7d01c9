// Values: distance to mate in plies for the side to move.
//
// An odd n is a win in n plies, an even n a loss in n plies (0 = checkmated), DTM_DRAW a draw
// (and the value of index holes). Sixteen bits hold mates of up to 65534 plies: the longest known
// mates are 254 plies for five men (KPPvKP), 523 for six (KRNvKNN) and 1097 for seven.
#pragma once

#include <cstdint>
#include <string>

namespace retro {

using Dtm = uint16_t;
constexpr Dtm DTM_DRAW = 0xFFFF;
constexpr Dtm DTM_MAX = 0xFFFE;

constexpr bool is_win(Dtm v) { return v <= DTM_MAX && (v & 1); }
constexpr bool is_loss(Dtm v) { return v <= DTM_MAX && !(v & 1); }
constexpr bool is_draw(Dtm v) { return v > DTM_MAX; }

// The mover's value of a move that leads to a position worth `next` to the opponent.
constexpr Dtm value_through(Dtm next) { return is_draw(next) ? DTM_DRAW : Dtm(next + 1); }
// The inverse: the opponent's value of the position a move leads to, from the move's value.
constexpr Dtm value_after(Dtm move_value) { return is_draw(move_value) ? DTM_DRAW : Dtm(move_value - 1); }
static_assert(value_after(value_through(12)) == 12 && value_after(value_through(DTM_DRAW)) == DTM_DRAW);
// Orders values for the side to move: quick wins first, then draws, slow losses before quick ones.
constexpr int preference(Dtm v) {
    if (is_win(v)) return (1 << 17) - v;
    if (is_loss(v)) return -(1 << 17) + v;
    return 0;
}
constexpr bool better(Dtm a, Dtm b) { return preference(a) > preference(b); }
static_assert(better(DTM_MAX - 1, DTM_DRAW) && better(DTM_DRAW, DTM_MAX) && better(1, DTM_MAX - 1));

// The value as lichess's tablebase API gives it: the category and the distance in signed plies,
// positive for a win, negative for a loss, 0 when checkmated or drawn.
constexpr const char* category(Dtm v) { return is_win(v) ? "win" : is_loss(v) ? "loss" : "draw"; }
constexpr int signed_dtm(Dtm v) { return is_win(v) ? int(v) : is_loss(v) ? -int(v) : 0; }
static_assert(signed_dtm(13) == 13 && signed_dtm(18) == -18 && signed_dtm(0) == 0 &&
              signed_dtm(DTM_DRAW) == 0);
static_assert(category(13)[0] == 'w' && category(0)[0] == 'l' && category(DTM_DRAW)[0] == 'd');

// "win 19", "loss 0", "draw".
inline std::string describe(Dtm v) {
    if (is_draw(v)) return "draw";
    return (is_win(v) ? "win " : "loss ") + std::to_string(v);
}

}  // namespace retro
