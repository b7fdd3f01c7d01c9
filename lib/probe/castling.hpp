// Castling in what a GUI sends: the tables hold no castling positions, but a game from the start
// may castle on its way into them, and some GUIs send castling rights with any position.
#pragma once

#include <optional>
#include <string>

#include "chess/position.hpp"

namespace retro {

// Castling as a GUI sends it (e1g1, e8c8): the king two files along its first rank, the rook jumping
// over it. Empty when uci is not such a move here.
std::optional<Position> castled(const Position& pos, const std::string& uci);

// The castling rights among `rights` (a FEN field such as "KQkq") whose king and rook still stand
// on their first squares.
std::string usable_castling(const Position& pos, const std::string& rights);

}  // namespace retro
