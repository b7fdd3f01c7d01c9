// Move notation: SAN (Standard Algebraic Notation) for output, SAN or UCI for input.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "chess/move.hpp"

namespace retro {

// SAN of a legal move m in pos: piece letter (none for pawns), the file and/or rank of the origin
// when another piece of the same kind could go to the same square, 'x' for captures (a pawn names
// its file: exd6, en passant too), "=Q" for promotions, '+' for check and '#' for checkmate.
std::string to_san(const Position& pos, const Move& m);

// The moves played one after another from pos, numbered: "1. Qd5+ Kc4 2. Qb5+" or, with Black to
// move first, "1... Kc4 2. Qb5+".
std::string san_line(const Position& pos, const std::vector<Move>& moves);
// "d1d5 d4c4 d5b5"
std::string uci_line(const std::vector<Move>& moves);

// A move read from the user: the move, or why there is none.
struct ParsedMove {
    std::optional<Move> move;
    std::string error;  // when move is empty: "ambiguous: ...", "no piece on e3", ...
    explicit operator bool() const { return move.has_value(); }
};

// Reads a move of the side to move given in SAN (Nf3, exd5, Rad1, e8=Q, e8Q, Qh4xe1+, Ng1-f3) or UCI
// (g1f3, e7e8q) and matches it against the legal moves. Check and annotation marks (+ # ! ?) are
// optional and not checked; an 'x' is optional but must not be given for a quiet move. Never throws.
ParsedMove parse_move(const Position& pos, std::string_view text);

}  // namespace retro
