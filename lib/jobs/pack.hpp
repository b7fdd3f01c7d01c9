// Rewriting a directory of table files in another form (shipping or full, codec, level, block size)
// without solving again: tbpack's job, stoppable and resumable like a solve.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "index/material.hpp"
#include "store/table_file.hpp"

namespace retro {

struct PackOptions {
    // The form to write; write.control.stop, when set and raised, stops the pack within a block (the blocks
    // written so far stay for the next pack of that table) or between two tables.
    WriteOptions write;
    bool overwrite = false;  // write again the tables whose file is complete in that form
    // One line per table: packed ("NAME: 1.2 MiB -> 0.6 MiB in 3 s"), skipped, or (a sub-table not
    // named) read for the exact copy of it that later tables read.
    std::function<void(const std::string&)> report = [](const std::string&) {};
};

struct PackResult {
    int packed = 0, skipped = 0;
    uint64_t bytes_before = 0, bytes_after = 0;  // of the packed and skipped tables, in both directories
    // Not packed: another process held their lock (jobs/table_lock.hpp) in the target directory.
    std::vector<Material> left_to_others;
    bool interrupted = false;
    std::string stopped_at;  // where the stop came: "before KQvK", "while packing KQvK (why)"
};

// Whether `to` is complete and what a pack with `write` would write from `from`: the same form
// (shipping or full, settled by exits or self-contained, codec, and the block size when one is asked
// for), and not older than its source. (The level is not in the file.)
bool packed_already(const std::filesystem::path& from, const std::filesystem::path& to,
                    const WriteOptions& write);

// Rewrites the tables `names` of `from` (e.g. table_file_names(from)) into `to`, each after the
// tables it needs, skipping those packed_already unless options.overwrite: after a stop, the same
// call goes on where it was. Each table is written holding its lock in `to`, as tbgen's are: one
// that another process holds is left to it (PackResult::left_to_others). A file settled by exits
// (or in the shipping form) is read whole through its sub-tables read whole, recursively: each
// table the pack reads whole (named or not) and a later one reads again gets an exact copy in `to`,
// read instead of completing its file again, and removed after the last table that reads it.
// Throws for a missing or unreadable source and a failed write.
PackResult pack_tables(const std::filesystem::path& from, const std::filesystem::path& to,
                       const std::vector<std::string>& names, const PackOptions& options);

// The tables one capture or promotion away from `names` that are not in `to`, where the files a pack
// with `write` writes read their values (settled by exits, or in the shipping form); none for
// self-contained full files.
std::vector<Material> subtables_missing_from(const std::filesystem::path& to,
                                             const std::vector<std::string>& names,
                                             const WriteOptions& write);

}  // namespace retro
