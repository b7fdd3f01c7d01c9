// The heap of a process that runs jobs: what a job frees in large blocks goes back to the system at
// once, while the small buffers it frees stay for the next.
#pragma once

#include <cstdint>

namespace retro {

// The free top of a heap arena that stays for the next allocation (the trim threshold below).
constexpr uint64_t KEPT_HEAP_BYTES = uint64_t(2) << 20;

// glibc serves allocations from 128 KiB up by mmap and unmaps them when freed, but raises that
// threshold to the largest block freed (up to 32 MiB), after which a pawn table's slices come from the
// heap and stay resident once freed (KRPvKR with `--cache 100M` peaked at 148 MiB, 114 MiB with the
// threshold fixed). Fixing it at 1 MiB keeps the resident set at what the job holds, which its memory
// estimate counts. Fixing it also fixes the trim threshold, the free top of a heap handed back to
// the system, at 128 KiB, less than the buffers a table's writer frees after each block (about 1
// MiB), which were then faulted in again block after block: KEPT_HEAP_BYTES keeps them. Set as each
// job starts (run_job), and first thing by the programs that read or write whole tables.
void set_job_heap_thresholds();

// The free heap a job's threads keep at most, an arena each and one for the main thread.
constexpr uint64_t kept_heap_bytes(int threads) { return uint64_t(threads + 1) * KEPT_HEAP_BYTES; }

// Hands the free pages of every thread's heap arena back to the system. Blocks under the thresholds
// above stay in the arena that served them once freed, so a small table's peak would otherwise count
// what earlier tables left there. Called between tables, before a table's peak is measured.
void hand_back_free_heap();

}  // namespace retro
