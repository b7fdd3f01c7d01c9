// Legal move generation (no castling: tablebase positions have none).
#pragma once

#include "chess/move.hpp"

namespace retro {

// Appends every legal move of the side to move: all four promotions, double pushes, en passant.
void generate_legal_moves(const Position& pos, MoveList& list);

// True when the side to move has at least one legal move.
bool has_legal_move(const Position& pos);

// True when the side to move can legally capture en passant.
bool has_legal_ep_capture(const Position& pos);

}  // namespace retro
