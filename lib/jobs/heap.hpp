// The heap of a process that runs jobs: what a job frees goes back to the system at once.
#pragma once

namespace retro {

// glibc serves allocations from 128 KiB up by mmap and unmaps them when freed, but raises that
// threshold to the largest block freed (up to 32 MiB), after which a pawn table's slices come from the
// heap and stay resident once freed (KRPvKR with `--cache 100M` peaked at 148 MiB, 114 MiB with the
// threshold fixed). Fixing it at 1 MiB keeps the resident set at what the job holds, which its memory
// estimate counts. Call once, before the first large allocation.
void return_freed_memory_promptly();

// Hands the free pages of every thread's heap arena back to the system. Blocks under the threshold
// above stay in the arena that served them once freed, so a small table's peak would otherwise count
// what earlier tables left there. Called between tables, before a table's peak is measured.
void hand_back_free_heap();

}  // namespace retro
