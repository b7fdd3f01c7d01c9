// The entries whose value a move leaving the table achieves: a capture or a promotion reaches a
// sub-table position worth exactly the entry's value. A file may store anything not better there
// (format version 5), since its reader takes the better of the stored value and the best exit.
#pragma once

#include "store/entry_bits.hpp"
#include "store/table_source.hpp"

namespace retro {

// Both sides to move of `table`; its sub-tables come from `tables` (throws SolveError if one is
// missing). Parallel (TBB); one pass of move generation over the legal entries.
EntryBits exit_settled(const Table& table, const TableSource& tables);

}  // namespace retro
