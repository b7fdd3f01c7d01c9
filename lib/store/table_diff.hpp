// Entry-by-entry comparison of two solved tables of one material, for proving that a change of the
// solver left every value as it was (apps/tbdiff, scripts/compare_solvers.sh).
#pragma once

#include <string>
#include <vector>

#include "store/table.hpp"

namespace retro {

struct EntryDifference {
    Color side;
    uint64_t index;
    std::string fen;
    Dtm a, b;
};

struct TableDifferences {
    uint64_t compared = 0;               // legal entries, both sides to move
    uint64_t differing = 0;              // of them, those whose values differ
    std::vector<EntryDifference> first;  // the first ones, white to move first, then by index
    bool identical() const { return differing == 0; }
};

// Compares the value of every legal entry of both sides to move, in parallel. Holes and illegal
// entries are skipped: they stand for no position, so a solver or the writer (which fills holes to
// compress better) may leave any value there. Keeps at most `examples` differences. Throws
// std::invalid_argument when the materials differ.
TableDifferences diff_tables(const Table& a, const Table& b, size_t examples = 5);

}  // namespace retro
