// The boards of entries walked in index order, each with its attacks (chess/movegen.hpp), for the
// solver's first pass. Along a run of entries in which only the fastest lone man moves, the board
// less him and its attacks are kept: each entry adds him, and looks up his attacks and those of the
// sliders he blocks.
#pragma once

#include <cstdint>
#include <optional>

#include "chess/movegen.hpp"
#include "index/index_scheme.hpp"

namespace retro {

class BoardWalk {
public:
    explicit BoardWalk(const IndexScheme& scheme);

    // Places p, a valid placement of the scheme: its board (white to move, no en passant square)
    // and the board's attacks. Says whether p is in the run of the placement before.
    enum class Placed { InRun, NewRun };
    Placed place(const Placement& p);
    // The slot of the man who alone moves along a run, or -1 when each placement is a run.
    int stepping_slot() const { return stepping_; }
    const Position& board() const { return board_; }
    const BoardAttacks& attacks() const { return *attacks_; }

private:
    // Whether p's men other than the fastest lone man stand where they stood in the run kept. Read
    // a man at a time: a wider read of the placement the cursor has just written a byte of would
    // wait for that store.
    bool in_run(const Placement& p) const;

    const IndexScheme& scheme_;
    const int stepping_;  // the fastest lone man's slot, or -1 when the fastest digit ranks several
    const Piece stepper_;
    Placement run_;  // a placement of the run whose board less the stepping man is kept
    Position rest_;
    std::optional<BoardAttacks> rest_attacks_;  // none before the first run
    Position board_;
    std::optional<BoardAttacks> attacks_;  // the rest's, copied once a run, the stepping man placed on them
};

}  // namespace retro
