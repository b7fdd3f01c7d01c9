// Checkpoints of a solve in progress: everything the layer sweeps need to go on after a restart.
#pragma once

#include <filesystem>
#include <optional>
#include <vector>

#include "solve/entry_state.hpp"
#include "store/table.hpp"

namespace retro {

struct EnPassantEdge {
    uint64_t from;  // the entry whose side to move pushes
    uint64_t next;  // the entry reached, without the en passant right (opponent to move)
    Dtm capture;    // the opponent's best en passant capture, for the opponent
    // The win this edge offered `from` beyond the window (0: none), for Solver::refresh_far.
    uint16_t far_win = 0;
    uint32_t padding{};  // zero, so that checkpoints are byte-for-byte reproducible
};

struct SolverState {
    int next_ply = 0;                                 // the first ply not yet swept
    int max_value = 0;                                // the largest distance assigned so far
    int window = 0;                                   // the size of the window the pending codes are taken in
    std::array<std::vector<state::Code>, 2> codes;    // by side to move and index
    std::array<std::vector<EnPassantEdge>, 2> edges;  // by the side that pushes, sorted
    uint64_t log_length = 0;                          // the layer log's bytes that belong to this state
    uint64_t log_checksum = 0;
};

// Writes the state of material m's solve to `path` atomically (store/atomic_file.hpp).
void write_checkpoint(const std::filesystem::path& path, const Material& m, const SolverState& state);
// Reads a checkpoint of material m (also one written before distances took 16 bits); nullopt when the file is
// missing, of another table or damaged (the header's counts are checked against the file's size before they
// size anything, then the checksum). Throws nothing for a bad file.
std::optional<SolverState> read_checkpoint(const std::filesystem::path& path, const Material& m);
// Moves a checkpoint that read_checkpoint refused out of the way, to path.damaged (kept for a look,
// replacing an older one); removes it when it cannot be renamed. Returns the new name, or an empty
// path when it was removed (or could not be).
std::filesystem::path set_aside_checkpoint(const std::filesystem::path& path);

}  // namespace retro
