// The promotion pass, after the first pass: pawns that promote leave for the table with a queen,
// rook, bishop or knight in their place (a smaller one when they capture as they promote), which
// gives win bounds or never-lost marks, as captures do. A position that can promote takes all its
// exits here, the others in the first pass.
#pragma once

#include "solve/scheme_context.hpp"

namespace retro {

// Visits the entries with a pawn of the side to move on its seventh rank. Stops early, leaving
// blocks unvisited, once a stop is requested.
void promotion_pass(SchemeContext& c);

}  // namespace retro
