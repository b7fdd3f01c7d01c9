// Progress and ETA of a generation job, per table and for the whole job.
//
// The job measures how many index entries per second it solves, separately per number of men and
// for pawn and pawnless tables (they differ: more plies, bigger working sets), and predicts the
// time of a table from its entries. Before any table of a kind is done it takes the table's prior
// (the projection's, jobs/projection.hpp: the same rule the job's plan printed), or without one
// falls back on the same number of men, then on everything solved so far. The
// runner keeps the times of the tables it built in the output directory (tbgen.times) and feeds them
// back on the next run, so a resumed job has an ETA from its first table on.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "index/material.hpp"
#include "jobs/active_clock.hpp"
#include "store/control.hpp"
#include "store/table_paths.hpp"

namespace retro {

// "45 s", "12 min 05 s", "3 h 07 min".
std::string format_duration(double seconds);
// "12.3%" for 0.123.
std::string format_percent(double fraction);
// "the solve's passes: first pass 35 s, sweeps 52 s, ...", of the passes that took a millisecond or
// more, when all of them took a second or more; empty otherwise.
std::string passes_text(const Control::PhaseSeconds& phases);

// Seconds from t to now.
inline double seconds_since(std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

// At most this long between the lines that say how far a long step is (a 6-man table's write or
// verification takes many minutes).
constexpr double PROGRESS_LINE_SECONDS = 30;

// Whether a step's progress lines say the time left (a step on its own, such as tbgen --verify FILE) or
// not (a step of a job, whose lines end with the job's ETA).
enum class TimeLeft : uint8_t { Omit, Say };

// A progress callback of entries done (called one call at a time) that says "`doing` X% of the
// entries" through `line`, at most every PROGRESS_LINE_SECONDS after last_line: the time of the
// step's last line, which it updates. With TimeLeft::Say it adds ", about T left" at the rate since
// its first call.
std::function<void(uint64_t, uint64_t)> percent_lines(std::string doing,
                                                      std::chrono::steady_clock::time_point& last_line,
                                                      std::function<void(const std::string&)> line,
                                                      TimeLeft time_left = TimeLeft::Omit);

class JobProgress {
public:
    using Clock = ActiveClock;  // a pause (Ctrl-Z) is no time spent on a table

    // The tables the job will build, in order, with their index entries (both sides to move).
    explicit JobProgress(std::vector<std::pair<Material, uint64_t>> tables);

    // A table solved earlier (in an earlier run, say) in `seconds`: its rate counts like the others.
    void add_history(const Material& m, uint64_t entries, double seconds);
    // The tables of a times file (times_file_path): "MATERIAL ENTRIES SECONDS" per line. Returns how
    // many lines were taken; a missing file gives 0, a damaged line is skipped (it only costs an
    // estimate).
    int add_history_file(const std::filesystem::path& times);
    // Whether a table of m's kind (its number of men, with or without pawns) has been timed:
    // otherwise its expected time comes from the rate of other kinds.
    bool has_rate(const Material& m) const;
    // The seconds m is expected to take while its kind has no rate (the cost model's).
    void set_prior(const Material& m, double seconds) { priors_[m.name()] = seconds; }

    // One table at a time starts and finishes, in any order (other processes may build the others).
    void table_started(const Material& m, Clock::time_point now = Clock::now());
    void table_finished(Clock::time_point now = Clock::now());
    // Another process built m: its entries count as done, and it costs this job no more time.
    void table_built_elsewhere(const Material& m);
    // Tables finished, here or elsewhere.
    int tables_done() const { return tables_done_; }
    // How many processes build the job's tables now, this one included: the tables neither finished
    // nor running here are shared among them, so the job's ETA divides their time.
    void set_processes(int n) { processes_ = std::max(n, 1); }
    // The current table was resumed after `seconds` spent on it in earlier runs: they count as spent.
    void table_resumed(double seconds) {
        table_start_ -= std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
    }

    // The current table's completion chain (jobs/completion_chain.hpp): `done` of `of` sub-tables
    // completed before its solve, then the chain's end. Its time is not the table's: the table's
    // expected time and the rates count from the chain's end, and meanwhile the status says how far
    // the chain is instead of comparing the table's time with its estimate (a long chain can take
    // many times the solve it precedes).
    void chain_progress(int done, int of) { chain_ = {done, of}; }
    void chain_finished(Clock::time_point now = Clock::now());
    // Seconds the current table's chain took (0 without one, or while it runs).
    double chain_seconds() const { return chain_seconds_; }

    // How far the current table is, 0..1: a pawn table's slices solved, told first when they start
    // (after its sub-tables are read, and a resumed table's earlier slices). While it is under 1,
    // the table's expected time is the time its slices took since then, extrapolated, rather than
    // the rates': reading a pawn table's sub-tables can take most of its time, and counted as slice
    // time it would inflate the first ETA many times over.
    void table_progress(double fraction, Clock::time_point now = Clock::now());

    // Expected seconds to solve m with `entries` entries (both sides), from the rates so far.
    std::optional<double> expected_seconds(const Material& m, uint64_t entries) const;
    // Seconds until the current table is done; nullopt without a rate or when it already took longer
    // than expected.
    std::optional<double> table_eta(Clock::time_point now = Clock::now()) const;
    // Seconds until the whole job is done (a table over its estimate counts as nearly done).
    std::optional<double> job_eta(Clock::time_point now = Clock::now()) const;
    // Entries of finished tables (and the part of the current one done) over all entries, 0..1.
    double job_fraction() const;

    // "table 12 s of ~40 s, job 35% (ETA 1 h 02 min)"
    std::string status(Clock::time_point now = Clock::now()) const;

private:
    using Kind = std::pair<int, bool>;  // men, pawns
    struct Rate {
        uint64_t entries = 0;
        double seconds = 0;
    };
    std::optional<double> rate_for(const Material& m) const;
    // Expected seconds of the current table: extrapolated from its progress, or from the rates.
    std::optional<double> running_expected() const;
    // The first table of m not finished, or tables_.size().
    size_t find_pending(const Material& m) const;
    // Seconds the tables neither finished nor running are expected to take.
    std::optional<double> pending_seconds() const;

    std::vector<std::pair<Material, uint64_t>> tables_;
    std::vector<bool> finished_;     // by the place in tables_
    std::optional<size_t> running_;  // the table being solved
    int tables_done_ = 0;
    int processes_ = 1;
    uint64_t total_ = 0, done_ = 0;
    Clock::time_point table_start_;
    double table_fraction_ = 0;                              // of the current table (table_progress)
    double seconds_at_fraction_ = 0;                         // its seconds when that fraction was told
    std::optional<std::pair<double, double>> slices_start_;  // its first seconds and fraction told
    std::optional<std::pair<int, int>> chain_;               // its chain's tables done and all, while it runs
    double chain_seconds_ = 0;                               // its chain's seconds, once it ran
    std::map<Kind, Rate> rates_;
    std::map<std::string, double> priors_;  // by the material's name
};

}  // namespace retro
