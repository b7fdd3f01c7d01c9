// A clock of the time the process ran: a job paused with Ctrl-Z (SIGTSTP) or SIGSTOP and continued
// later must not count the pause as solving, or the pause would spoil the table's time in
// tbgen.times, from which later jobs project, and every ETA after it.
#pragma once

#include <chrono>

namespace retro {

// Steady time without the pauses: a thread ticks every TICK, and a gap of more than PAUSE_GAP
// between two ticks (or a tick and a call of now()) was a pause, which the clock leaves out, all but
// one tick of it. The first call of now() starts the thread.
struct ActiveClock {
    using duration = std::chrono::steady_clock::duration;
    using rep = duration::rep;
    using period = duration::period;
    using time_point = std::chrono::time_point<ActiveClock>;
    static constexpr bool is_steady = true;
    static constexpr std::chrono::milliseconds TICK{100};
    static constexpr std::chrono::seconds PAUSE_GAP{2};

    static time_point now();
};

// Seconds from t to now, pauses left out.
inline double seconds_since(ActiveClock::time_point t) {
    return std::chrono::duration<double>(ActiveClock::now() - t).count();
}

}  // namespace retro
