// A solve's start: the checkpoint found beside it, when it is intact and of this table, with the
// layer log and slice store it names opened; or a damaged or foreign one set aside. Either way the
// options' checkpoint_found (or progress) is told in words.
#pragma once

#include <memory>
#include <optional>

#include "solve/checkpoint.hpp"
#include "solve/layer_log.hpp"
#include "solve/solver.hpp"

namespace retro {

struct ResumedSolve {
    Checkpoint saved;
    std::unique_ptr<LayerLog> log;      // of the sweeps in progress, when the checkpoint has some
    std::unique_ptr<SliceStore> store;  // of a pawn table: the slices solved before saved.slice
};

// The checkpoint at options.checkpoint of material m's solve, when there is a usable one.
std::optional<ResumedSolve> resume_solve(const Material& m, const SolveOptions& options);

}  // namespace retro
