// Checkpoints of a solve in progress: everything the layer sweeps need to go on after a restart.
// A pawn table is solved slice by slice, so its checkpoint also names the slice in progress and the
// part of its slice store that holds the slices solved before it. A table solved by several ranks
// has a checkpoint per rank, each of the entries that rank holds (index/rank_split.hpp).
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <vector>

#include "index/material.hpp"
#include "ranks/ranks.hpp"
#include "solve/entry_state.hpp"
#include "store/entry_bits.hpp"
#include "store/entry_bytes.hpp"

namespace retro {

// The state of the layer sweeps over one index scheme: a pawnless table, or one slice of a pawn table.
struct SweepState {
    int next_ply = 0;                 // the first ply not yet swept
    int max_value = 0;                // the largest distance assigned so far
    int window = 0;                   // the size of the window the pending codes are taken in
    std::array<EntryBytes, 2> codes;  // by side to move and index
    // The entries whose side to move has a move that leaves the scheme (the first pass finds them):
    // a count-down that reaches zero elsewhere is a loss in one ply more, with no move to weigh.
    EntryBits exits;
    uint64_t log_length = 0;  // the layer log's bytes that belong to this state
    uint64_t log_checksum = 0;
};

// The state of `entries` entries per side with nothing found yet: every code NEVER_LOST, no entry
// with exits. The codes are first touched by the pool's threads, as the sweeps touch them.
SweepState blank_sweep_state(uint64_t entries);

// The first bytes of a pawn table's slice store (store/slice_store.hpp), which hold the slices
// solved so far, and their checksum.
struct StoredSlices {
    uint64_t length = 0;
    uint64_t checksum = 0;
};

// Which rank's part of a solve a checkpoint holds: rank 0 of 1 for one process.
struct RankPart {
    int rank = 0;
    int ranks = 1;
    bool operator==(const RankPart&) const = default;
};

struct Checkpoint {
    RankPart part;
    int slice = 0;  // the slice in progress, in pawn_configs order (0 for a pawnless table)
    // The sweeps of that slice (or of the pawnless table); nullopt when the slice has not begun.
    std::optional<SweepState> state;
    StoredSlices solved;  // a pawn table's slices solved before `slice`
};

// Whether a checkpoint is due: when it is at any rank, so that all write theirs at the same point.
inline bool due_everywhere(bool due_here, Ranks* ranks) {
    return ranks ? ranks->max(due_here) != 0 : due_here;
}

// Writes a checkpoint of material m's solve to `path` atomically (store/atomic_file.hpp): the slice
// in progress and its state (nullptr: not begun; the entries `part` holds), and the slices solved
// before it.
void write_checkpoint(const std::filesystem::path& path, const Material& m, int slice,
                      const SweepState* state, const StoredSlices& solved, RankPart part = {});
// Reads a checkpoint of material m, of `part`; nullopt when the file is missing, of another table or
// rank, of an older version or damaged (the header's counts are checked against the index and the
// file's size before they size anything, then the checksum). Throws nothing for a bad file.
std::optional<Checkpoint> read_checkpoint(const std::filesystem::path& path, const Material& m,
                                          RankPart part = {});
// The number of ranks whose solve wrote the checkpoint at `path`, from its header alone (checked by
// read_checkpoint later); nullopt when it is missing or not a checkpoint of m of this version.
std::optional<int> checkpoint_ranks(const std::filesystem::path& path, const Material& m);
// Moves a checkpoint that read_checkpoint refused out of the way, to path.damaged (kept for a look,
// replacing an older one); removes it when it cannot be renamed. Returns the new name, or an empty
// path when it was removed (or could not be).
std::filesystem::path set_aside_checkpoint(const std::filesystem::path& path);

}  // namespace retro
