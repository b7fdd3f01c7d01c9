// ThreadSanitizer annotations for the parallel algorithms of this folder, and only for them: the
// rest of the code calls par::parallel_for and par::parallel_pipeline, never these. No-ops, compiled
// away, unless the build has -fsanitize=thread.
//
// Debian's libtbb.so is not built with -fsanitize=thread. TBB hands a task to a worker (spawn, steal)
// inside that library, with atomics TSan does not see, and keeps tasks and pipeline items in memory it
// recycles itself (its small-object pool, tbbmalloc), which TSan does not see freed or reused either.
// The wrappers declare those happens-before edges for our objects: release(a) on the thread that
// hands something over, acquire(a) on the thread that takes it, before it reads anything the first
// one wrote. The wait of a loop's caller for its last task TSan sees on its own in the TSan build,
// which defines TBB_USE_ASSERT (CMakeLists.txt): the assertion in ~wait_context loads, with acquire,
// the count the last task released. What TBB's inlined headers do with their own objects before our
// code runs cannot be annotated; scripts/tsan.supp suppresses those reports.
#pragma once

#if defined(__SANITIZE_THREAD__)
#define RETRO_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define RETRO_TSAN 1
#endif
#endif

#ifdef RETRO_TSAN
#include <sanitizer/tsan_interface.h>
#endif

namespace retro::par::tsan {

#ifdef RETRO_TSAN
inline constexpr bool enabled = true;

// All this thread has done so far happens before what a thread does after a later acquire(at).
inline void release(const void* at) { __tsan_release(const_cast<void*>(at)); }
inline void acquire(const void* at) { __tsan_acquire(const_cast<void*>(at)); }
#else
inline constexpr bool enabled = false;

inline void release(const void*) {}
inline void acquire(const void*) {}
#endif

// Acquires at `at` when it goes out of scope, also when an exception leaves the scope.
class AcquireOnExit {
public:
    explicit AcquireOnExit(const void* at) : at_(at) {}
    ~AcquireOnExit() { acquire(at_); }
    AcquireOnExit(const AcquireOnExit&) = delete;
    AcquireOnExit& operator=(const AcquireOnExit&) = delete;

private:
    const void* at_;
};

// Releases at `at` when it goes out of scope, also when an exception leaves the scope.
class ReleaseOnExit {
public:
    explicit ReleaseOnExit(const void* at) : at_(at) {}
    ~ReleaseOnExit() { release(at_); }
    ReleaseOnExit(const ReleaseOnExit&) = delete;
    ReleaseOnExit& operator=(const ReleaseOnExit&) = delete;

private:
    const void* at_;
};

// The first member of an object of ours that TBB places in memory of its own: a task from its
// small-object pool, a pipeline token from tbbmalloc. TSan sees that memory neither freed nor reused,
// so an object made there would seem to race with the one there before it, on another thread. The
// guard releases as the object is destroyed, after its other members (they are destroyed first), and
// acquires as the next object in its place is made, before its other members.
class Recycled {
public:
    Recycled() { acquire(this); }
    Recycled(const Recycled&) : Recycled() {}
    Recycled& operator=(const Recycled&) { return *this; }
    ~Recycled() { release(this); }
};

}  // namespace retro::par::tsan
