// Which complete tables a table's reading completes from their own sub-tables, and in which order a
// job reads them so that each is completed once.
#pragma once

#include <atomic>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "index/dependencies.hpp"
#include "store/table.hpp"

namespace retro {

// Whether reading `sub` for `sides` to move completes its file from its own sub-tables: the file
// settles values by exits or drops a side, and no current exact copy holds those sides.
using CompletedWhenRead = std::function<bool(const Material& sub, SideSet sides)>;

// The tables reading m's direct sub-tables completes (those `completed` names, and recursively the
// sub-tables each of them reads whole to complete itself, for the sides it reads), each with the
// sides read, sub-tables first. The promotions of m that capture nothing are left out when
// `promotions_in_part` (read a run at a time, never completed). Read in this order, each with an
// exact copy written once complete, every table of the chain is completed once, from copies;
// otherwise a table is completed again within each completion that reads it (KBvK 96 times
// for KPPvKP).
std::vector<SubtableSides> completion_chain(const Material& m, bool promotions_in_part,
                                            const CompletedWhenRead& completed);

// Of the chain's k-th table (its place in the chain): a table completed from its sub-tables while
// it was read (the k-th itself, or one its reading completed) in `seconds`.
using ChainCompletionTold = std::function<void(size_t k, const Material& done, double seconds)>;
// The chain's k-th table, complete: its exact copy goes into the copy directory here, for the next.
using ChainTableCompleted = std::function<void(size_t k, const Table& table)>;
// "KBvK completed from its sub-tables in 0.1 s (3 of 19)": the line of a completion told while the
// chain's k-th table was read, its place in the chain when it is that table.
std::string chain_completion_text(const std::vector<SubtableSides>& chain, size_t k, const Material& done,
                                  double seconds);

// Completes the chain's tables from the files in `dir`, in the chain's order, each in a Tablebase of
// its own (freed before the next: it holds the table and what it reads) that reads the exact copies
// in copy_dir (empty: dir). A table without a file is skipped (its reader says it is missing).
// Throws what Tablebase::find throws: StoreError for a damaged file, Stopped once `stop` is raised.
void complete_chain_in_turn(const std::vector<SubtableSides>& chain, const std::filesystem::path& dir,
                            const std::filesystem::path& copy_dir, const std::atomic<bool>* stop,
                            const ChainCompletionTold& told, const ChainTableCompleted& completed);

}  // namespace retro
