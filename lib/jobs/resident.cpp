#include "jobs/resident.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <fstream>

namespace retro {

uint64_t resident_bytes() {
    std::ifstream statm("/proc/self/statm");
    uint64_t pages = 0, resident = 0;
    if (!(statm >> pages >> resident)) return 0;
    return resident * uint64_t(sysconf(_SC_PAGESIZE));
}

uint64_t peak_resident_bytes() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return uint64_t(usage.ru_maxrss) * 1024;
}

ResidentPeak::ResidentPeak(std::chrono::milliseconds period) {
    sample();
    sampler_ = std::jthread([this, period](std::stop_token stop) {
        std::unique_lock lock(mutex_);
        while (!stop.stop_requested()) {
            wake_.wait_for(lock, stop, period, [] { return false; });  // a stop wakes it at once
            sample();
        }
    });
}

void ResidentPeak::sample() {
    const uint64_t now = resident_bytes();
    uint64_t seen = peak_.load(std::memory_order_relaxed);
    while (now > seen && !peak_.compare_exchange_weak(seen, now, std::memory_order_relaxed)) {
    }
}

uint64_t ResidentPeak::bytes() {
    sample();
    return peak_.load(std::memory_order_relaxed);
}

}  // namespace retro
