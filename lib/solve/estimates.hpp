// What the solver allocates, estimated before it runs and kept beside the code that allocates it,
// so that the two change together: the job's memory plan (jobs/estimates.hpp) adds these up.
#pragma once

#include <cstdint>

#include "index/material.hpp"

namespace retro {

// The sweeps' state over a scheme of `entries` entries per side: a code per entry and side to move
// (solve/entry_state.hpp, allocated by the first pass) and a bit that says whether it has exits.
uint64_t sweep_state_bytes(uint64_t entries);

// How many of a pawn table's slices are solved at once by `threads` threads: a thread each where the
// slices are small enough to be solved in waves, else one (its loops are parallel themselves).
uint64_t slices_at_once(const Material& m, int threads);
// A bound over m's slices, solved `threads` at once, of the slices their pushes read back from the
// slice store: each pawn's single and double push reach a slice each, for one side to move.
uint64_t pushed_slices_bytes(const Material& m, int threads);
// The same of the promotions read in part (solve/promotions.hpp): each pawn on its seventh rank
// promotes four ways, a byte per entry of the slice each.
uint64_t promotions_in_part_bytes(const Material& m, int threads);
// The solved slices a batch of a wave holds until it ends (none where the slices are not solved in
// waves).
uint64_t wave_batch_bytes(const Material& m, int threads);

// Bytes on disk of a checkpoint of m's solve, an upper bound but for the log's record headers: the
// sweeps' state, and a byte per entry and side in the layer log (a gap of g entries takes at most g
// bytes, so a side's gaps take at most its entries); for a pawn table of its largest slice, with its
// slice store (the slices solved, compressed to less than half a byte per entry and side; KRPvKR's
// store: 138 MB, 0.21). On `ranks` ranks each holds its part of the state and log, and a slice store
// of its own: the store counts once per rank.
uint64_t checkpoint_bytes(const Material& m, int ranks);

}  // namespace retro
