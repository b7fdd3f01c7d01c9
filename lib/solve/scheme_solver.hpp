// The layer sweeps over one index scheme: a pawnless table, or one slice of a pawn table (its pawns
// fixed). A slice's pushes reach slices solved before it, so they are exits like captures and
// promotions, whose values are known before the first ply (solve/exits.hpp).
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "solve/checkpoint.hpp"
#include "solve/exits.hpp"
#include "solve/layer_log.hpp"
#include "solve/solver.hpp"
#include "store/write_survey.hpp"

namespace retro {

struct RankTraffic;

// Whether the sweeps of a scheme write a progress line per ply: a table or a slice solved alone
// does, the many small slices of a pawn table do not.
enum class PlyLines { Report, Omit };

struct SchemeSetup {
    const IndexScheme& scheme;
    const ExitProbe& exits;
    const SolveOptions& options;
    std::string label;  // what progress lines begin with: the table's name, or the slice's
    PlyLines ply_lines;
    std::chrono::steady_clock::time_point start;  // of the table, for the times in progress lines
    // Writes a checkpoint of the sweeps' state, or (nullptr) of a solve that drops its first pass;
    // called when one is due, and when a stop is requested.
    std::function<void(const SweepState*)> write_checkpoint;
    // Where the layer log lives (empty: an anonymous temporary file).
    std::filesystem::path log_path;
    // What the sweeps send to other ranks, counted for the table (solved by several ranks).
    RankTraffic* traffic = nullptr;
};

// The values of a solved scheme, as a Table holds them: a byte per entry and side to move (a hole or
// a draw DRAW_BYTE), and the values of the LONG_BYTE entries. A solve from the start also tells the
// writer its legal entries and those a capture or promotion settles (exit_settled's survey, found as
// the sweeps go instead of by a search afterwards; counts left to count_legal_values); a resumed one
// does not (a checkpoint does not keep them).
struct SolvedScheme {
    Table::Bytes bytes;
    Table::LongValues long_values;
    std::optional<WriteSurvey> survey;
};

// Solves s's entries, going on from `resumed` (with its layer log) when given. Throws
// Stopped when s.options.control's stop is raised, after writing a checkpoint (or none in the first
// passes); SolveError for a mate longer than options.longest_mate.
SolvedScheme solve_scheme(const SchemeSetup& s, std::optional<SweepState> resumed,
                          std::unique_ptr<LayerLog> log);

}  // namespace retro
