#include "jobs/runner.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <optional>

#include "jobs/estimates.hpp"
#include "jobs/log.hpp"
#include "jobs/progress.hpp"
#include "probe/verifier.hpp"
#include "solve/exit_settled.hpp"
#include "solve/solver.hpp"
#include "store/table_file.hpp"

namespace retro {

namespace {

void remove_if_present(const std::filesystem::path& path,
                       const std::function<void(const std::string&)>& note) {
    std::error_code ec;
    if (std::filesystem::remove(path, ec) && note) note("removed " + path.string());
}

// Beside a checkpoint: "PLY SECONDS", the seconds the table had taken when the checkpoint of PLY
// was written. A checkpoint must stay byte-identical for any run, so the time is kept apart.
std::filesystem::path elapsed_path(const std::filesystem::path& checkpoint) {
    return checkpoint.string() + ".seconds";
}

void write_elapsed(const std::filesystem::path& checkpoint, int ply, double seconds) {
    const std::filesystem::path path = elapsed_path(checkpoint), tmp = path.string() + ".tmp";
    {
        std::ofstream out(tmp);
        out << ply << ' ' << seconds << '\n';
        if (!out.flush()) return;  // only an estimate is lost
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
}

// The seconds spent before the checkpoint of `ply`, when the file beside it is of that ply.
std::optional<double> read_elapsed(const std::filesystem::path& checkpoint, int ply) {
    std::ifstream in(elapsed_path(checkpoint));
    int at = -1;
    double seconds = -1;
    if (in >> at >> seconds && at == ply && seconds >= 0) return seconds;
    return std::nullopt;
}

WriteOptions with_stop(const JobOptions& options) {
    WriteOptions write = options.write;
    write.stop = options.stop;
    return write;
}

// Writes a table as the job asks, saying what it does: the search for exits, the start of the
// compression, then where it stands every PROGRESS_LINE_SECONDS.
void write_table_with_lines(const Table& table, const std::filesystem::path& file, const TableSource& tables,
                            const JobOptions& options, const std::function<void(const std::string&)>& line) {
    const std::string name = table.material().name();
    WriteOptions write = with_stop(options);
    auto last_line = std::chrono::steady_clock::now();
    bool started = false;
    write.progress = [&](uint32_t done, uint32_t blocks) {
        if (!started) {
            started = true;
            line(name + ": writing " + file.string() + " in " + std::to_string(blocks) + " blocks" +
                 (done > 0
                      ? ", going on after the " + std::to_string(done) + " that an interrupted write left"
                      : ""));
        } else if (done < blocks && seconds_since(last_line) >= PROGRESS_LINE_SECONDS) {
            line(name + ": written " + std::to_string(done) + " of " + std::to_string(blocks) + " blocks");
        } else {
            return;
        }
        last_line = std::chrono::steady_clock::now();
    };
    write.settle_progress = percent_lines(name + ": searched the exits of", last_line, line);
    if (write.settle_exits) line(name + ": settling values by exits (captures and promotions)");
    write_settled_table(table, file, write, tables);
}

}  // namespace

JobResult run_job(const JobPlan& plan, const JobOptions& options) {
    const auto job_start = std::chrono::steady_clock::now();
    const auto work = plan.work();
    JobProgress progress(work);
    JobStatus status;
    status.tables = int(work.size());
    auto tell_status = [&](const std::string& s) {
        if (!options.status) return;
        status.fraction = progress.job_fraction();
        status.message = s;
        options.status(status);
    };
    auto report = [&](const std::string& s) {
        if (options.report) options.report(s);
        tell_status(s);
    };
    const auto times_path = times_file_path(plan.dir);
    progress.add_history_file(times_path);

    JobResult result;
    int position = 0;
    for (const PlannedTable& t : plan.tables) {
        const Material& m = t.material;
        const auto file = table_path(plan.dir, m);
        const auto checkpoint = checkpoint_path(plan.dir, m);
        if (t.complete) {
            // A write cut short by a kill leaves these; the writer of a table to build goes on from them.
            remove_if_present(file.string() + ".tmp", options.note);
            remove_if_present(file.string() + ".tmp.journal", options.note);
            ++result.skipped;
            if (options.note) options.note(m.name() + ": complete, skipped");
            if (options.wdl && !std::filesystem::exists(wdl_path(plan.dir, m)))
                write_wdl(*Tablebase(plan.dir).find(m), wdl_path(plan.dir, m), options.write);
            remove_if_present(checkpoint, options.note);  // left by a kill after the file was renamed
            remove_if_present(layer_log_path(checkpoint), options.note);
            remove_if_present(elapsed_path(checkpoint), options.note);
            continue;
        }
        if (options.stop && options.stop->load()) {
            result.interrupted = true;
            result.stopped_at = "before " + m.name();
            break;
        }
        ++position;
        status.material = m;
        status.table = position;
        remove_if_present(checkpoint.string() + ".tmp", options.note);
        remove_if_present(elapsed_path(checkpoint).string() + ".tmp", options.note);

        std::string start("[");
        start += std::to_string(position) + "/" + std::to_string(work.size()) + "] " + m.name() +
                 ": solving " + std::to_string(t.entries) + " entries per side, about " +
                 format_bytes(solve_peak_bytes(m)) + " of memory";
        if (const auto e = progress.expected_seconds(m, 2 * t.entries))
            start += ", expected ~" + format_duration(*e);
        report(start);

        auto table_start = std::chrono::steady_clock::now();
        progress.table_started();
        Tablebase tables(plan.dir);  // loads the direct sub-tables only, and frees them afterwards
        auto table_line = [&](const std::string& line) {
            const std::string with_progress = line + "  | " + progress.status();
            if (options.solver_line) options.solver_line(with_progress);
            tell_status(with_progress);
        };
        LineStream solver_lines(table_line);
        SolveOptions solve_options;
        solve_options.progress = &solver_lines;
        solve_options.checkpoint = checkpoint;
        solve_options.checkpoint_seconds = options.checkpoint_seconds;
        bool resuming = false;      // only once the solver has found the checkpoint intact
        bool time_complete = true;  // false when a resumed table's earlier time is unknown
        solve_options.checkpoint_found = [&](std::optional<int> resumed_at, const std::string& message) {
            resuming = resumed_at.has_value();
            std::string line = m.name() + ": " + message;
            if (resuming) {
                if (const auto before = read_elapsed(checkpoint, *resumed_at)) {
                    table_start -= std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                        std::chrono::duration<double>(*before));
                    progress.table_resumed(*before);
                    line += " (" + format_duration(*before) + " spent on it before)";
                } else {
                    time_complete = false;
                }
            }
            report(line);
        };
        solve_options.checkpoint_written = [&](int ply) {
            write_elapsed(checkpoint, ply, seconds_since(table_start));
        };
        solve_options.stop = options.stop;
        std::shared_ptr<Table> table;
        try {
            table = solve(m, tables, solve_options);
        } catch (const SolveInterrupted& e) {
            result.interrupted = true;
            result.stopped_at = e.what();
            report(m.name() + ": stopped; " +
                   (std::filesystem::exists(checkpoint) ? "its solved plies are in " + checkpoint.string()
                                                        : std::string("no checkpoint")));
            break;
        }
        const double solve_seconds = seconds_since(table_start);
        const auto write_start = std::chrono::steady_clock::now();
        try {
            write_table_with_lines(*table, file, tables, options, table_line);
            if (options.wdl) write_wdl(*table, wdl_path(plan.dir, m), with_stop(options));
        } catch (const WriteStopped&) {
            result.interrupted = true;
            result.stopped_at = "writing " + m.name();
            result.stopped_while = JobResult::Phase::Writing;
            const bool resumable = std::filesystem::exists(checkpoint);
            if (!resumable) remove_if_present(layer_log_path(checkpoint), options.note);
            report(m.name() + ": stopped while writing; " +
                   (resumable ? "a rerun resumes from " + checkpoint.string()
                              : std::string("no checkpoint: a rerun solves it again")) +
                   ", then keeps the blocks already written to " + file.string() + ".tmp");
            break;
        }
        const double write_seconds = seconds_since(write_start);
        remove_if_present(checkpoint, options.note);
        remove_if_present(layer_log_path(checkpoint), options.note);
        remove_if_present(elapsed_path(checkpoint), options.note);
        char rate[64];
        std::snprintf(rate, sizeof rate, "%.3g", double(2 * t.entries) / std::max(solve_seconds, 1e-9));
        std::error_code ec;
        const uint64_t bytes = std::filesystem::file_size(file, ec);
        report(m.name() + ": solved in " + format_duration(solve_seconds) + " (" + rate + " entries/s), " +
               file.string() + " written in " + format_duration(write_seconds) + " (" + format_bytes(bytes) +
               ")");
        if (options.verify) {
            tables.add(table);
            table_line(m.name() + ": verifying by forward moves");
            auto last_line = std::chrono::steady_clock::now();
            const VerifyResult v = verify_table(*table, tables, options.stop,
                                                percent_lines(m.name() + ": checked", last_line, table_line));
            if (v.mismatch) throw JobError(m.name() + ": verification failed: " + *v.mismatch);
            if (v.stopped) {
                result.interrupted = true;
                result.stopped_at = "verifying " + m.name();
                result.stopped_while = JobResult::Phase::Verifying;
                result.built.push_back({m, seconds_since(table_start), resuming, std::nullopt});
                report(m.name() + ": verification stopped after " + std::to_string(v.checked) +
                       " positions; " + file.string() + " is complete (tbgen --verify " + file.string() +
                       " checks it)");
                break;
            }
            report(m.name() + ": verified " + std::to_string(v.checked) + " positions by forward moves");
        }
        std::optional<TableStatistics> statistics;
        if (options.statistics_of.contains(m)) {
            table_line(m.name() + ": counting its statistics");
            statistics = compute_statistics(*table);
        }
        progress.table_finished();
        const double table_seconds = seconds_since(table_start);  // solve, write, verify, statistics
        if (time_complete) {  // a resumed table without its earlier time would look too fast
            std::ofstream times(times_path, std::ios::app);
            times << m.name() << ' ' << 2 * t.entries << ' ' << table_seconds << '\n';
        }
        result.built.push_back({m, table_seconds, resuming, std::move(statistics)});
        report(m.name() + ": done; " + progress.status());
    }
    result.seconds = seconds_since(job_start);
    return result;
}

DirectoryLock::DirectoryLock(const std::filesystem::path& dir) {
    const auto path = dir / ".tbgen.lock";
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT, 0644);
    if (fd_ < 0) throw JobError("cannot create " + path.string() + ": " + std::strerror(errno));
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
        char pid[32] = {};
        const ssize_t n = ::pread(fd_, pid, sizeof pid - 1, 0);
        ::close(fd_);
        fd_ = -1;
        throw JobError("another tbgen is building into " + dir.string() +
                       (n > 0 ? " (process " + std::string(pid, size_t(n)) + ")" : std::string()) +
                       "; wait for it or stop it first");
    }
    const std::string me = std::to_string(::getpid());
    if (::ftruncate(fd_, 0) == 0 && ::pwrite(fd_, me.data(), me.size(), 0) < 0) {
        // the pid is only informative
    }
}

DirectoryLock::~DirectoryLock() {
    if (fd_ >= 0) ::close(fd_);
}

}  // namespace retro
