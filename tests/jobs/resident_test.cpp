// The resident set and its peak over a stretch of work, as a job reports them for each table.
#include "jobs/resident.hpp"

#include <gtest/gtest.h>
#include <sys/mman.h>

#include <cstring>
#include <thread>

using namespace retro;

namespace {

constexpr size_t MIB = size_t(1) << 20;

// 64 MiB made resident, outside the heap (a sanitizer's allocator keeps what is freed).
struct Touched {
    static constexpr size_t SIZE = 64 * MIB;
    void* memory = mmap(nullptr, SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    Touched() { std::memset(memory, 1, SIZE); }
    ~Touched() { munmap(memory, SIZE); }
};

}  // namespace

TEST(JobsResident, APeakKeepsWhatWasResidentAndANewOneStartsFromNow) {
    const uint64_t before = resident_bytes();
    ASSERT_GT(before, 0u);
    ResidentPeak first;
    {
        const Touched touched;
        EXPECT_GE(resident_bytes(), before + 60 * MIB);
        EXPECT_GE(first.bytes(), before + 60 * MIB);  // a reading samples too
    }
    EXPECT_LT(resident_bytes(), before + 32 * MIB);  // handed back
    EXPECT_GE(first.bytes(), before + 60 * MIB) << "the peak stays";
    ResidentPeak second;
    EXPECT_LT(second.bytes(), before + 32 * MIB);
}

TEST(JobsResident, ASamplerSeesWhatIsHeldBetweenItsReadings) {
    ResidentPeak peak(std::chrono::milliseconds(5));
    const uint64_t before = peak.bytes();
    {
        const Touched touched;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    EXPECT_GE(peak.bytes(), before + 60 * MIB);
}
