#include "index/board_walk.hpp"

#include <cassert>

namespace retro {

BoardWalk::BoardWalk(const IndexScheme& scheme)
    : scheme_(scheme),
      stepping_(scheme.fastest_slot()),
      stepper_(stepping_ >= 0 ? scheme.piece_of_slot(stepping_) : Piece{}) {}

BoardWalk::Placed BoardWalk::place(const IndexCursor& cursor) {
    assert(cursor.valid() && cursor.stepped_slot() == stepping_);
    const Placement& p = cursor.placement();
    if (stepping_ < 0) {
        board_ = scheme_.to_position(p);
        attacks_.emplace(board_);
        return Placed::NewRun;
    }
    const Square square = p.square[size_t(stepping_)];
    const Placed placed =
        rest_attacks_ && cursor.placements() == run_placements_ ? Placed::InRun : Placed::NewRun;
    if (placed == Placed::NewRun) {
        run_placements_ = cursor.placements();
        rest_ = scheme_.to_position(p);
        rest_.remove(square);
        rest_attacks_.emplace(rest_);
        attacks_ = rest_attacks_;
    }
    board_ = rest_;
    board_.put(stepper_, square);
    assert(board_ == scheme_.to_position(p));
    attacks_->place_added(board_, *rest_attacks_, stepper_, square);
    return placed;
}

}  // namespace retro
