// Un-move generation: the non-capturing moves that lead *into* a position. Captures and promotions
// change the material and so come from another table; they are not un-moves here.
#pragma once

#include "chess/move.hpp"

namespace retro {

// Whose un-moves: every man's, or only the kings' and pieces' (a pawn's step back leaves a slice of
// a pawn table, so the solver never follows one).
enum class Unmoves { All, PiecesOnly };

// Appends every move m of the side that just moved (not the side to move in `pos`) such that
// playing m in predecessor(pos, m) gives `pos`, and the predecessor is legal (its side not to move
// is not in check). A position with an en passant square only has the double push that made it.
void generate_unmoves(const Position& pos, MoveList& list, Unmoves which = Unmoves::All);

// The position before `m` (a move from generate_unmoves) was played. It has no en passant square.
Position predecessor(const Position& pos, const Move& m);

}  // namespace retro
