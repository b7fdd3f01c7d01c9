/* retrograde: probing chess endgame tables (DTM) from C and C++.
 *
 * Open a directory of table files written by tbgen, then ask for the value of a position (distance
 * to mate in plies for the side to move), its best move, or the value of every legal move. A
 * position is a FEN or a set of bitboards. Values ignore the 50-move rule.
 *
 * Threads: one handle may be used by any number of threads at once; only retro_close must not
 * overlap another call with the same handle.
 * Errors: every function returns a retro_status; after a call that failed, retro_last_error()
 * says why, in words, on the same thread. No C++ exception leaves the library.
 * Ownership: retro_open allocates the handle and retro_close frees it. Every other buffer
 * (positions, moves, results) belongs to the caller. docs/c-api.md has examples. */
#ifndef RETROGRADE_H
#define RETROGRADE_H

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define RETRO_API __attribute__((visibility("default")))
#else
#define RETRO_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef enum retro_status {
    RETRO_OK = 0,
    RETRO_ERR_ARGUMENT = 1,         /* a null pointer or a value out of range */
    RETRO_ERR_DIRECTORY = 2,        /* retro_open: no such directory, or not a directory */
    RETRO_ERR_BAD_FEN = 3,          /* not a FEN of a legal position without castling rights */
    RETRO_ERR_BAD_POSITION = 4,     /* bitboards that do not make a legal position */
    RETRO_ERR_TOO_MANY_MEN = 5,     /* more men than any table holds */
    RETRO_ERR_MISSING_TABLE = 6,    /* the position's table is not in the directory */
    RETRO_ERR_CORRUPTED = 7,        /* a table file that cannot be read: corrupted, or sub-tables missing */
    RETRO_ERR_NO_MOVE = 8,          /* retro_best_move: checkmate or stalemate, no legal move */
    RETRO_ERR_BUFFER_TOO_SMALL = 9, /* retro_moves: the array has too few elements */
    RETRO_ERR_NO_MEMORY = 10,
    RETRO_ERR_INTERNAL = 11 /* a bug: please report it with the message */
} retro_status;

/* Distance to mate for the side to move, in plies: an odd dtm is a win in dtm plies, an even one a
 * loss in dtm plies (0: checkmated), RETRO_DTM_DRAW a draw. wdl says the same in three values. */
#define RETRO_DTM_DRAW 0xFFFF
enum { RETRO_LOSS = -1, RETRO_DRAW = 0, RETRO_WIN = 1 };
typedef struct retro_value {
    unsigned dtm;
    int wdl;
} retro_value;

/* Squares are numbered a1 = 0, b1 = 1, ..., h1 = 7, a2 = 8, ..., h8 = 63; bit n of a bitboard is
 * square n. */
enum { RETRO_WHITE = 0, RETRO_BLACK = 1 };
typedef struct retro_position {
    uint64_t white, black; /* the squares of each side's men */
    uint64_t kings, queens, rooks, bishops, knights, pawns;
    int side_to_move; /* RETRO_WHITE or RETRO_BLACK */
    int ep_square;    /* the square behind a pawn just pushed two, or 0 for none */
} retro_position;

typedef struct retro_move {
    int from, to;      /* squares */
    char promotion;    /* 'q', 'r', 'b', 'n', or 0 */
    char uci[6];       /* "h1c6", "e7e8q": NUL-terminated */
    retro_value value; /* for the side to move before the move: win 13 = this move mates in 13 plies */
} retro_move;

/* Enough moves for any position. */
#define RETRO_MAX_MOVES 256

typedef struct retro_tablebase retro_tablebase;

/* "0.1.0" */
RETRO_API const char* retro_version(void);
/* Why the last call on this thread that failed did so ("no table for KQBvK in tables"); "" after a
 * call that succeeded. Valid until the next call on this thread. */
RETRO_API const char* retro_last_error(void);
/* A fixed description of a status ("missing table"). */
RETRO_API const char* retro_status_text(retro_status status);

/* Opens the tables of directory dir, keeping up to cache_bytes of decompressed blocks (0: the
 * default, 64 MiB). Files are read when first needed, so a corrupted file shows at its first
 * probe. */
RETRO_API retro_status retro_open(const char* dir, size_t cache_bytes, retro_tablebase** out);
RETRO_API void retro_close(retro_tablebase* tb); /* null is fine */

/* The bitboards of a FEN ("8/8/8/4k3/8/8/8/4K2Q w - - 0 1"; the move counters may be left out). */
RETRO_API retro_status retro_parse_fen(const char* fen, retro_position* out);

/* The value of the position for its side to move. */
RETRO_API retro_status retro_probe(const retro_tablebase* tb, const retro_position* pos, retro_value* out);
RETRO_API retro_status retro_probe_fen(const retro_tablebase* tb, const char* fen, retro_value* out);

/* The best move: the quickest win, else a draw, else the longest resistance; among equally good
 * moves the first in UCI order. Its value is the position's. RETRO_ERR_NO_MOVE when there is none. */
RETRO_API retro_status retro_best_move(const retro_tablebase* tb, const retro_position* pos, retro_move* out);
RETRO_API retro_status retro_best_move_fen(const retro_tablebase* tb, const char* fen, retro_move* out);

/* Every legal move with its value, best first (the first is retro_best_move's), into moves[0..
 * *count). capacity is the number of elements of moves (RETRO_MAX_MOVES always suffices); when it
 * is too small, RETRO_ERR_BUFFER_TOO_SMALL with *count set to the number needed (moves may be
 * null when capacity is 0, to ask for that number). */
RETRO_API retro_status retro_moves(const retro_tablebase* tb, const retro_position* pos, retro_move* moves,
                                   size_t capacity, size_t* count);
RETRO_API retro_status retro_moves_fen(const retro_tablebase* tb, const char* fen, retro_move* moves,
                                       size_t capacity, size_t* count);

#ifdef __cplusplus
}
#endif

#endif /* RETROGRADE_H */
