// The solver's knowledge of one index entry and side to move, in one byte.
//
// An undecided entry needs its counter (how many of its quiet moves are not yet known to lose), a
// decided one its distance, and only until the layer of that distance is swept: after that the
// distance is in the layer log (solve/layer_log.hpp) and the byte needs to say only "won" or "lost".
// So the byte holds either a counter or a distance within a window of plies ahead of the sweep,
// which lets both sides to move share 2 bytes per entry, whatever the longest mate. The pending
// codes are taken modulo the window's size, so one code serves plies p, p + size, ...
#pragma once

#include <cassert>
#include <cstdint>

namespace retro::state {

using Code = uint8_t;

// 0..COUNTER_MAX: undecided, with that many quiet moves still able to hold.
constexpr Code COUNTER_MAX = 126;
// Undecided, its quiet moves not counted yet: the first count-down that reaches it counts them
// (solve/first_pass.hpp, side_counted_late).
constexpr Code UNCOUNTED = 127;
// Undecided, and never lost: a move keeps a draw in hand, or there is no move (stalemate, hole).
constexpr Code NEVER_LOST = 128;
// Won or lost, in more plies than the window reaches; the distance is derived again from the
// entry's exits when the window comes near it (refresh_far, solve/scheme_solver.cpp).
constexpr Code FAR_WIN = 129;
constexpr Code FAR_LOSS = 130;
// Won or lost in fewer plies than the layer being swept: the distance is in the layer log.
constexpr Code DONE_WIN = 131;
constexpr Code DONE_LOSS = 132;
// Won or lost in p plies, for p in [n, n + size) while layer n is swept: PENDING + p % size.
constexpr Code PENDING = 133;
constexpr int WIDEST_WINDOW = 256 - PENDING;

constexpr bool undecided(Code c) { return c <= UNCOUNTED; }
constexpr bool pending(Code c) { return c >= PENDING; }

// The plies ahead of the sweep whose distances the codes hold. Tests narrow it, so that every
// table of a few men exercises the far codes.
class Window {
public:
    explicit constexpr Window(int size = WIDEST_WINDOW) : size_(size) {
        assert(size >= 2 && size <= WIDEST_WINDOW);
    }
    int size() const { return size_; }
    // The far distances are derived again every refresh() plies, so each reaches the window in time.
    int refresh() const { return size_ / 2; }
    Code code(int ply) const { return Code(PENDING + ply % size_); }
    // The distance of a pending code while layer n is swept.
    int ply(Code c, int n) const {
        assert(pending(c));
        return n + (int(c - PENDING) - n % size_ + size_) % size_;
    }
    // Whether a distance of `ply` plies fits the window while layer n is swept.
    bool fits(int ply, int n) const { return ply < n + size_; }

private:
    int size_;
};

}  // namespace retro::state
