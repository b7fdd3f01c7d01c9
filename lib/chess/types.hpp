// Basic chess vocabulary: colours, piece types, squares.
#pragma once

#include <cstdint>
#include <string>

namespace retro {

enum Color : uint8_t { WHITE = 0, BLACK = 1 };
constexpr Color operator~(Color c) { return Color(c ^ 1); }
// How messages name a side: "white" within a sentence, "White" at its start.
constexpr const char* color_name(Color c) { return c == WHITE ? "white" : "black"; }
constexpr const char* color_title(Color c) { return c == WHITE ? "White" : "Black"; }

// Ordered by strength so that material strings sort as Syzygy names them.
enum PieceType : uint8_t { KING = 0, QUEEN, ROOK, BISHOP, KNIGHT, PAWN, NO_PIECE_TYPE };
constexpr int PIECE_TYPE_COUNT = 6;

struct Piece {
    Color color;
    PieceType type;
    friend bool operator==(const Piece&, const Piece&) = default;
};

// a1 = 0, b1 = 1, ..., h8 = 63. A type of its own, so that a file, rank, index or count is not taken
// for a square; an offset added to a square (s + 8, s - pawn_push(c)) gives a square.
enum Square : int8_t { SQ_A1 = 0, SQ_H8 = 63, NO_SQUARE = -1 };
constexpr Square operator+(Square s, int d) { return Square(int(s) + d); }
constexpr Square operator-(Square s, int d) { return Square(int(s) - d); }
constexpr Square& operator++(Square& s) { return s = s + 1; }
// A square on the board; what the debug assertions check before a square indexes a table.
constexpr bool is_ok(Square s) { return s >= 0 && s < 64; }

constexpr int file_of(Square s) { return s & 7; }
constexpr int rank_of(Square s) { return s >> 3; }
constexpr Square make_square(int file, int rank) { return Square(rank * 8 + file); }
// The same square seen from the other side: the rank mirrored (a1 <-> a8).
constexpr Square flip_rank(Square s) { return Square(s ^ 56); }
constexpr bool on_board(int file, int rank) { return file >= 0 && file < 8 && rank >= 0 && rank < 8; }

// Rank counted from the given side's first rank (0..7).
constexpr int relative_rank(Color c, Square s) { return c == WHITE ? rank_of(s) : 7 - rank_of(s); }
// One step forward for a pawn of the given colour.
constexpr int pawn_push(Color c) { return c == WHITE ? 8 : -8; }

char piece_letter(PieceType t);            // upper-case: K Q R B N P
PieceType piece_type_from_letter(char c);  // case-insensitive; NO_PIECE_TYPE when unknown
std::string square_name(Square s);
Square parse_square(const std::string& s);  // NO_SQUARE when malformed

}  // namespace retro
