// A table solved by several ranks (solve/ranked_sweep.hpp) put together at rank 0, which writes it;
// a pawn table's slice put together, or handed from the rank that solved it, at every rank, whose
// later slices' pushes read it.
#pragma once

#include "ranks/ranks.hpp"
#include "solve/scheme_solver.hpp"
#include "solve/solver.hpp"

namespace retro {

// Rank 0 receives every rank's values (the bytes of its king pairs, both sides to move, its long
// values and its part of the writer's survey, when it has one), in rank order, which is index order,
// and returns the whole table; the others return nothing. Each rank's own values are freed once sent.
SolvedTable gather_table(const Material& m, SolvedScheme&& mine, Ranks& ranks);

// Every rank receives every rank's values of `scheme` (the bytes of its king pairs, both sides to
// move, and its long values), in rank order, which is index order: the whole scheme's values. Rank 0
// alone, which writes the table, receives every rank's part of the writer's survey, when they have
// one: the others return none.
SolvedScheme gather_everywhere(const IndexScheme& scheme, SolvedScheme&& mine, Ranks& ranks);

// Every rank receives the values of `scheme` that rank `owner` solved alone (`values`, empty at the
// others): a pawn table's small slice, dealt to one rank. Its survey, when it has one, goes to rank 0
// alone: the others return none.
SolvedScheme shared_from(const IndexScheme& scheme, SolvedScheme&& values, int owner, Ranks& ranks);

}  // namespace retro
