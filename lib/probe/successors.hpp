// The values of the positions a table's moves reach: the table's own by direct lookup, the tables one
// capture or promotion away fetched once up front (no locking per lookup), en passant rights through
// the probe. Shared by the verifier and the rebuild of the shipping form's dropped side.
#pragma once

#include <memory>
#include <vector>

#include "probe/tablebase.hpp"

namespace retro {

class Successors {
public:
    // `table` answers for its own material; `tables` holds every table it needs for the moves of
    // `movers` (the sides to move of the positions it is asked about: their sub-tables are read with
    // the sides those moves reach only). Throws like Tablebase::find.
    Successors(const Table& table, const Tablebase& tables, SideSet movers = BOTH_SIDES);

    // Value of a successor position for its side to move. Throws MissingTableError.
    Dtm value(const Position& pos) const;
    // The minimax value of a position of the table's material from the values of its successors.
    Dtm expected(const Position& pos) const;
    // The same for the legal entry `index` of the table (placement p, position pos, the board's
    // attacks), its legal moves summarized as the solver's first pass does (chess/movegen.hpp) and
    // the entries of its quiet ones found by index arithmetic (IndexScheme::for_each_moved), cheaper
    // than playing them: the rebuild of a dropped side, which reads whole tables. The verifier plays
    // every move (above), to stay independent of the arithmetic the solver uses.
    Dtm expected(uint64_t index, const Placement& p, const Position& pos, const BoardAttacks& attacks) const;

private:
    // A sub-table as a successor's material finds it: as stored, or with the colours swapped.
    struct Reached {
        Material material;
        std::shared_ptr<const Table> table;
        bool flipped;
    };
    const Table& table_;
    const Tablebase& tables_;
    std::vector<Reached> reached_;
};

// Fills every legal entry of `side` in a table read in the shipping form (read_table_as_stored) by a
// one-ply search over the other side, which the file holds, and the sub-tables in `tables`. Holes
// stay draws. Parallel (TBB). Throws Stopped once `stop` is raised.
void rebuild_side(Table& table, Color side, const Tablebase& tables, const std::atomic<bool>* stop = nullptr);

// Completes the stored values of `side` in a table whose file exits settle (format version 5): each
// legal entry takes the better of its value and its best capture or promotion. Parallel (TBB).
// Throws Stopped once `stop` is raised.
void apply_exits(Table& table, Color side, const Tablebase& tables, const std::atomic<bool>* stop = nullptr);

}  // namespace retro
