// Memory and disk a generation job needs, estimated before anything is allocated.
#pragma once

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "index/material.hpp"
#include "store/estimates.hpp"
#include "store/table_file.hpp"

namespace retro {

// Bytes a solved table takes in memory: one value byte per index entry and side to move.
uint64_t table_memory_bytes(const Material& m);

// What any job holds besides its tables: the program, its libraries, TBB's threads, buffers (a KRvK
// job's resident set: 11.2 MiB).
constexpr uint64_t PROCESS_BYTES = uint64_t(12) << 20;

// How a table is solved and written within a budget, `cache`, for what it holds besides the state
// of the slice in progress and the tables its captures reach: a pawn table's own solved slices and
// the tables its promotions reach. Held whole when they fit the cache and the whole peak fits
// `limit`; else the slices stay on disk (each slice reads back those its pushes reach), then the
// promotions are read in part, slice by slice (SolveOptions), which costs time. And the bytes held at
// each step: a byte per entry and side of everything held (and a bit more of the state for its exits),
// and a quarter of a byte for the survey of a table that settles values by exits.
struct MemoryPlan {
    bool slices_on_disk = false;
    bool promotions_in_part = false;
    // The solver's state: the table's, or a pawn table's largest slice's; and the survey of a table
    // whose writer settles values by exits, which the solver finds as it sweeps (of the slices in
    // progress, when the slices stay on disk with theirs).
    uint64_t state = 0;
    uint64_t own = 0;         // a pawn table's values: whole, or the slices a slice's pushes reach
    uint64_t promotions = 0;  // the tables promotions reach: whole, or the largest slice's part
    uint64_t captures = 0;    // the tables captures reach (and promotions that capture), whole
    // Promotions read in part from files that settle values by exits are probed entry by entry
    // (solve/promotions.hpp) through the block cache of the build's Tablebase, held to the table's
    // end: its size, or the promoted tables' values when less.
    uint64_t probe_cache = 0;
    // While the file is written, besides the captures' tables (and the promotions' tables held
    // whole): the table and its survey, or a few slices read back with theirs.
    uint64_t writing = 0;
    // While the tables of the completion chain (jobs/completion_chain.hpp: complete files that settle
    // values by exits or drop a side, without an exact copy) are completed one at a time, before
    // the sub-tables are read: the table for the sides read, the tables its exits reach from them
    // (Tablebase::load; read from the copies of the chain's earlier tables) and a side's new
    // values; the most of any table of the chain (by default every sub-table is completed: which
    // files are settled is not known before the job; a job's own tables are read from their copies).
    uint64_t completing = 0;
    // The threads' compressors and decompressors (codec_bytes in store/estimates.hpp): zstd's live
    // from the first block a thread writes or reads to the end of the job (2 threads at level 15:
    // 8.7 MiB, 64 threads: 278 MiB; 5.9 and 189 MiB for self-contained files); and the free heap
    // the threads keep for their blocks' buffers (kept_heap_bytes in jobs/heap.hpp).
    uint64_t codecs = 0;
    // The ranks that solve the table together (under mpirun): the figures above are then a rank's,
    // the most any rank holds of the state (its king pairs, or its slices of a wave), and `writing`
    // rank 0's, which gathers the table and writes it. 1: one process.
    int ranks = 1;
    // On ranks, the survey of a pawn table's slices held in memory that rank 0 gathers as they are
    // solved (the others send theirs on): held while solving by rank 0 alone.
    uint64_t gathered_survey = 0;
    // On ranks, the update batches of one round of a ply's sweep (solve/ranked_sweep.hpp): the budget
    // a rank may receive and its share that it sends, 8 bytes an update.
    uint64_t exchange = 0;

    // A pawn's slice either pushes (the slices reached read back) or promotes (its part of the
    // tables promoted into), never both: solved the lean way, a slice holds the larger bound.
    uint64_t own_and_promotions() const {
        return slices_on_disk && promotions_in_part ? std::max(own, promotions) : own + promotions;
    }
    // Rank 0's, on ranks.
    uint64_t solving() const {
        return PROCESS_BYTES + codecs + state + exchange + gathered_survey + own_and_promotions() + captures +
               probe_cache;
    }
    uint64_t written() const {
        return PROCESS_BYTES + codecs + writing + captures + (promotions_in_part ? 0 : promotions) +
               probe_cache;
    }
    // Sub-tables are read before the solve allocates its state and solves its first slice; the chain
    // is completed before they are read.
    uint64_t reading() const {
        return PROCESS_BYTES + codecs +
               std::max(captures + (promotions_in_part ? 0 : promotions), completing);
    }
    uint64_t peak() const { return std::max({solving(), written(), reading()}); }
    // Of a table solved by ranks, the peak of the ranks that do not write (peak() is rank 0's, which
    // gathers the whole table to write it).
    uint64_t peak_not_writing() const { return std::max(solving() - gathered_survey, reading()); }
    // "solving 1.15 GiB (process 12.0 MiB, codecs 8.68 MiB, state 261 MiB, own slices read back 261 MiB or
    // promotions in part 521 MiB, captures 380 MiB), writing 1.15 GiB, reading sub-tables 1.02 GiB";
    // solved by ranks: "per rank of 4: solving ..., writing (rank 0) ...".
    std::string text() const;
};
// `settles`: whether a table written from memory settles values by exits (not --self-contained);
// `codecs`: MemoryPlan::codecs; `completed_when_read(sub)`: whether sub-table `sub` is completed as
// it is read (a settled file without an exact copy; empty: every one); `threads`: the job's, as
// many slices as there are threads being solved at once where they are solved in waves; `ranks`: the
// processes that solve the table together.
MemoryPlan memory_plan(const Material& m, uint64_t cache = UINT64_MAX, uint64_t limit = UINT64_MAX,
                       bool settles = true, uint64_t codecs = 0,
                       const std::function<bool(const Material&)>& completed_when_read = {}, int threads = 1,
                       int ranks = 1);
// What solve_in_memory holds at its peak (tbbench's solve), with `threads` threads: the sub-tables
// whole, both sides to move as a Tablebase loads them, and the state; a pawn table's solved slices
// beside the state of the slices in progress, and at the end beside the whole table merged from them.
uint64_t in_memory_solve_bytes(const Material& m, int threads);
// Bytes of a checkpoint of m's solve and its layer log: the sweeps' state (solve/estimates.hpp), and
// at most 2 bytes per entry and side in the log, for a pawn table of its
// largest slice, with its slice store (the slices solved, compressed), one per rank.
uint64_t checkpoint_bytes_estimate(const Material& m, int ranks);

// MemAvailable from /proc/meminfo; nullopt when it cannot be read.
std::optional<uint64_t> available_memory_bytes();

// "8G", "8GiB", "512M", "1.5T", "123456" (bytes); binary multiples. Throws std::invalid_argument.
uint64_t parse_bytes(const std::string& text);
// "1.5 GiB", "340 MiB", "56 KiB", "12 B".
std::string format_bytes(uint64_t bytes);

}  // namespace retro
