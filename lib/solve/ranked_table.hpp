// A table solved by several ranks (solve/ranked_sweep.hpp) put together at rank 0, which writes it.
#pragma once

#include "ranks/ranks.hpp"
#include "solve/scheme_solver.hpp"
#include "solve/solver.hpp"

namespace retro {

// Rank 0 receives every rank's values (the bytes of its king pairs, both sides to move, its long
// values and its part of the writer's survey, when it has one), in rank order, which is index order,
// and returns the whole table; the others return nothing. Each rank's own values are freed once sent.
SolvedTable gather_table(const Material& m, SolvedScheme&& mine, Ranks& ranks);

}  // namespace retro
