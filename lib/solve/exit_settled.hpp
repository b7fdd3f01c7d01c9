// The entries whose value a move leaving the table achieves: a capture or a promotion reaches a
// sub-table position worth exactly the entry's value. A file may store anything not better there
// (format version 5), since its reader takes the better of the stored value and the best exit.
#pragma once

#include <atomic>
#include <filesystem>
#include <functional>

#include "store/table_file.hpp"
#include "store/table_source.hpp"
#include "store/write_survey.hpp"

namespace retro {

// The survey of both sides to move of `table` for its writer: the legal entries, the counts of their
// values, and the entries exits settle. Its sub-tables come from `tables` (throws SolveError if one
// is missing). Parallel (TBB); one pass of move generation over the legal entries. Throws
// Stopped (Writing: the search is part of the write) once control's stop is raised; tells control
// the entries searched (Control::Count::ExitsSearched).
WriteSurvey exit_settled(const Table& table, const TableSource& tables, const Control& control = {});

// write_table, settled by exits (format version 5) when options.settle_exits asks for it; the
// options' control steers the search for exits too.
void write_settled_table(const Table& table, const std::filesystem::path& path, const WriteOptions& options,
                         const TableSource& tables);

}  // namespace retro
