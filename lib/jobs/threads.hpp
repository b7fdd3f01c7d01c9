// Running work on an exact number of worker threads.
#pragma once

#include <tbb/global_control.h>
#include <tbb/info.h>
#include <tbb/task_arena.h>

#include <utility>

namespace retro {

// The threads `n` asks for: n, or one per core for 0.
inline int thread_count(int n) { return n > 0 ? n : tbb::info::default_concurrency(); }

// Runs f() with n threads (0: one per core). The global control caps every parallel loop; the arena
// of n slots lets the pool grow past the number of cores when n asks for more (oversubscription).
template <class F>
auto with_threads(int n, F&& f) {
    const int count = thread_count(n);
    tbb::global_control control(tbb::global_control::max_allowed_parallelism, size_t(count));
    tbb::task_arena arena(count);
    return arena.execute(std::forward<F>(f));
}

}  // namespace retro
