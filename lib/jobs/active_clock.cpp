#include "jobs/active_clock.hpp"

#include <condition_variable>
#include <mutex>
#include <thread>

namespace retro {

namespace {

using Steady = std::chrono::steady_clock;

class PauseTicker {
public:
    PauseTicker() : last_(Steady::now()), thread_([this] { run(); }) {}
    ~PauseTicker() {
        {
            std::lock_guard lock(mutex_);
            stopping_ = true;
        }
        wake_.notify_one();
        thread_.join();
    }
    // Now, less the pauses so far.
    ActiveClock::time_point now() {
        std::lock_guard lock(mutex_);
        const Steady::time_point t = Steady::now();
        account(t);
        return ActiveClock::time_point(t.time_since_epoch() - paused_);
    }

private:
    // Under the lock: a gap since the last look longer than PAUSE_GAP was a pause.
    void account(Steady::time_point t) {
        if (t - last_ > ActiveClock::PAUSE_GAP) paused_ += t - last_ - ActiveClock::TICK;
        last_ = t;
    }
    void run() {
        std::unique_lock lock(mutex_);
        while (!stopping_) {
            wake_.wait_for(lock, ActiveClock::TICK);
            account(Steady::now());
        }
    }

    std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
    Steady::time_point last_;
    Steady::duration paused_{0};
    std::thread thread_;  // last: it starts once the rest is set
};

}  // namespace

ActiveClock::time_point ActiveClock::now() {
    static PauseTicker ticker;
    return ticker.now();
}

}  // namespace retro
