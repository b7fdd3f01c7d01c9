#include "jobs/heap.hpp"

#include <malloc.h>

namespace retro {

void return_freed_memory_promptly() { mallopt(M_MMAP_THRESHOLD, 1 << 20); }

void hand_back_free_heap() { malloc_trim(0); }

}  // namespace retro
