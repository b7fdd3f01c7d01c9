// tbb::parallel_pipeline with its hand-offs made visible to ThreadSanitizer (tsan.hpp says why TSan
// needs to be told). Without TSan these are tbb::make_filter and tbb::parallel_pipeline.
//
//     par::parallel_pipeline(tokens, par::make_filter<void, A>(mode, first) &
//                                    par::make_filter<A, B>(mode, middle) &
//                                    par::make_filter<B, void>(mode, last));
//
// The bodies take and return A and B as with tbb::make_filter. Call both qualified, as
// par::parallel_for (parallel_for.hpp). Under TSan:
// - Fork and join: par::parallel_pipeline releases before the pipeline starts (the filters and the
//   copies of the bodies in them are made by then) and acquires after it ends; every call of a body
//   acquires as it starts and releases as it ends. These two addresses are shared by all pipelines:
//   a pipeline's caller may see the bodies of another pipeline that ran at the same time.
// - A serial stage handles one item at a time, in order: each call acquires from the one before.
//   The calls of a parallel stage do not, so a race between two of them is still found
//   (tests/parallel/parallel_test.cpp checks that it is).
// - An item goes from one stage to the next in an Item, which releases at its own address whenever
//   it is made or moved (TBB moves it into memory of its own, then hands that to another thread),
//   and the next stage acquires there before it reads the item.
#pragma once

#include <tbb/parallel_pipeline.h>

#include <cstddef>
#include <type_traits>
#include <utility>

#include "parallel/tsan.hpp"

namespace retro::par {

#ifdef RETRO_TSAN

namespace detail {
inline char pipeline_fork, pipeline_join;
}  // namespace detail

// A T on its way from one stage to the next.
template <class T>
class Item {
public:
    explicit Item(T value) : value_(std::move(value)) { tsan::release(this); }
    Item(Item&& from) noexcept(std::is_nothrow_move_constructible_v<T>) : value_(taken(from)) {
        tsan::release(this);
    }
    Item(const Item&) = delete;
    Item& operator=(const Item&) = delete;
    Item& operator=(Item&&) = delete;

    T&& take() {
        tsan::acquire(this);
        return std::move(value_);
    }

private:
    static T&& taken(Item& from) { return from.take(); }

    tsan::Recycled recycled_;  // first: TBB keeps items in memory from tbbmalloc
    T value_;
};

namespace detail {

template <class T>
using Token = std::conditional_t<std::is_void_v<T>, void, Item<T>>;

// One stage's body, as TBB calls it.
template <class In, class Out, class F>
class Stage {
public:
    Stage(tbb::filter_mode mode, const F& f) : f_(f), serial_(mode != tbb::filter_mode::parallel) {}
    Stage(const Stage&) = default;
    Stage& operator=(const Stage&) = delete;

    Token<Out> operator()(tbb::flow_control& control) const requires std::is_void_v<In> {
        const Call call(*this);
        if constexpr (std::is_void_v<Out>)
            f_(control);
        else
            return Item<Out>(f_(control));
    }

    Token<Out> operator()(Item<In>&& item) const requires(!std::is_void_v<In>) {
        const Call call(*this);
        if constexpr (std::is_void_v<Out>)
            f_(item.take());
        else
            return Item<Out>(f_(item.take()));
    }

private:
    // One call, from the fork to the join (also when the body throws).
    class Call {
    public:
        explicit Call(const Stage& stage) : stage_(stage) {
            tsan::acquire(&pipeline_fork);
            if (stage_.serial_) tsan::acquire(&stage_);
        }
        ~Call() {
            if (stage_.serial_) tsan::release(&stage_);
            tsan::release(&pipeline_join);
        }
        Call(const Call&) = delete;
        Call& operator=(const Call&) = delete;

    private:
        const Stage& stage_;
    };

    tsan::Recycled recycled_;  // first: TBB keeps the stages in memory from tbbmalloc
    F f_;
    bool serial_;
};

}  // namespace detail

template <class In, class Out, class F>
tbb::filter<detail::Token<In>, detail::Token<Out>> make_filter(tbb::filter_mode mode, const F& f) {
    return tbb::make_filter<detail::Token<In>, detail::Token<Out>>(mode, detail::Stage<In, Out, F>(mode, f));
}

inline void parallel_pipeline(std::size_t max_tokens, const tbb::filter<void, void>& chain) {
    tsan::release(&detail::pipeline_fork);
    const tsan::AcquireOnExit join(&detail::pipeline_join);
    tbb::parallel_pipeline(max_tokens, chain);
}

#else

template <class In, class Out, class F>
tbb::filter<In, Out> make_filter(tbb::filter_mode mode, const F& f) {
    return tbb::make_filter<In, Out>(mode, f);
}

inline void parallel_pipeline(std::size_t max_tokens, const tbb::filter<void, void>& chain) {
    tbb::parallel_pipeline(max_tokens, chain);
}

#endif

}  // namespace retro::par
