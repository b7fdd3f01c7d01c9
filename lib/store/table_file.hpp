// The table file: a header and the values of both sides to move. See docs/format.md.
#pragma once

#include <filesystem>
#include <memory>
#include <stdexcept>

#include "store/table.hpp"

namespace retro {

// A table file that is missing, truncated, corrupted or of another material; what() names the file.
class StoreError : public std::runtime_error {
    using std::runtime_error::runtime_error;
};

// dir/KQvKR.rtb
std::filesystem::path table_path(const std::filesystem::path& dir, const Material& m);

// Writes to a temporary name in the same directory, flushes to disk, then renames, so a file with
// the final name is always complete.
void write_table(const Table& table, const std::filesystem::path& path);

// Reads and checks a table file (header, sizes, checksums). Throws StoreError.
std::unique_ptr<Table> read_table(const std::filesystem::path& path);

// True when the file exists and passes every check (used to skip finished work).
bool table_file_valid(const std::filesystem::path& path);

}  // namespace retro
