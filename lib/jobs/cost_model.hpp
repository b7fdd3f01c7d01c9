// What a table costs in time before a table of its kind has been timed in the job's directory: CPU
// seconds per index entry by kind of table and number of men, measured on a reference machine
// (jobs/reference_rates.hpp), scaled by this machine's speed on a short calibration and shared among
// the job's threads.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "index/material.hpp"
#include "jobs/estimates.hpp"

namespace retro {

// The kinds of table whose cost per entry differs: pawn tables are solved slice by slice, and the lean
// way (MemoryPlan: slices on disk, promotions read in part) reads slices and promotions back.
enum class TableKind { Pawnless, PawnsInMemory, PawnsLean };
TableKind table_kind(const Material& m, const MemoryPlan& memory);

// CPU seconds (user and system) per index entry of both sides to move: solving it (sub-tables read
// included), and writing it at the job's default codec and level.
struct EntryCost {
    double solve = 0, write = 0;
    double total() const { return solve + write; }
};

struct ReferenceRate {
    TableKind kind;
    int men;
    EntryCost cost;
};

class CostModel {
public:
    // `rates`: measured on the reference machine, every kind at least once; `growth`: how much more an
    // entry costs per man past the largest number of men measured; `speed`: this machine's
    // calibration time over the reference machine's (2: half as fast); `threads`: the job's.
    CostModel(std::span<const ReferenceRate> rates, double growth, double speed, int threads);

    // The reference machine's cost of an entry of a table of `kind` with `men` men: that of the most
    // men measured up to `men`, grown by `growth` per man more (the fewest measured for fewer men).
    EntryCost reference_cost(TableKind kind, int men) const;
    // Wall seconds of a table of `entries` (both sides to move) on this machine with the job's threads,
    // the CPU shared evenly among them (the rates were measured with 2 threads, their overhead in).
    double seconds(TableKind kind, int men, uint64_t entries) const;

    double speed() const { return speed_; }
    int threads() const { return threads_; }

private:
    std::vector<ReferenceRate> rates_;
    double growth_;
    double speed_;
    int threads_;
};

// CPU seconds this machine takes for the calibration: KQvK and KRvK solved on one thread, the least of
// several runs (the CPU time of the thread: other processes on the machine barely change it).
// Measured once per process.
double calibration_seconds();

// The model of this machine: the reference rates, scaled by calibration_seconds() against the
// reference machine's, with `threads` (at most one per core counts).
CostModel machine_cost_model(int threads);

}  // namespace retro
