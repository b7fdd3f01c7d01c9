// What `tbgen --dry-run` lists table by table: each table of the job's most men with what it needs
// in memory and on disk, alone and with its closure (every table it needs, itself included), so that
// a job of thousands of tables says which of its largest fit a machine and which need more.
#pragma once

#include <string>
#include <vector>

#include "jobs/plan.hpp"

namespace retro {

// One line for each table still to build of the job's most men, the largest peak first: its index
// entries a side, its peak memory and how it is held (whole, or the lean way of a pawn table), its
// file, the tables of its closure still to build with their largest peak (each built alone) and all
// their files, and whether that peak fits the job's memory limit: "KNNNNNvK  2.99e9 entries a side
// peak 7.22 GiB, whole  file 2.23 GiB  closure: 5 tables to build, peak 7.22 GiB, files 2.43 GiB
// fits". Solved by ranks, "peak 31.2 MiB at rank 0, which writes; 6.57 MiB at each
// other rank, by king pair over 4 ranks"; the limit is a rank's. Then a line that counts them:
// how many closures fit the limit, how many do not, and the largest of each.
std::vector<std::string> plan_table_lines(const JobPlan& plan);

}  // namespace retro
