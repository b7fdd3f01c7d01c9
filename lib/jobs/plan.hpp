// Planning a generation job: which tables, in which order, which are already done, and what the
// rest will cost in memory and disk.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "index/material.hpp"
#include "jobs/estimates.hpp"
#include "jobs/settings.hpp"

namespace retro {

class JobError : public std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Every canonical material of 3 to `men` men (pawns included; bare kings excluded), sorted by
// number of men, then by name. Up to 5 men: 5 + 30 + 110 = 145 materials.
std::vector<Material> materials_up_to(int men);

// One version of a file: a file renamed over it (as another process writes a table) is another.
struct FileStamp {
    uint64_t device = 0, inode = 0, size = 0;
    int64_t modified_ns = 0;
    friend bool operator==(const FileStamp&, const FileStamp&) = default;
};
// nullopt when there is no such file.
std::optional<FileStamp> file_stamp(const std::filesystem::path& path);

struct PlannedTable {
    Material material;
    uint64_t entries = 0;         // index entries per side to move
    bool complete = false;        // its file exists and passes every check: skipped
    bool has_checkpoint = false;  // a checkpoint of a solve in progress exists: resumed
    // The ranks whose solve wrote it, when its header says: only as many resume it.
    std::optional<int> checkpoint_ranks;
    // The file found there and failed (a table to build): another process's file replaces it.
    std::optional<FileStamp> damaged_file;

    // How it is solved within the job's cache and memory limit, and what it holds.
    MemoryPlan memory;
    // Whether a table still to build reads it in part (its promotions into a table of as many men,
    // when memory_plan reads them so): it is then written self-contained, as completing values settled
    // by exits would cost a search per entry read.
    bool read_in_part = false;
    // Whether a table still to build reads it: a settled one then gets an exact copy
    // (store/table_file.hpp) for as long as such a table is left.
    bool read_whole_later = false;
    // Whether its file settles values by exits: not when the job writes self-contained files, nor when
    // a table reads it in part.
    bool settles = false;
};

struct JobPlan {
    std::filesystem::path dir;
    std::vector<PlannedTable> tables;  // dependency order: every table after all it needs
    JobSettings settings;              // as asked
    JobResources resources;            // the settings with their defaults applied
    // Free disk where the tables go (free_disk_bytes), read when the job was planned.
    std::optional<uint64_t> free_disk;
    double check_seconds = 0;  // reading and checking the table files already there took this long
    // The complete tables without a current exact copy whose files settle values by exits or drop a
    // side: a table that reads one whole completes it (MemoryPlan::completing). The job's own tables
    // are read from their copies; self-contained files need no completion.
    std::set<Material> completed_when_read;
    // The same with a current copy too: every complete table whose file needs its sub-tables. A
    // job's completion chains go through them (jobs/completion_chain.hpp), and their copies (written
    // by a chain of this job or of a stopped one) stay while any table is left to build.
    std::set<Material> settled_complete;

    int to_build() const;
    // Index entries (both sides to move) of the tables still to build.
    uint64_t entries_to_build() const;
    // The tables still to build, in order, with their index entries (both sides to move): the work
    // JobProgress counts.
    std::vector<std::pair<Material, uint64_t>> work() const;
    // The plan of m, one of its tables.
    const PlannedTable& table(const Material& m) const;
    const MemoryPlan& memory(const Material& m) const { return table(m).memory; }
    bool read_in_part(const Material& m) const { return table(m).read_in_part; }
    bool read_whole_later(const Material& m) const { return table(m).read_whole_later; }
    bool settles(const Material& m) const { return table(m).settles; }
    // Peak bytes in memory over the tables still to build (each solved with only its direct
    // sub-tables in memory), and which table sets it.
    uint64_t peak_memory() const;
    std::optional<Material> peak_memory_table() const;
    // Disk the job still needs at its peak, its tables built in order: the files written so far, the
    // exact copies still to be read (of the job's tables read whole later, until the last table that
    // reads each is done; and of the tables of their completion chains, jobs/completion_chain.hpp,
    // until the job ends), and the table being built: its checkpoint twice while it is solved (the
    // old one stays until the new one is renamed over it), then its file beside the checkpoint, then
    // the file and its copy.
    uint64_t disk_needed(FileSize size) const;
    // Disk all the files of the plan take when the job is done.
    uint64_t disk_total(FileSize size) const;
};

// Plans building `targets` and everything they need into `dir` with `settings`, checking the files
// already there (reads each existing table file once to verify it), and decides how each table is
// held in memory and written.
JobPlan make_plan(const std::vector<Material>& targets, const std::filesystem::path& dir,
                  const JobSettings& settings = {});

// A clear reason to refuse the job, or nullopt when it fits. limit 0 = no memory limit;
// free_disk nullopt = do not check the disk.
std::optional<std::string> refusal(const JobPlan& plan, uint64_t memory_limit,
                                   std::optional<uint64_t> free_disk);
// The same against the plan's memory limit and, unless its settings ignore it, its free disk.
std::optional<std::string> refusal(const JobPlan& plan);

// When some tables still to build need more memory than `limit` on their own: how many fit and how
// many do not, split by pawns, with the largest of each ("400 of 510 tables to build fit the limit
// of 23.2 GiB: every table without pawns (the largest, KQRvKQR, 13.1 GiB) and 255 with pawns; 110
// do not, all with pawns (the largest, KBNPvKP, 306 GiB)"). nullopt when all fit or limit is 0.
std::optional<std::string> memory_fit(const JobPlan& plan, uint64_t limit);

// Seconds the tables still to build take on `workers` machines alike, each taking the first table in
// the plan's order whose sub-tables are complete and that no other machine builds (as jobs sharing a
// directory do), given each table's seconds.
double schedule_seconds(const JobPlan& plan, const std::function<double(const PlannedTable&)>& seconds,
                        int workers);

// Creates dir if needed and checks that a file can be created, written, flushed and removed there.
// Throws JobError naming the directory and the reason (permission denied, read-only, disk full).
void check_writable_dir(const std::filesystem::path& dir);

}  // namespace retro
