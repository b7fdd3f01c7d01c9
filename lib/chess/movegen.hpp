// Legal move generation (no castling: tablebase positions have none).
#pragma once

#include <array>
#include <cassert>

#include "chess/move.hpp"

namespace retro {

// Appends every legal move of the side to move: all four promotions, double pushes, en passant.
void generate_legal_moves(const Position& pos, MoveList& list);

// Appends the legal moves that leave a table: captures and promotions (en passant aside, which the
// positions of an index never allow), in the order generate_legal_moves lists them.
void generate_legal_exits(const Position& pos, MoveList& list);

// The squares the men of c attack.
Bitboard attacks_by(const Position& pos, Color c);

// Appends the legal captures and pawn moves (all of them: the moves that leave a slice of a pawn
// table), in the order generate_legal_moves lists them.
void generate_legal_captures_and_pawn_moves(const Position& pos, MoveList& list);

// The legal moves in summary, for callers that only need to count most of them: the quiet moves of
// the pieces other than the king given as each piece's targets, and the king's as his; the moves
// that leave a pawn slice (captures, promotions and pawn pushes) listed.
struct PieceTargets {
    Square from;
    Bitboard to;
};
struct MoveSummary {
    // One side has at most five pieces besides its king in 7 men.
    static constexpr int MAX_PIECES = 5;
    std::array<PieceTargets, MAX_PIECES> piece_targets;  // of the pieces (not kings, not pawns)
    int pieces = 0;
    Bitboard king_targets = 0;  // the squares of the king's quiet moves
    MoveList exits;             // captures, promotions and pushes

    void add_piece_targets(Square from, Bitboard to) {
        assert(pieces < MAX_PIECES);
        piece_targets[size_t(pieces++)] = {from, to};
    }
    int quiet_moves() const {
        int n = popcount(king_targets);
        for (int i = 0; i < pieces; ++i) n += popcount(piece_targets[size_t(i)].to);
        return n;
    }
    // The targets of the quiet moves of the man on `from`, `king` being the square of the king of the
    // side to move: none when the man has none, or is no man of that side.
    Bitboard quiet_targets(Square from, Square king) const {
        if (from == king) return king_targets;
        for (int i = 0; i < pieces; ++i)
            if (piece_targets[size_t(i)].from == from) return piece_targets[size_t(i)].to;
        return 0;
    }
};

// The attacks of every man of a board, looked up once for both sides to move: the first pass asks
// which side may move (the other is not in check) and the summary of each side's moves.
class BoardAttacks {
public:
    explicit BoardAttacks(const Position& pos);
    // Makes these the attacks of pos, the board of `without` with one more man, `added` on `square`.
    // `without` is constructed from its board, not made by this call. These must be a copy of it, or
    // what the call before made them with the same `without` and `added`: only the sliders whose
    // lines reach the square are looked up again, and those the call before looked up are copied
    // back from `without`.
    void place_added(const Position& pos, const BoardAttacks& without, Piece added, Square square);
    // Whether the king of c is attacked: the board is an entry with ~c to move only when it is not.
    bool in_check(Color c) const { return checkers_[c] != 0; }
    // The men of ~c that attack the king of c.
    Bitboard checkers(Color c) const { return checkers_[c]; }
    // The squares the men of c attack.
    Bitboard attacked(Color c) const { return attacked_[c]; }
    // The squares the man on s attacks (a pawn's captures), s occupied.
    Bitboard of(Square s) const {
        assert(occupied_ & square_bb(s));
        return attacks_[s];
    }
    // The squares the men of c attack with the king of ~c lifted off the board: where it may not go.
    Bitboard king_danger(const Position& pos, Color c) const;

private:
    // Each side's attacked squares and checkers, from the attacks of the men.
    void gather(const Position& pos);

    Bitboard occupied_;
    Bitboard cut_ = 0;           // the sliders that place_added looked up again: the added man blocks them
    Bitboard slider_reach_ = 0;  // the squares the sliders attack, as constructed: where a man may cut one
    std::array<Bitboard, 2> attacked_{}, checkers_{};
    std::array<Bitboard, 64> attacks_;  // by square, set for the occupied squares only
};

// Fills s and returns true when the side to move has no pinned pawn and no en passant right (then
// every listed or counted move is legal, in check too); returns false otherwise, and the caller
// generates the moves one by one. `attacks` are pos's.
bool summarize_legal_moves(const Position& pos, const BoardAttacks& attacks, MoveSummary& s);

// Fills s from the legal moves generated one by one: any position, en passant and pinned pawns too.
void list_legal_moves(const Position& pos, MoveSummary& s);

// True when the side to move has at least one legal move.
bool has_legal_move(const Position& pos);

// True when the side to move can legally capture en passant.
bool has_legal_ep_capture(const Position& pos);

}  // namespace retro
