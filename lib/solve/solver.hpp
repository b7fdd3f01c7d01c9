// The retrograde solver: exact distance to mate for both sides to move of one material. A pawn table
// is solved slice by slice (index/pawn_slices.hpp), the most advanced pawns first: into one Table in
// memory, or slice by slice into its slice store on disk (store/slice_store.hpp).
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>

#include "index/pawn_slices.hpp"
#include "ranks/ranks.hpp"
#include "solve/entry_state.hpp"
#include "solve/solve_error.hpp"
#include "store/control.hpp"
#include "store/dtm.hpp"
#include "store/slice_store.hpp"
#include "store/subtable_source.hpp"
#include "store/table_paths.hpp"
#include "store/write_survey.hpp"

namespace retro {

// Where a checkpoint stands in a solve: (slice << 32) + the next ply; a pawnless table has slice 0.
using SolvePoint = int64_t;
inline SolvePoint solve_point(int slice, int ply) { return (SolvePoint(slice) << 32) + ply; }

// The rounds of exchanges a ply's sweep on ranks takes when each entry of the rank holding the most
// gives one update to another rank (exchange_budget in ranked_sweep.hpp): a round costs each rank
// three collective steps, and holds its share of the entries' updates.
constexpr uint64_t EXCHANGE_ROUNDS = 256;

struct SolveOptions {
    // Its lines get the per-ply and per-slice lines; its progress the slices solved
    // (Control::Count::SlicesSolved: the job's ETA follows them). Its stop is polled between plies
    // and within the first pass: the solver then checkpoints (between plies) and throws Stopped.
    Control control{};
    // Where to keep the solver's state between plies (empty: nowhere). A valid checkpoint of the
    // same material found there at the start is resumed.
    std::filesystem::path checkpoint;
    // Told, before the first pass, what became of a checkpoint file found there: the point the solve
    // resumes at, or nullopt when it was damaged or of another table and was set aside
    // (set_aside_checkpoint; the solve starts over). The message says so in words. Without this
    // callback the message goes to the control's lines.
    std::function<void(std::optional<SolvePoint> resumed_at, const std::string& message)> checkpoint_found;
    double checkpoint_seconds = 300;  // at most this long between checkpoints
    // Told after each checkpoint is on disk, with the point it resumes at (the job runner keeps the
    // table's elapsed time beside it, so a resumed table's time and ETA count the earlier runs).
    std::function<void(SolvePoint resumes_at)> checkpoint_written;
    // The longest mate, in plies, the values can hold (DTM_MAX); longer ones throw SolveError. Tests
    // lower it to meet the limit on small tables.
    int longest_mate = DTM_MAX;
    // The plies ahead of the sweep whose distances the state codes hold (solve/entry_state.hpp);
    // tests narrow it to exercise the far codes.
    int window = state::WIDEST_WINDOW;
    // Slices of fewer entries per side than this are solved in waves, without checkpoints of their
    // own (index/pawn_slices.hpp); tests lower it to stop and resume inside a small table's slices.
    uint64_t waves_below = WAVE_SLICE_ENTRIES;
    // A pawn table's solved slices stay on disk only, in its slice store (beside the checkpoint, or a
    // temporary file), and each slice reads back the slices its pushes reach: memory holds the slice
    // being solved, not the whole table. Off: the whole table is also kept in memory.
    bool slices_on_disk = false;
    // A pawn table's promotions that capture nothing (into tables of as many men) are read in part,
    // slice by slice (solve/promotions.hpp), instead of loading the tables they reach whole.
    bool promotions_in_part = false;
    // A solved table comes with the survey its writer needs to settle values by exits
    // (SolvedTable::survey, or each slice's in the slice store): 2 bits per entry and side.
    bool survey_exits = false;
    // Of a table solved by several ranks: each ply is swept in rounds, each ending in an exchange of
    // the updates for other ranks, so that a rank holds a round's updates, not a ply's. A rank
    // receives at most this many in a round (or a 1/EXCHANGE_ROUNDS share of its entries, when more).
    // Tests lower it to take many rounds.
    uint64_t exchange_round_updates = uint64_t(1) << 20;
    // The ranks that solve a table together (solve/ranked_sweep.hpp), each holding the state of its
    // king pairs; rank 0 gets the whole table, the others none. nullptr: this process alone. Each rank
    // checkpoints its part at its own `checkpoint` path, all at the same points (solve/resume.hpp says
    // how they agree on one); the stop is not polled: every rank must reach each step.
    Ranks* ranks = nullptr;
};

// A solved table: whole in memory, or (a pawn table solved with SolveOptions::slices_on_disk) in the
// slice store its solver wrote, every slice in it. A table solved whole from the start, in this run,
// comes with its writer's survey (the entries exits settle, found by the sweeps; counts counted); in
// the store, each slice solved from the start keeps its own.
struct SolvedTable {
    std::unique_ptr<Table> whole;
    std::unique_ptr<SliceStore> slices;
    std::optional<WriteSurvey> survey;
};

// Solves material m (canonical). Every table one capture or promotion away must be in `subtables`.
// The result does not depend on the number of threads.
SolvedTable solve_table(const Material& m, const SubtableSource& subtables, const SolveOptions& options = {});
// The same, whole in memory (read back from the slice store when the slices were on disk).
std::unique_ptr<Table> solve_in_memory(const Material& m, const SubtableSource& subtables,
                                       const SolveOptions& options = {});
// The whole table a slice store holds (every slice of its material).
std::unique_ptr<Table> whole_table(const SliceStore& slices);

}  // namespace retro
