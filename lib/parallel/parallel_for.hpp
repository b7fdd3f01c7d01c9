// tbb::parallel_for with its fork and join made visible to ThreadSanitizer.
//
// Debian's libtbb is not built with -fsanitize=thread: TSan sees neither the hand-off of a task to a
// worker nor the caller's wait for the last one, both done with atomics inside libtbb.so. It would
// report every write of a loop body read after the loop (or every write before the loop read in a
// body) as a race, in our code, where no suppression can tell it from a real one. Under TSan each
// body therefore acquires, as it starts, what the caller released before the loop, and releases, as it
// ends, what the caller acquires once the loop is over. Bodies never acquire from one another, so
// races between two bodies of one loop are still found. Without TSan this is tbb::parallel_for.
//
// Call it as par::parallel_for: unqualified, argument-dependent lookup would pick tbb::parallel_for
// for a tbb::blocked_range (its constrained template wins the overload) and skip these annotations.
#pragma once

#include <tbb/parallel_for.h>

#if defined(__SANITIZE_THREAD__)
extern "C" void __tsan_acquire(void* addr);
extern "C" void __tsan_release(void* addr);
#endif

namespace retro::par {

#if defined(__SANITIZE_THREAD__)
// The addresses TSan keeps the fork, join and order clocks at. They are shared by all loops, not
// kept per loop: a body must acquire the fork before it reads anything, its own captures included
// (TBB copied them on another thread). Other parallel algorithms (the solver's parallel_pipeline)
// use ForkJoin directly: one around the call, a Body (or InOrder) at the top of each body.
inline char fork_clock, join_clock, order_clock;

class ForkJoin {
public:
    ForkJoin() { __tsan_release(&fork_clock); }
    ~ForkJoin() { __tsan_acquire(&join_clock); }
    ForkJoin(const ForkJoin&) = delete;
    ForkJoin& operator=(const ForkJoin&) = delete;

    // One body's run, from the fork to the join (also when the body throws).
    class Body {
    public:
        // The barrier keeps the compiler from reading the body's captures before the acquire.
        Body() {
            __tsan_acquire(&fork_clock);
            asm volatile("" ::: "memory");
        }
        ~Body() { __tsan_release(&join_clock); }
        Body(const Body&) = delete;
        Body& operator=(const Body&) = delete;
    };

    // In a body that TBB runs in order after others (a pipeline's serial stage, or the stage a
    // parallel one hands its item to): sees what the bodies before it in that order wrote.
    class InOrder {
    public:
        InOrder() {
            __tsan_acquire(&order_clock);
            asm volatile("" ::: "memory");
        }
        ~InOrder() { __tsan_release(&order_clock); }
        InOrder(const InOrder&) = delete;
        InOrder& operator=(const InOrder&) = delete;

    private:
        Body body_;
    };
};

template <class Range, class F>
void parallel_for(const Range& range, const F& body) {
    ForkJoin loop;
    tbb::parallel_for(range, [&](const Range& r) {
        const ForkJoin::Body run;
        body(r);
    });
}

template <class Index, class F>
void parallel_for(Index first, Index last, const F& f) {
    ForkJoin loop;
    tbb::parallel_for(first, last, [&](Index i) {
        const ForkJoin::Body run;
        f(i);
    });
}

#else

// No-ops (user-provided constructors: declared and unused, they draw no warning).
struct ForkJoin {
    ForkJoin() {}
    struct Body {
        Body() {}
    };
    struct InOrder {
        InOrder() {}
    };
};

template <class Range, class F>
void parallel_for(const Range& range, const F& body) {
    tbb::parallel_for(range, body);
}

template <class Index, class F>
void parallel_for(Index first, Index last, const F& f) {
    tbb::parallel_for(first, last, f);
}

#endif

}  // namespace retro::par
