// Playing against the tables in a terminal: the user takes one side, the tables the other.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "probe/tablebase.hpp"

namespace retro {

// The board in ASCII, rank 8 at the top, files a..h below; white pieces upper case, black lower
// case, empty squares '.'. Ends with a newline.
std::string board_diagram(const Position& pos);

// Why the game is over, or "" while it goes on: checkmate, stalemate, insufficient material (no
// pawn, queen or rook and at most one minor piece, or only bishops all on squares of one colour),
// threefold repetition among `history` (the earlier positions of the game, pos not included).
std::string game_over_reason(const Position& pos, const std::vector<Position>& history = {});

enum class GameResult { WhiteWins, BlackWins, Draw, Quit, Stopped };

// A game from `start`: the user plays `human`, the tables the other side, perfectly. Reads moves
// (SAN or UCI) and commands (help, board, hint, moves, line, fen, undo, quit) line by line from in;
// illegal input is refused with the reason and the game goes on. Shows the board and the distance
// to mate after each move. Returns at the end of the game, on "quit" or at the end of input
// (Quit), or when the tables cannot answer (Stopped, with the reason shown).
GameResult play_game(const Tablebase& tables, const Position& start, Color human, std::istream& in,
                     std::ostream& out);

}  // namespace retro
