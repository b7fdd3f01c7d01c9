// How a job reads its sub-tables. A complete file that settles values by exits (or, in the shipping
// form, keeps one side to move) needs its own sub-tables to be read whole: reading it completes it,
// which costs a search per entry and reads further tables. So a job reads such a table from its exact
// copy (store/table_file.hpp) when a current one is there, and otherwise completes it once, sub-tables
// first, before the solve that reads it (its completion chain, jobs/completion_chain.hpp), writing a
// copy of each for the rest of the job. This object holds that policy: which tables get a copy, when
// a chain is completed, when a copy is spent and removed. The layers below keep the mechanisms: the
// store writes and reads a copy, the probe completes a table.
#pragma once

#include <atomic>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "index/dependencies.hpp"
#include "jobs/plan.hpp"
#include "store/table_values.hpp"

namespace retro {

class Tablebase;

class SubtableReads {
public:
    using Tell = std::function<void(const std::string&)>;
    // `report`: what the job's log and terminal say (a copy that could not be written); `note`: the
    // log's details (copies written, removed). Sub-tables stop being read once `stop` is raised.
    SubtableReads(const JobPlan& plan, const std::atomic<bool>* stop, Tell report, Tell note);

    // Makes `tables` (of the job's directory) read the exact copies there and stop with the job.
    void read_through(Tablebase& tables) const;

    // The tables that reading m's sub-tables completes now (copies written meanwhile spare theirs),
    // each with the sides read, sub-tables first; m reads its promotions in part or whole as
    // `promotions_in_part` says.
    std::vector<SubtableSides> chain(const Material& m, bool promotions_in_part) const;
    // Of the chain's k-th table, done: a table completed while it was read (the k-th itself, or one
    // its reading completed), in `seconds`.
    using Completed = std::function<void(size_t k, const Material& done, double seconds)>;
    // Completes the chain's tables in its order, each from the copies of the ones before, and writes
    // each one's copy. Throws what Tablebase::find throws (Stopped once the job stops).
    void complete(const std::vector<SubtableSides>& chain, const Completed& told) const;

    // Whether m, just built, gets an exact copy: its file settles values by exits (`settles`) and a
    // table still to build reads it whole.
    bool copy_wanted(const Material& m, bool settles) const { return settles && plan_.read_whole_later(m); }
    // Writes the exact copy of a table whose file needs its sub-tables (of `sides` to move: a table of
    // a chain read for one side). Without it (a full disk, said in a report) the tables that read it
    // complete the file's values themselves: slower, the same.
    void write_copy(const TableValues& values, SideSet sides = BOTH_SIDES) const;
    // Removes the copies that no table left to build reads (`complete`: the plan's tables done);
    // those of the tables complete before the job stay while any table is left (a chain may read them).
    void remove_spent(const std::map<Material, bool>& complete) const;

private:
    const JobPlan& plan_;
    const std::atomic<bool>* stop_;
    Tell report_, note_;
};

}  // namespace retro
