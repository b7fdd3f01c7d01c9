// tbb::parallel_for with its fork and join made visible to ThreadSanitizer (tsan.hpp says why TSan
// needs to be told). Without TSan this is tbb::parallel_for.
//
// Fork. TBB copies the loop body into each task it makes (tbb::detail::d1::start_for::my_body): the
// caller into the first task inside tbb::parallel_for, and a worker that splits a range into the new
// task, which another worker may steal. A copy is thus written by one thread after anything the
// caller could annotate before the loop, and read by another, so the body handed to TBB is a
// LoopBody: each copy releases at its own address once made (having acquired at the copy it was made
// from), and each call acquires at its own address before it reads anything. A call thus sees what
// the loop's caller did before the loop, through the chain of copies, as TBB guarantees.
//
// Join. Each call releases, as it ends (also when the body throws), at the caller's body object, and
// the caller acquires there once tbb::parallel_for returns (or throws).
//
// Calls never acquire from one another's ends, so a race between two calls of one loop is still found
// (tests/parallel/parallel_test.cpp checks that it is).
//
// Call it as par::parallel_for: unqualified, argument-dependent lookup would pick tbb::parallel_for
// for a tbb::blocked_range (its constrained template wins the overload) and skip these annotations.
#pragma once

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "parallel/tsan.hpp"

namespace retro::par {

namespace detail {

template <class Range, class F>
class LoopBody {
public:
    explicit LoopBody(const F& f) : f_(&f) { tsan::release(this); }
    LoopBody(const LoopBody& from) : f_(copied(from)) { tsan::release(this); }
    LoopBody& operator=(const LoopBody&) = delete;

    void operator()(const Range& r) const {
        tsan::acquire(this);
        const tsan::ReleaseOnExit join(f_);
        (*f_)(r);
    }

private:
    static const F* copied(const LoopBody& from) {
        tsan::acquire(&from);
        return from.f_;
    }

    tsan::Recycled recycled_;  // first: TBB keeps the copies in its task pool
    const F* f_;
};

}  // namespace detail

template <class Range, class F>
void parallel_for(const Range& range, const F& body) {
    if constexpr (tsan::enabled) {
        const tsan::AcquireOnExit join(&body);
        tbb::parallel_for(range, detail::LoopBody<Range, F>(body));
    } else {
        tbb::parallel_for(range, body);
    }
}

// f(i) for i in [first, last): under TSan the range form above, as tbb::parallel_for does it (a
// blocked_range of grain 1 under the auto partitioner), so the same annotations cover it.
template <class Index, class F>
void parallel_for(Index first, Index last, const F& f) {
    if constexpr (tsan::enabled) {
        if (!(first < last)) return;
        par::parallel_for(tbb::blocked_range<Index>(first, last), [&f](const tbb::blocked_range<Index>& r) {
            for (Index i = r.begin(); i != r.end(); ++i) f(i);
        });
    } else {
        tbb::parallel_for(first, last, f);
    }
}

}  // namespace retro::par
