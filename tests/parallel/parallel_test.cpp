// par::parallel_for and par::parallel_pipeline: what they compute and, under ThreadSanitizer, that
// their annotations show TSan the fork, the join and the hand-off of items (no report on the clean
// loops here) without hiding a race between two loop bodies or two calls of a parallel stage (a
// report from the racy ones, run in a child process).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <tbb/blocked_range.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <thread>
#include <vector>

#include "parallel/ordered_pipeline.hpp"
#include "parallel/parallel_for.hpp"
#include "parallel/pipeline.hpp"

using namespace retro;

namespace {

TEST(Parallel, LoopSeesTheWritesBeforeItAndItsCallerSeesItsWrites) {
    tbb::task_arena arena(2);
    arena.execute([] {
        for (uint64_t round = 0; round < 40; ++round) {
            std::vector<uint64_t> v(5000);
            const uint64_t offset = round;
            par::parallel_for(tbb::blocked_range<size_t>(0, v.size(), 16), [&](const auto& r) {
                for (size_t i = r.begin(); i < r.end(); ++i) v[i] = i + offset;
            });
            EXPECT_EQ(std::accumulate(v.begin(), v.end(), uint64_t(0)), 5000 * 4999 / 2 + 5000 * offset);
            std::vector<uint32_t> w(700);
            par::parallel_for(uint32_t(0), uint32_t(w.size()), [&](uint32_t i) { w[i] = 2 * i + 1; });
            for (uint32_t i = 0; i < w.size(); ++i) ASSERT_EQ(w[i], 2 * i + 1);
        }
    });
}

TEST(Parallel, EmptyIndexRangesRunNothing) {
    par::parallel_for(5u, 5u, [](unsigned) { ADD_FAILURE(); });
    par::parallel_for(5u, 3u, [](unsigned) { ADD_FAILURE(); });
}

TEST(Parallel, PipelineHandsEachItemOnAndKeepsSerialStagesInOrder) {
    tbb::task_arena arena(2);
    arena.execute([] {
        for (int round = 0; round < 10; ++round) {
            uint32_t next = 0;
            std::vector<uint32_t> order;
            par::parallel_pipeline(
                8, par::make_filter<void, uint32_t>(tbb::filter_mode::serial_in_order,
                                                    [&](tbb::flow_control& fc) -> uint32_t {
                                                        if (next == 300) fc.stop();
                                                        return next++;
                                                    }) &
                       par::make_filter<uint32_t, std::vector<uint32_t>>(
                           tbb::filter_mode::parallel,
                           [](uint32_t k) { return std::vector<uint32_t>(k % 5 + 1, k); }) &
                       par::make_filter<std::vector<uint32_t>, void>(
                           tbb::filter_mode::serial_in_order, [&](const std::vector<uint32_t>& items) {
                               order.insert(order.end(), items.begin(), items.end());
                           }));
            ASSERT_EQ(order.size(), 60u * (1 + 2 + 3 + 4 + 5));  // k % 5 + 1 copies of each k
            EXPECT_TRUE(std::is_sorted(order.begin(), order.end()));
            EXPECT_EQ(order.front(), 0u);
            EXPECT_EQ(order.back(), 299u);
        }
    });
}

// Stopped by its condition, the pipeline has made and used a prefix of the items, in order, and
// says how long: the sweeps on ranks end a round of chunks this way when its updates reach a budget.
TEST(Parallel, OrderedPipelineStopsAfterAPrefixWhenToldTo) {
    tbb::task_arena arena(2);
    arena.execute([] {
        for (const uint64_t budget : {0u, 1u, 7u, 100u, 1000u}) {
            std::atomic<uint64_t> made{0};
            std::vector<uint64_t> used;
            const uint64_t count = par::ordered_pipeline_while(
                300, 8, [&] { return made.load() < budget; },
                [&](uint64_t i) {
                    made.fetch_add(1);
                    return i;
                },
                [&](uint64_t i) { used.push_back(i); });
            // The condition is asked before each item is handed on, so at most the 8 in flight pass it
            // after `budget` have been asked for.
            EXPECT_GE(count, std::min<uint64_t>(budget, 300)) << budget;
            EXPECT_LE(count, std::min<uint64_t>(budget + 8, 300)) << budget;
            if (budget == 0) {
                EXPECT_EQ(count, 0u);
            }
            ASSERT_EQ(used.size(), count);
            for (uint64_t i = 0; i < count; ++i) EXPECT_EQ(used[i], i);
        }
        EXPECT_EQ(
            par::ordered_pipeline_while(
                1, 8, [] { return false; }, [](uint64_t i) { return i; }, [](uint64_t) { ADD_FAILURE(); }),
            0u);
    });
}

#ifdef RETRO_TSAN

// Waits, up to a few seconds, for `threads` threads to arrive, with relaxed atomics: they give TSan
// no happens-before edge between the threads, so what each does afterwards is concurrent to it.
class Rendezvous {
public:
    explicit Rendezvous(int threads) : threads_(threads) {}
    void arrive() {
        arrived_.fetch_add(1, std::memory_order_relaxed);
        const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        while (arrived_.load(std::memory_order_relaxed) < threads_ &&
               std::chrono::steady_clock::now() < until)
            std::this_thread::yield();
    }

private:
    const int threads_;
    std::atomic<int> arrived_{0};
};

// Two loop bodies, on two threads, each add to the same plain counter.
void race_in_loop() {
    tbb::task_arena arena(2);
    arena.execute([] {
        Rendezvous both(2);
        uint64_t shared = 0;
        par::parallel_for(tbb::blocked_range<int>(0, 2, 1), [&](const auto&) {
            both.arrive();
            shared += 1;
        });
        std::printf("%llu\n", static_cast<unsigned long long>(shared));
    });
}

// Two calls of a parallel stage, on two threads, each add to the same plain counter.
void race_in_parallel_stage() {
    tbb::task_arena arena(2);
    arena.execute([] {
        Rendezvous both(2);
        int next = 0;
        uint64_t shared = 0;
        par::parallel_pipeline(
            4, par::make_filter<void, int>(tbb::filter_mode::serial_in_order, [&](tbb::flow_control& fc) {
                   if (next == 2) fc.stop();
                   return next++;
               }) & par::make_filter<int, void>(tbb::filter_mode::parallel, [&](int) {
                   both.arrive();
                   shared += 1;
               }));
        std::printf("%llu\n", static_cast<unsigned long long>(shared));
    });
}

// TSan exits with 66 after a report, or aborts with TSAN_OPTIONS=halt_on_error=1:abort_on_error=1.
bool failed(int status) { return !(WIFEXITED(status) && WEXITSTATUS(status) == 0); }

TEST(ParallelTsan, FindsARaceBetweenTwoLoopBodies) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(
        {
            race_in_loop();
            std::exit(0);
        },
        failed, "ThreadSanitizer: data race");
}

TEST(ParallelTsan, FindsARaceBetweenTwoCallsOfAParallelStage) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(
        {
            race_in_parallel_stage();
            std::exit(0);
        },
        failed, "ThreadSanitizer: data race");
}

#endif

}  // namespace
