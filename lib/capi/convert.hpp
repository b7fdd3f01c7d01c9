// Between the C API's plain structs (include/retrograde.h) and the library's types.
#pragma once

#include "chess/move.hpp"
#include "retrograde.h"
#include "store/dtm.hpp"

namespace retro::capi {

// The position the bitboards describe. Throws PositionError when they overlap or disagree, or do
// not make a legal position.
Position to_position(const retro_position& bits);
retro_position to_bits(const Position& pos);

retro_value to_value(Dtm v);
// m with its value for the side to move before it.
retro_move to_move(const Move& m, Dtm value);

}  // namespace retro::capi
