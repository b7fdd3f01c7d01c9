#include "jobs/signals.hpp"

#include <pthread.h>

#include <chrono>
#include <csignal>

namespace retro {

namespace {

std::atomic<bool> stop_requested{false};
std::atomic<int> stop_signal{0};
struct sigaction previous_int {
}, previous_term{};

static_assert(std::atomic<bool>::is_always_lock_free && std::atomic<int>::is_always_lock_free,
              "the signal handler needs lock-free atomics");

extern "C" void on_signal(int sig) {
    if (stop_requested.exchange(true)) {
        // The second signal: stop now, the way the signal normally would.
        std::signal(sig, SIG_DFL);
        std::raise(sig);
        return;
    }
    stop_signal.store(sig);
}

}  // namespace

StopSignals::StopSignals() {
    stop_requested = false;
    stop_signal = 0;
    struct sigaction action {};
    action.sa_handler = on_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    sigaction(SIGINT, &action, &previous_int);
    sigaction(SIGTERM, &action, &previous_term);
    // Blocked ones, as a parent may leave them across exec, would never arrive: unblocked, a pending
    // one is handled now.
    sigset_t handled;
    sigemptyset(&handled);
    sigaddset(&handled, SIGINT);
    sigaddset(&handled, SIGTERM);
    pthread_sigmask(SIG_UNBLOCK, &handled, nullptr);
}

StopSignals::~StopSignals() {
    sigaction(SIGINT, &previous_int, nullptr);
    sigaction(SIGTERM, &previous_term, nullptr);
}

const std::atomic<bool>& StopSignals::flag() { return stop_requested; }

int StopSignals::signal_number() { return stop_signal.load(); }

void StopSignals::request_stop(int signal_number) {
    stop_signal.store(signal_number);
    stop_requested.store(true);
}

EndOnSignal::EndOnSignal(std::function<void(int)> last_words)
    : watcher_([last_words = std::move(last_words)](const std::stop_token& done) {
          // A poll, because a signal handler may not wake a thread portably; 20 ms is nothing next to
          // the launcher's grace before SIGKILL.
          while (!done.stop_requested()) {
              if (StopSignals::flag()) {
                  const int sig = StopSignals::signal_number() ? StopSignals::signal_number() : SIGTERM;
                  last_words(sig);
                  std::signal(sig, SIG_DFL);
                  std::raise(sig);
              }
              std::this_thread::sleep_for(std::chrono::milliseconds(20));
          }
      }) {}

}  // namespace retro
