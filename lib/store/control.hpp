// How whoever runs a long piece of work (a job, an app, a test) steers it and hears from it: one
// object passed down through the layers (SolveOptions, WriteOptions), rather than a stop flag and
// callbacks of its own in each options struct.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <type_traits>

#include "store/store_error.hpp"

namespace retro {

struct Control {
    // When set and raised, the work stops at its next safe point and throws Stopped: a solve
    // checkpoints first, a write leaves no file (its blocks stay for the next write).
    const std::atomic<bool>* stop = nullptr;
    // The work's lines, each ending in '\n' (a solver's plies and slices); nullptr: none.
    std::ostream* lines = nullptr;
    // What the work counts as it goes.
    enum class Count : uint8_t {
        // Before the first block is compressed, with the blocks a killed write of the same file left
        // on disk (store/write_journal.hpp), then after each block is written: blocks done, in all.
        BlocksWritten,
        // While write_settled_table searches the exits: entries searched, in all (both sides to move).
        ExitsSearched,
        // The first pass of a scheme (a whole table, or a slice of a pawn table): entries examined,
        // of both sides to move.
        FirstPassEntries,
        // A pawn table's slices solved (those of a resumed checkpoint at the start, then after each
        // slice or wave), of its slices.
        SlicesSolved,
    };
    // Told how far a count has got, one call at a time (from any thread of the work).
    std::function<void(Count count, uint64_t done, uint64_t total)> progress{};
    // The solver's passes, each timed as it ends: once per scheme solved alone (a whole table, or a
    // large slice of a pawn table), and once per wave of small slices solved side by side (their
    // passes overlap, so a wave is timed whole), then the assembly of the slices into the table.
    enum class Phase : uint8_t { FirstPass, Sweeps, FinalValues, Waves, Assembly };
    static constexpr int PHASES = 5;
    static constexpr std::array<const char*, PHASES> PHASE_NAMES{"first pass", "sweeps", "final values",
                                                                 "waves", "assembly"};
    // Seconds by pass, as a listener sums them.
    using PhaseSeconds = std::array<double, PHASES>;
    // Told the wall seconds of a pass as it ends, from the thread that runs the work.
    std::function<void(Phase phase, double seconds)> timed{};

    bool stop_requested() const { return stop && stop->load(std::memory_order_relaxed); }
    // Throws Stopped(work, message) when a stop is requested.
    void stop_if_requested(Stopped::Work work, const std::string& message) const {
        if (stop_requested()) throw Stopped(work, message);
    }
    void tell(Count count, uint64_t done, uint64_t total) const {
        if (progress) progress(count, done, total);
    }
    // Runs f() and tells its wall time as `phase`'s (not when it throws); returns what f returns.
    template <class F>
    auto time(Phase phase, F&& f) const {
        const auto start = std::chrono::steady_clock::now();
        const auto tell = [&] {
            if (timed)
                timed(phase, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        };
        if constexpr (std::is_void_v<decltype(f())>) {
            f();
            tell();
        } else {
            auto result = f();
            tell();
            return result;
        }
    }
    // tell(count, ...) as a callback of its own, or none when nobody listens (a loop then need not report).
    std::function<void(uint64_t done, uint64_t total)> teller(Count count) const {
        if (!progress) return {};
        return [this, count](uint64_t done, uint64_t total) { tell(count, done, total); };
    }
};

}  // namespace retro
