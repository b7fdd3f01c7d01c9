#pragma once

#include <stdexcept>

namespace retro {

// A table file that is missing, truncated, corrupted, of another material or otherwise unreadable, or
// a write that failed; what() names the file and says what is wrong.
class StoreError : public std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Thrown when a stop was requested while a file was being written (WriteOptions::stop); no file with
// the final name is left behind, but the blocks written so far stay in FILE.tmp for the next write
// (store/write_journal.hpp).
class WriteStopped : public StoreError {
    using StoreError::StoreError;
};

// Thrown when a stop was requested while a table was being read whole (read_stored_table, or
// Tablebase::find completing one); nothing of the table is kept.
class ReadStopped : public StoreError {
    using StoreError::StoreError;
};

}  // namespace retro
