// The boards of entries walked in index order, each with its attacks (chess/movegen.hpp), for the
// solver's first pass. Along a run of entries in which only the fastest lone man moves, the board
// less him and its attacks are kept: each entry adds him, and looks up his attacks and those of the
// sliders he blocks.
#pragma once

#include <cstdint>
#include <optional>

#include "chess/movegen.hpp"
#include "index/index_cursor.hpp"
#include "index/index_scheme.hpp"

namespace retro {

class BoardWalk {
public:
    explicit BoardWalk(const IndexScheme& scheme);

    // Places the cursor's placement, a valid one of the scheme: its board (white to move, no en
    // passant square) and the board's attacks. Every call passes the same cursor, walking in index
    // order. Says whether the placement is in the run of the one before: the cursor has placed the
    // other men no more since.
    enum class Placed { InRun, NewRun };
    Placed place(const IndexCursor& cursor);
    // The slot of the man who alone moves along a run, or -1 when each placement is a run.
    int stepping_slot() const { return stepping_; }
    const Position& board() const { return board_; }
    const BoardAttacks& attacks() const { return *attacks_; }

private:
    const IndexScheme& scheme_;
    const int stepping_;  // the fastest lone man's slot, or -1 when the fastest digit ranks several
    const Piece stepper_;
    uint64_t run_placements_ = 0;  // the cursor's count of placements when the run kept began
    Position rest_;
    std::optional<BoardAttacks> rest_attacks_;  // none before the first run
    Position board_;
    std::optional<BoardAttacks> attacks_;  // the rest's, copied once a run, the stepping man placed on them
};

}  // namespace retro
