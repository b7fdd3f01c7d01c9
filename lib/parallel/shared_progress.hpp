// Progress of a parallel loop, counted by its tasks as they finish pieces of the work and reported
// to a callback one call at a time, in order; a task that finds another reporting goes on instead of
// waiting for it.
#pragma once

#include <atomic>
#include <cassert>
#include <cstdint>
#include <functional>
#include <mutex>

namespace retro::par {

class SharedProgress {
public:
    using Report = std::function<void(uint64_t done, uint64_t total)>;

    // report may be empty: the counting then costs one atomic addition per piece.
    SharedProgress(Report report, uint64_t total) : report_(std::move(report)), total_(total) {}

    // n more units done (never more than total in all); reports them unless another task is
    // reporting.
    void add(uint64_t n) {
        done_.fetch_add(n, std::memory_order_relaxed);
        if (!report_) return;
        std::unique_lock lock(mutex_, std::try_to_lock);
        if (!lock) return;
        // Read under the lock, so that successive reports never go down.
        const uint64_t done = done_.load(std::memory_order_relaxed);
        assert(done <= total_);
        report_(done, total_);
    }

    // Reports the whole work done (once the loop is over).
    void finish() {
        if (!report_) return;
        std::lock_guard lock(mutex_);
        report_(total_, total_);
    }

private:
    Report report_;
    uint64_t total_;
    std::atomic<uint64_t> done_{0};
    std::mutex mutex_;
};

}  // namespace retro::par
