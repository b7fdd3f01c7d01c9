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

// How a position is found lost once all its moves reach wins for the opponent.
enum class LossTest {
    Counters,  // a byte per position counts the moves not yet known to lose; each edge is seen once
    Forward,   // candidates re-generate their moves at each layer; no counters, less memory
};

struct SolveOptions {
    LossTest loss_test = LossTest::Counters;
    std::ostream* progress = nullptr;  // per-layer lines when set
};

// Bytes the solver holds at its peak for material m, sub-tables not included.
uint64_t solver_memory_estimate(const Material& m, LossTest test = LossTest::Counters);

// Solves material m (canonical). Every table one capture or promotion away must be in `subtables`.
// The result does not depend on the number of threads.
std::unique_ptr<Table> solve(const Material& m, const Tablebase& subtables, const SolveOptions& options = {});

}  // namespace retro
