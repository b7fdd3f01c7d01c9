#pragma once

#include <atomic>
#include <stdexcept>
#include <string>

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

// Thrown when a stop was requested while a table was being read whole (read_table_as_stored, or
// Tablebase::find completing one); nothing of the table is kept.
class ReadStopped : public StoreError {
    using StoreError::StoreError;
};

// A whole-table read in parallel pieces: once `stop` is raised, the pieces not yet begun are
// skipped, and the read then ends in ReadStopped.
class ReadStop {
public:
    explicit ReadStop(const std::atomic<bool>* stop) : stop_(stop) {}
    // Whether to skip this piece: the stop was raised.
    bool skip() {
        if (!stop_ || !stop_->load(std::memory_order_relaxed)) return false;
        skipped_.store(true, std::memory_order_relaxed);
        return true;
    }
    // Throws ReadStopped ("NAME: reading stopped") when a piece was skipped.
    void throw_if_skipped(const std::string& name) const {
        if (skipped_.load(std::memory_order_relaxed)) throw ReadStopped(name + ": reading stopped");
    }

private:
    const std::atomic<bool>* stop_;
    std::atomic<bool> skipped_ = false;
};

}  // namespace retro
