// What a generation job is asked to use (tbgen's options, retrograde.generate's keywords) and the
// defaults that fill what is not asked, applied here once for every caller.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>

#include "index/pawn_slices.hpp"
#include "store/table_file.hpp"

namespace retro {

// Whether a job refuses to start when its disk estimate exceeds the free space (tbgen
// --no-disk-check ignores it).
enum class DiskCheck : uint8_t { Refuse, Ignore };

struct JobSettings {
    // Bytes a table's peak may take. Unset: the machine's available memory (MemAvailable); 0: none.
    std::optional<uint64_t> memory_limit;
    // What a pawn table may hold besides its slice in progress and its captures' tables
    // (memory_plan in jobs/estimates.hpp). Unset: half the memory limit, room for the page cache and
    // for the limit to be no more than an estimate; none without a memory limit.
    std::optional<uint64_t> cache;
    int threads = 0;  // 0: one per core
    // The processes that solve each pawnless table together (MPI ranks: tbgen under mpirun, or
    // --ranks for a dry run): the memory plan is then a rank's.
    int ranks = 1;
    // Codec and layout of the files. A job writes zstd (at its default level, 15): 1.5-3 times faster
    // than xz 6 for 1% fewer to 13% more bytes (docs/format.md), where xz would take a third of the job.
    WriteOptions write{.codec = Codec::Zstd};
    DiskCheck disk_check = DiskCheck::Refuse;
    // A pawn table's slices of fewer entries per side are solved side by side, a thread (or a rank)
    // each; larger ones one at a time, split over the threads and ranks. At most the default, which
    // the memory estimates assume (fewer slices at once need no more).
    uint64_t waves_below = WAVE_SLICE_ENTRIES;
};

// The settings with their defaults applied: what a job plans with.
struct JobResources {
    uint64_t memory_limit = 0;    // 0: none
    uint64_t cache = UINT64_MAX;  // UINT64_MAX: none
    int threads = 1;
    // The threads' compressors and decompressors for the job's codec, and the heap they keep for their
    // blocks' buffers (MemoryPlan::codecs).
    uint64_t codecs = 0;
};

// Reads MemAvailable when the settings leave the memory limit unset.
JobResources job_resources(const JobSettings& settings);

// Free bytes on the filesystem that holds `dir`, or would hold it once created (the nearest folder
// above it that exists); nullopt when that cannot be read.
std::optional<uint64_t> free_disk_bytes(const std::filesystem::path& dir);

}  // namespace retro
