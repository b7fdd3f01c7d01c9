// The retrograde solver: exact distance to mate for both sides to move of one material.
#pragma once

#include <iosfwd>
#include <memory>
#include <stdexcept>

#include "probe/tablebase.hpp"

namespace retro {

class SolveError : public std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct SolveOptions {
    std::ostream* progress = nullptr;  // per-ply lines when set
};

// Bytes the solver holds at its peak for material m, sub-tables not included.
uint64_t solver_memory_estimate(const Material& m);

// Solves material m (canonical). Every table one capture or promotion away must be in `subtables`.
// The result does not depend on the number of threads.
std::unique_ptr<Table> solve(const Material& m, const Tablebase& subtables, const SolveOptions& options = {});

}  // namespace retro
