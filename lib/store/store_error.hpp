#pragma once

#include <atomic>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace retro {

// A table file that is missing, truncated, corrupted, of another material or otherwise unreadable, or
// a write that failed; what() names the file and says what is wrong.
class StoreError : public std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Thrown when a stop was requested (Control::stop) while a table was being solved (its solved plies
// are in its checkpoint, if one was named), read whole (nothing of it is kept) or written (no file
// with the final name is left behind, but the blocks written so far stay in FILE.tmp for the next
// write: store/write_journal.hpp). Here, in the lowest layer that stops, so that every layer throws
// and catches this one type.
class Stopped : public std::runtime_error {
public:
    // What the stop cut short.
    enum class Work : uint8_t { Solving, Reading, Writing };
    Stopped(Work work, const std::string& message) : std::runtime_error(message), work_(work) {}
    Work work() const { return work_; }

private:
    Work work_;
};

// A whole-table read in parallel pieces: once `stop` is raised, the pieces not yet begun are
// skipped, and the read then ends in Stopped.
class ReadStop {
public:
    explicit ReadStop(const std::atomic<bool>* stop) : stop_(stop) {}
    // Whether to skip this piece: the stop was raised.
    bool skip() {
        if (!stop_ || !stop_->load(std::memory_order_relaxed)) return false;
        skipped_.store(true, std::memory_order_relaxed);
        return true;
    }
    // Throws Stopped ("NAME: reading stopped") when a piece was skipped.
    void throw_if_skipped(const std::string& name) const {
        if (skipped_.load(std::memory_order_relaxed))
            throw Stopped(Stopped::Work::Reading, name + ": reading stopped");
    }

private:
    const std::atomic<bool>* stop_;
    std::atomic<bool> skipped_ = false;
};

}  // namespace retro
