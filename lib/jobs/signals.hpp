// SIGINT and SIGTERM as a request to stop cleanly: the first one sets a flag that the solver polls
// between plies (it then checkpoints and stops); a second one ends the process at once, which loses
// nothing either (table files and checkpoints are written to a temporary name and renamed).
#pragma once

#include <atomic>
#include <functional>
#include <thread>

namespace retro {

class StopSignals {
public:
    StopSignals();   // installs the handlers
    ~StopSignals();  // restores the previous ones
    StopSignals(const StopSignals&) = delete;
    StopSignals& operator=(const StopSignals&) = delete;

    // The flag to hand to JobOptions::stop or Control::stop.
    static const std::atomic<bool>& flag();
    // The signal that asked to stop, 0 when none did.
    static int signal_number();
    // Sets the flag as a signal would (for tests and for stopping from code).
    static void request_stop(int signal_number = 0);
};

// SIGINT and SIGTERM end the process at once, as they do by default, but `last_words` runs first (on
// a thread of its own, not in a signal handler): for ranks, which cannot stop at the next ply
// (every rank must reach every collective step), yet should say why they ended.
class EndOnSignal {
public:
    explicit EndOnSignal(std::function<void(int signal_number)> last_words);

private:
    StopSignals signals_;
    std::jthread watcher_;  // joined before signals_ restores the previous handlers
};

}  // namespace retro
