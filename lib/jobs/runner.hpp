// Runs a planned generation job: builds the tables in order, skips the complete ones, resumes from
// checkpoints, stops cleanly when asked, and writes each file atomically.
//
// Several jobs may build into one directory at once (several processes, on one machine or on several
// sharing the directory over a network filesystem): each builds the first table in the plan's order
// whose sub-tables are complete and that no other job holds (jobs/table_lock.hpp), waits when there
// is none, and ends when every table of its plan is complete. A job that dies leaves its table's
// lock free and its checkpoint behind, so another job or a rerun resumes it.
//
// Files in the output directory besides the tables: MATERIAL.checkpoint (a solve in progress, deleted
// once the table file is written) with MATERIAL.layers (its layer log), for a pawn table
// MATERIAL.slices (its slice store: the slices solved) and MATERIAL.checkpoint.seconds
// (the ply of the checkpoint and the seconds the table had taken then), MATERIAL.checkpoint.damaged
// (one that failed its checks, set aside with a warning while the table starts over), tbgen.times
// (material, entries, seconds of every table built: the ETA of later runs uses it), .tbgen.lock (see
// TableLock), tbgen.log (written by tbgen).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "jobs/plan.hpp"
#include "ranks/ranks.hpp"
#include "solve/statistics.hpp"
#include "store/table_file.hpp"

namespace retro {

// Where a job stands, for interfaces that draw progress themselves (a bar, a notebook widget).
struct JobStatus {
    Material material;    // the table being built
    int table = 0;        // its place among the tables to build, from 1
    int tables = 0;       // how many tables the job builds (complete ones are skipped, not counted)
    double fraction = 0;  // of the job's index entries in the tables finished so far, 0..1
    std::string message;  // the report or solver line this status comes with
};

struct JobOptions {
    double checkpoint_seconds = 300;  // at most this long between checkpoints of a table
    // When raised: while solving, checkpoint at the next ply and stop; while writing, stop at the next
    // block and leave no file; while verifying, stop there (the file is complete).
    const std::atomic<bool>* stop = nullptr;
    bool verify = false;  // re-derive each table built by forward moves
    bool wdl = false;     // also write the WDL bitbase (.rtw) beside each table
    // Tables whose statistics the job counts while it holds their values (BuiltTable::statistics):
    // reading a 6-man file back for them would take minutes and more memory than the solve.
    std::set<Material> statistics_of;
    // Job events, one line each (starts, finishes, ETAs): for the terminal and the log.
    std::function<void(const std::string&)> report;
    // Details for the log only (skipped tables, removed leftovers).
    std::function<void(const std::string&)> note;
    // The solver's per-ply lines and the writer's, each followed by the table's and the job's progress.
    std::function<void(const std::string&)> solver_line;
    // With every report and solver line of a table being built, one call at a time: on the job's
    // thread, or while a file is written on a thread of its pipeline.
    std::function<void(const JobStatus&)> status;
    // The ranks that solve each table together (tbgen under mpirun; nullptr: this process alone).
    // Every rank runs the job and builds the plan's tables in its order, without table locks; rank 0
    // alone completes sub-tables, writes the files and reports. Nothing is checkpointed and `stop` is
    // not polled: every rank must reach each collective step (a signal ends the job, and a rerun starts
    // the table it stopped over).
    Ranks* ranks = nullptr;
};

struct BuiltTable {
    Material material;
    // Solve, write (verify, count statistics) time, with the earlier runs' time of a resumed table when it is
    // known (MATERIAL.checkpoint.seconds of the checkpoint's ply), else this run's only; not the
    // time its completion chain took (sub-tables of an earlier job completed first).
    double seconds = 0;
    bool resumed = false;                       // continued from an intact checkpoint
    std::optional<TableStatistics> statistics;  // when JobOptions::statistics_of names it
};

struct JobResult {
    std::vector<BuiltTable> built;
    int skipped = 0;          // complete when the job was planned
    int built_elsewhere = 0;  // by other processes building into the same directory meanwhile
    bool interrupted = false;
    std::string stopped_at;  // which table and ply (or "writing KQvKR"), when interrupted
    // What the stop cut short: a table solving (its checkpoint keeps the plies), being written (no
    // file; solved again from its checkpoint, if any) or being verified (its file is complete).
    enum class Phase : uint8_t { Solving, Writing, Verifying };
    Phase stopped_while = Phase::Solving;
    double seconds = 0;
};

// Throws JobError (verification failure), StoreError (a file could not be written: the error names
// it; no partial file is left under the final name) or SolveError.
JobResult run_job(const JobPlan& plan, const JobOptions& options);

}  // namespace retro
