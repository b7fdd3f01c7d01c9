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

enum class GameResult { WhiteWins, BlackWins, Draw, Quit, Stopped };

// No pawn, queen or rook and at most one minor piece, or only bishops all on squares of one colour:
// neither side can ever mate.
bool insufficient_material(const Position& pos);

// Whether and how a game is over: checkmate, stalemate, insufficient material (no pawn, queen or
// rook and at most one minor piece, or only bishops all on squares of one colour), threefold
// repetition. The result and the words both follow from the kind, never the other way round.
struct GameEnd {
    enum class Kind { None, Checkmate, Stalemate, InsufficientMaterial, Repetition };
    Kind kind = Kind::None;
    Color mated = WHITE;  // for Checkmate

    bool over() const { return kind != Kind::None; }
    GameResult result() const;   // WhiteWins, BlackWins or Draw; only when over()
    std::string reason() const;  // "checkmate, White wins", ...; "" while the game goes on
};

// How the game stands at pos; `history` holds the earlier positions of the game (pos not
// included), for repetitions.
GameEnd game_end(const Position& pos, const std::vector<Position>& history = {});

// A game from `start`: the user plays `human`, the tables the other side, perfectly. Reads moves
// (SAN or UCI) and commands (help, board, hint, moves, line, fen, undo, quit) line by line from in;
// illegal input is refused with the reason and the game goes on. Shows the board and the distance
// to mate after each move. Returns at the end of the game, on "quit" or at the end of input
// (Quit), or when the tables cannot answer (Stopped, with the reason shown).
GameResult play_game(const Tablebase& tables, const Position& start, Color human, std::istream& in,
                     std::ostream& out);

}  // namespace retro
