// The job's clock leaves out the time the process was stopped (Ctrl-Z, SIGSTOP), so a paused job's
// table times and ETA count only the time it ran.
#include "jobs/active_clock.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <thread>

namespace retro {

namespace {
double seconds_between(std::chrono::steady_clock::time_point a, std::chrono::steady_clock::time_point b) {
    return std::chrono::duration<double>(b - a).count();
}
}  // namespace

TEST(JobsActiveClock, RunsLikeTheSteadyClockWhileNothingStops) {
    const auto active = ActiveClock::now();
    const auto steady = std::chrono::steady_clock::now();
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    const double ran = seconds_since(active),
                 passed = seconds_between(steady, std::chrono::steady_clock::now());
    EXPECT_GE(ran, 0.29);
    EXPECT_NEAR(ran, passed, 0.05);
}

TEST(JobsActiveClock, LeavesOutAStopOfTheProcess) {
    // A shell stops this process for 3 s (SIGSTOP, as Ctrl-Z does with SIGTSTP), then continues it.
    const auto active = ActiveClock::now();
    const auto steady = std::chrono::steady_clock::now();
    ASSERT_EQ(std::system("sleep 0.3; kill -STOP $PPID; sleep 3; kill -CONT $PPID"), 0);
    const double ran = seconds_since(active),
                 passed = seconds_between(steady, std::chrono::steady_clock::now());
    EXPECT_GE(passed, 3.2);
    EXPECT_GE(ran, 0.25);  // the time before the stop counts
    EXPECT_LT(ran, passed - 2.5) << "ran " << ran << " s of " << passed << " s";
}

}  // namespace retro
