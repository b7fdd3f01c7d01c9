// The resident set of the process, and its peak over a stretch of work (a table of a job): what a
// memory estimate is checked against.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>

namespace retro {

// The memory the process holds resident now (Linux: /proc/self/statm); 0 when it cannot be read.
uint64_t resident_bytes();
// The most the process has held resident since it started: the kernel's high-water mark, which
// getrusage and time(1) report.
uint64_t peak_resident_bytes();

// Samples the resident set every `period` while it lives and keeps the most seen. The kernel's own
// high-water mark could be restarted per table instead, but getrusage and time(1) report that mark,
// and they would then see the last table's peak rather than the job's.
class ResidentPeak {
public:
    explicit ResidentPeak(std::chrono::milliseconds period = std::chrono::milliseconds(100));
    ResidentPeak(const ResidentPeak&) = delete;
    ResidentPeak& operator=(const ResidentPeak&) = delete;

    // The most seen so far, sampling once more; 0 when the resident set cannot be read.
    uint64_t bytes();

private:
    void sample();

    std::atomic<uint64_t> peak_{0};
    std::mutex mutex_;
    std::condition_variable_any wake_;
    std::jthread sampler_;  // last: stopped and joined before the rest goes
};

}  // namespace retro
