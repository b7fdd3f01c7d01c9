// Items 0 .. count-1 made in parallel and used one at a time, in order: a layer of the solver logged
// chunk by chunk, a table file written block by block. At most `in_flight` items exist at once, so
// memory stays bounded however many there are.
//
// No stage lets an exception out: TBB would cancel the pipeline and leak the items in flight. The
// first exception of `make` or `use` stops the making of further items (those in flight are
// dropped) and is rethrown once the pipeline is over.
#pragma once

#include <atomic>
#include <cstdint>
#include <exception>
#include <mutex>
#include <optional>

#include "parallel/pipeline.hpp"

namespace retro::par {

// make(i) -> T, for any i, on any thread; use(T&&) in the order of i, one call at a time. Stops
// making items once more() is false (asked before each item, one call at a time; those in flight
// are still used): items 0 .. made-1 were made, and `made` is returned.
template <class More, class Make, class Use>
uint64_t ordered_pipeline_while(uint64_t count, size_t in_flight, const More& more, const Make& make,
                                const Use& use) {
    if (count <= 1) {  // nothing to overlap: a small slice's layer, swept thousands of times
        if (count == 0 || !more()) return 0;
        use(make(0));
        return 1;
    }
    using T = decltype(make(uint64_t(0)));
    uint64_t next = 0;
    std::exception_ptr error;
    std::atomic<bool> failed{false};
    std::mutex error_mutex;
    const auto keep = [&](std::exception_ptr e) {
        std::lock_guard lock(error_mutex);
        if (!error) error = e;
        failed = true;
    };
    par::parallel_pipeline(
        in_flight, par::make_filter<void, uint64_t>(tbb::filter_mode::serial_in_order,
                                                    [&](tbb::flow_control& fc) -> uint64_t {
                                                        if (next == count || failed || !more()) {
                                                            fc.stop();
                                                            return 0;
                                                        }
                                                        return next++;
                                                    }) &
                       par::make_filter<uint64_t, std::optional<T>>(tbb::filter_mode::parallel,
                                                                    [&](uint64_t i) -> std::optional<T> {
                                                                        if (failed) return std::nullopt;
                                                                        try {
                                                                            return make(i);
                                                                        } catch (...) {
                                                                            keep(std::current_exception());
                                                                            return std::nullopt;
                                                                        }
                                                                    }) &
                       par::make_filter<std::optional<T>, void>(tbb::filter_mode::serial_in_order,
                                                                [&](std::optional<T> item) {
                                                                    if (!item || failed) return;
                                                                    try {
                                                                        use(std::move(*item));
                                                                    } catch (...) {
                                                                        keep(std::current_exception());
                                                                    }
                                                                }));
    if (error) std::rethrow_exception(error);
    return next;
}

// Every item: ordered_pipeline_while with no stop.
template <class Make, class Use>
void ordered_pipeline(uint64_t count, size_t in_flight, const Make& make, const Use& use) {
    ordered_pipeline_while(
        count, in_flight, [] { return true; }, make, use);
}

}  // namespace retro::par
