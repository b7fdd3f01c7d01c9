#include "jobs/heap.hpp"

#include <malloc.h>

namespace retro {

void set_job_heap_thresholds() {
    mallopt(M_MMAP_THRESHOLD, 1 << 20);
    mallopt(M_TRIM_THRESHOLD, int(KEPT_HEAP_BYTES));
}

void hand_back_free_heap() { malloc_trim(0); }

}  // namespace retro
