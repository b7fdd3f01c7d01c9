#include "jobs/runner.hpp"

#include <algorithm>
#include <chrono>
#include <fstream>
#include <map>
#include <optional>
#include <thread>

#include "index/dependencies.hpp"
#include "jobs/completion_chain.hpp"
#include "jobs/estimates.hpp"
#include "jobs/heap.hpp"
#include "jobs/log.hpp"
#include "jobs/progress.hpp"
#include "jobs/projection.hpp"
#include "jobs/resident.hpp"
#include "jobs/subtable_reads.hpp"
#include "jobs/table_lock.hpp"
#include "probe/verifier.hpp"
#include "solve/exit_settled.hpp"
#include "solve/solver.hpp"
#include "store/table_file.hpp"

namespace retro {

namespace {

// Beside a checkpoint (checkpoint_seconds_path): "POINT SECONDS", the seconds the table had taken when
// the checkpoint of POINT (a SolvePoint: slice and ply) was written. A checkpoint must stay
// byte-identical for any run, so the time is kept apart.
void write_elapsed(const std::filesystem::path& checkpoint, SolvePoint ply, double seconds) {
    const std::filesystem::path path = checkpoint_seconds_path(checkpoint), tmp = temporary_path(path);
    {
        std::ofstream out(tmp);
        out << ply << ' ' << seconds << '\n';
        if (!out.flush()) return;  // only an estimate is lost
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
}

// The seconds spent before the checkpoint of `ply` (a SolvePoint), when the file beside it is of that point.
std::optional<double> read_elapsed(const std::filesystem::path& checkpoint, SolvePoint ply) {
    std::ifstream in(checkpoint_seconds_path(checkpoint));
    SolvePoint at = -1;
    double seconds = -1;
    if (in >> at >> seconds && at == ply && seconds >= 0) return seconds;
    return std::nullopt;
}

// The files a solve keeps beside its checkpoint, which go with it: its layer log and slice store, and
// the checkpoints and files of the other ranks that solved it together (table_paths.hpp).
void remove_solve_files(const std::filesystem::path& checkpoint,
                        const std::function<void(const std::string&)>& note) {
    remove_if_present(layer_log_path(checkpoint), note);
    remove_if_present(slice_store_path(checkpoint), note);
    remove_if_present(next_checkpoint_path(checkpoint), note);
    const std::string ranks_files = checkpoint.stem().string() + ".rank";
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(checkpoint.parent_path(), ec))
        if (e.path().filename().string().starts_with(ranks_files)) remove_if_present(e.path(), note);
}

// The plan's write options (JobSettings::write), stopped with the job.
WriteOptions with_stop(const JobPlan& plan, const JobOptions& options) {
    WriteOptions write = plan.settings.write;
    write.control.stop = options.stop;
    return write;
}

// Writes a table as the job asks, saying what it does: the search for exits, the start of the
// compression, then where it stands every PROGRESS_LINE_SECONDS. Values are settled by exits from the
// solver's `survey`, or else by a search for them over a table held whole (`search_from`), which
// needs every table an exit reaches whole.
void write_table_with_lines(const TableValues& values, const Table* search_from, const SurveySource* survey,
                            bool pawn_digits_first, const std::filesystem::path& file,
                            const SubtableSource& tables, WriteOptions write,
                            const std::function<void(const std::string&)>& line) {
    const std::string name = values.material().name();
    write.settle_exits = write.settle_exits && (survey || search_from);
    write.pawn_digits_first = pawn_digits_first;
    auto last_line = std::chrono::steady_clock::now();
    bool started = false;
    const auto blocks_written = [&](uint64_t done, uint64_t blocks) {
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
    const auto exits_searched = percent_lines(name + ": searched the exits of", last_line, line);
    write.control.progress = [&](Control::Count count, uint64_t done, uint64_t total) {
        if (count == Control::Count::BlocksWritten) blocks_written(done, total);
        if (count == Control::Count::ExitsSearched) exits_searched(done, total);
    };
    if (write.settle_exits && survey) {
        write_table(values, file, write, survey);
    } else if (write.settle_exits) {
        line(name + ": settling values by exits (captures and promotions)");
        write_settled_table(*search_from, file, write, tables);
    } else {
        write_table(values, file, write);
    }
}

// The values of a solved table as the writer and the statistics read them.
std::unique_ptr<TableValues> values_of(const SolvedTable& solved, const Material& m) {
    if (solved.whole) return std::make_unique<MemoryValues>(*solved.whole);
    return std::make_unique<SliceStoreValues>(*solved.slices, writer_slice_cache_bytes(m));
}

// The survey the solver found, when it found one of every entry (a table or slice resumed from a
// checkpoint within its plies has none).
std::unique_ptr<SurveySource> survey_of(const SolvedTable& solved, const Material& m) {
    if (solved.survey) return std::make_unique<MemorySurvey>(*solved.survey);
    if (solved.slices && solved.slices->surveyed())
        return std::make_unique<SliceStoreSurvey>(*solved.slices, writer_survey_cache_bytes(m));
    return nullptr;
}

// One table's build as it goes through the phases of JobRun::build: solve, write, verify, finish.
struct TableBuild {
    TableBuild(const JobPlan& plan, const PlannedTable& planned, bool settle_exits,
               ActiveClock::time_point started)
        : planned(planned),
          m(planned.material),
          file(table_path(plan.dir, m)),
          checkpoint(checkpoint_path(plan.dir, m)),
          memory(planned.memory),
          read_in_part(planned.read_in_part),
          settle(settle_exits && planned.settles),
          start(started),
          tables(plan.dir) {}

    const PlannedTable& planned;
    const Material& m;
    const std::filesystem::path file, checkpoint;
    const MemoryPlan& memory;
    // A table read in part by a later one is written self-contained, its pawns' entries together.
    const bool read_in_part;
    const bool settle;  // its file settles values by exits
    // Moved back by the earlier runs' time when the table resumes from a checkpoint.
    ActiveClock::time_point start;
    ResidentPeak peak;
    Tablebase tables;  // loads the direct sub-tables only, and frees them afterwards
    SolvedTable solved;
    // The values held whole after the write: the solver's, or the file's read back for the verification.
    std::shared_ptr<const Table> table;
    bool resuming = false;      // only once the solver has found the checkpoint intact
    bool time_complete = true;  // false when a resumed table's earlier time is unknown
    double solve_seconds = 0, write_seconds = 0;
    Control::PhaseSeconds phases{};  // of this run's solve (not of the runs a checkpoint resumes)
};

// One job's state while it runs: its progress, what it reports, what it has built.
class JobRun {
public:
    JobRun(const JobPlan& plan, const JobOptions& options)
        : plan_(plan),
          options_(options),
          progress_(plan.work()),
          times_path_(times_file_path(plan.dir)),
          subtables_(
              plan, options.stop, [this](const std::string& s) { report(s); },
              [this](const std::string& s) { note(s); }) {
        status_.tables = plan.to_build();
        progress_.add_history_file(times_path_);
        // The tables of kinds not timed yet are expected to take what the printed projection said.
        for (const Projection::Table& t : project(plan).tables)
            if (!t.timed) progress_.set_prior(t.material, t.seconds);
    }

    JobResult& result() { return result_; }
    JobProgress& progress() { return progress_; }

    void report(const std::string& s) {
        if (options_.report) options_.report(s);
        tell_status(s);
    }
    void note(const std::string& s) {
        if (options_.note) options_.note(s);
    }
    bool stop_requested() const { return options_.stop && options_.stop->load(); }
    // Whether this process is a rank other than 0 of several that solve each table together: it
    // solves its part and leaves the files to rank 0.
    bool follows() const { return options_.ranks && !options_.ranks->leads(); }

    // A table complete when the job was planned: what a kill left beside it goes, and its WDL
    // bitbase is written when the job asks for one (by one process: the one holding its lock).
    void tidy_complete(const Material& m);
    // Builds t (the caller holds its lock): solve, write, verify, finish. False when the job was
    // stopped meanwhile (result() says where).
    bool build(const PlannedTable& t);
    // The exact copies no table left to build reads (`complete`: the plan's tables done) go.
    void remove_spent_copies(const std::map<Material, bool>& complete) { subtables_.remove_spent(complete); }

private:
    // The phases of build, in order; each but the last false when the job was stopped in it.
    void announce(const PlannedTable& t, const MemoryPlan& memory);
    // Completes the table's completion chain, then solves it from its checkpoint, if any.
    bool solve(TableBuild& b);
    // Writes the table's file (and its WDL bitbase), then removes its checkpoint.
    bool write(TableBuild& b);
    // Re-derives the table by forward moves, when the job asks for it. Throws JobError on a mismatch.
    bool verify(TableBuild& b);
    // The exact copy, the statistics, the table's time and its done line.
    void finish(TableBuild& b);

    // The table's time so far, less its completion chain's (work a later job does not repeat).
    double own_seconds(const TableBuild& b) const {
        return seconds_since(b.start) - progress_.chain_seconds();
    }
    // A solver, writer or verifier line of the table being built, with the job's progress.
    void table_line(const std::string& line) {
        const std::string with_progress = line + "  | " + progress_.status();
        if (options_.solver_line) options_.solver_line(with_progress);
        tell_status(with_progress);
    }
    // Completes m's completion chain before its solve (SubtableReads::complete), with a line for each
    // table (a pawn table's take minutes), so that the solve reads copies, and its progress and ETA
    // start with its first slice.
    void complete_chain(const Material& m, const MemoryPlan& memory);
    void tell_status(const std::string& s) {
        if (!options_.status) return;
        status_.fraction = progress_.job_fraction();
        status_.message = s;
        options_.status(status_);
    }

    const JobPlan& plan_;
    const JobOptions& options_;
    JobProgress progress_;
    JobStatus status_;
    JobResult result_;
    std::filesystem::path times_path_;
    SubtableReads subtables_;
};

void JobRun::tidy_complete(const Material& m) {
    const auto file = table_path(plan_.dir, m);
    const auto checkpoint = checkpoint_path(plan_.dir, m);
    // A write cut short by a kill leaves these; the writer of a table to build goes on from them.
    remove_if_present(temporary_path(file), options_.note);
    remove_if_present(write_journal_path(file), options_.note);
    note(m.name() + ": complete, skipped");
    if (options_.wdl && !std::filesystem::exists(wdl_path(plan_.dir, m))) {
        const TableLock lock(plan_.dir, m);
        if (lock.held())
            write_wdl(*Tablebase(plan_.dir).find(m), wdl_path(plan_.dir, m), plan_.settings.write);
    }
    remove_if_present(checkpoint, options_.note);  // left by a kill after the file was renamed
    remove_solve_files(checkpoint, options_.note);
    remove_if_present(checkpoint_seconds_path(checkpoint), options_.note);
}

void JobRun::complete_chain(const Material& m, const MemoryPlan& memory) {
    const std::vector<SubtableSides> chain = subtables_.chain(m, memory.promotions_in_part);
    if (chain.empty()) return;
    std::string names;
    for (const SubtableSides& sub : chain) names += (names.empty() ? "" : ", ") + sub.material.name();
    const int tables_in_chain = int(chain.size());
    const auto start = ActiveClock::now();
    progress_.chain_progress(0, tables_in_chain);
    table_line(m.name() + ": completing " + std::to_string(chain.size()) +
               " tables from their sub-tables first, each once (built by an earlier job, they have no exact "
               "copy): " +
               names);
    subtables_.complete(chain, [&](size_t k, const Material& done, double seconds) {
        if (done == chain[k].material) progress_.chain_progress(int(k) + 1, tables_in_chain);
        table_line(m.name() + ": " + chain_completion_text(chain, k, done, seconds));
    });
    progress_.chain_finished();
    report(m.name() + ": its " + std::to_string(chain.size()) +
           (chain.size() == 1 ? " sub-table" : " sub-tables") + " completed in " +
           format_duration(seconds_since(start)) + "; solving");
}

bool JobRun::build(const PlannedTable& t) {
    const Material& m = t.material;
    status_.material = m;
    status_.table = progress_.tables_done() + 1;
    // What a kill left of this process's checkpoint being written.
    const auto checkpoint = rank_checkpoint_path(plan_.dir, m, options_.ranks ? options_.ranks->rank() : 0);
    remove_if_present(temporary_path(checkpoint), options_.note);
    remove_if_present(temporary_path(next_checkpoint_path(checkpoint)), options_.note);
    remove_if_present(temporary_path(checkpoint_seconds_path(checkpoint)), options_.note);
    announce(t, t.memory);
    const auto started = ActiveClock::now();
    progress_.table_started(m);
    hand_back_free_heap();  // what earlier tables left in the heap is not this table's
    TableBuild b(plan_, t, plan_.settings.write.settle_exits, started);
    if (!solve(b)) return false;
    if (!follows()) {
        if (!write(b)) return false;
        if (options_.verify && !verify(b)) return false;
        finish(b);
    }
    if (options_.ranks) {
        // Every rank's peak at rank 0, then on together once the file is there to be read.
        const std::vector<uint64_t> peaks = gather_values(*options_.ranks, b.peak.bytes());
        std::string line;
        for (size_t r = 0; r < peaks.size(); ++r)
            line += (r ? ", " : "") + std::to_string(r) + ": " + format_bytes(peaks[r]);
        if (!follows())
            report(m.name() + ": peak memory by rank " + line + " (estimated " +
                   format_bytes(t.memory.peak()) + " at rank 0, " +
                   format_bytes(t.memory.peak_not_writing()) + " at each other rank)");
        options_.ranks->barrier();
    }
    return true;
}

void JobRun::announce(const PlannedTable& t, const MemoryPlan& memory) {
    std::string start("[");
    start += std::to_string(status_.table) + "/" + std::to_string(status_.tables) + "] " + t.material.name() +
             ": solving " + std::to_string(t.entries) + " entries per side, about " +
             format_bytes(memory.peak()) + " of memory" +
             (memory.slices_on_disk ? ", its slices on disk" : "") +
             (memory.promotions_in_part ? ", its promotions read in part" : "");
    if (const auto e = progress_.expected_seconds(t.material, 2 * t.entries))
        start += ", expected ~" + format_duration(*e);
    report(start);
}

bool JobRun::solve(TableBuild& b) {
    const Material& m = b.m;
    subtables_.read_through(b.tables);
    LineStream solver_lines([this](const std::string& line) { table_line(line); });
    SolveOptions solve_options;
    solve_options.control.lines = &solver_lines;
    solve_options.control.timed = [&](Control::Phase p, double seconds) { b.phases[size_t(p)] += seconds; };
    solve_options.checkpoint = b.checkpoint;
    solve_options.checkpoint_seconds = options_.checkpoint_seconds;
    // A pawn table's progress is its slices; a pawnless table's first pass is the long silent step.
    auto last_line = std::chrono::steady_clock::now();
    const auto examined = percent_lines(m.name() + ": first pass: examined", last_line,
                                        [this](const std::string& line) { table_line(line); });
    solve_options.control.progress = [&](Control::Count count, uint64_t done, uint64_t total) {
        if (count == Control::Count::SlicesSolved) progress_.table_progress(double(done) / double(total));
        if (count == Control::Count::FirstPassEntries && !m.has_pawns()) examined(done, total);
    };
    solve_options.checkpoint_found = [&](std::optional<SolvePoint> resumed_at, const std::string& message) {
        b.resuming = resumed_at.has_value();
        std::string line = m.name() + ": " + message;
        if (b.resuming) {
            if (const auto before = read_elapsed(b.checkpoint, *resumed_at)) {
                b.start -=
                    std::chrono::duration_cast<ActiveClock::duration>(std::chrono::duration<double>(*before));
                progress_.table_resumed(*before);
                line += " (" + format_duration(*before) + " spent on it before)";
            } else {
                b.time_complete = false;
            }
        }
        report(line);
    };
    solve_options.checkpoint_written = [&](SolvePoint ply) {
        if (!follows()) write_elapsed(b.checkpoint, ply, own_seconds(b));
    };
    solve_options.control.stop = options_.stop;
    solve_options.slices_on_disk = b.memory.slices_on_disk;
    solve_options.promotions_in_part = b.memory.promotions_in_part;
    solve_options.waves_below = plan_.settings.waves_below;
    solve_options.survey_exits = b.settle;
    if (options_.ranks) {
        solve_options.ranks = options_.ranks;
        solve_options.checkpoint = rank_checkpoint_path(plan_.dir, m, options_.ranks->rank());
        solve_options.control.stop = nullptr;
        if (follows()) solve_options.control.lines = nullptr;
    }
    const auto stopped = [&](const std::string& where) {
        result_.interrupted = true;
        result_.stopped_at = where;
        report(m.name() + ": stopped; " +
               (std::filesystem::exists(b.checkpoint) ? "its solved plies are in " + b.checkpoint.string()
                                                      : std::string("no checkpoint")));
        return false;
    };
    try {
        if (!follows()) complete_chain(m, b.memory);
        if (options_.ranks) options_.ranks->barrier();  // the copies rank 0 completed are written
        b.solved = solve_table(m, b.tables, solve_options);
    } catch (const Stopped& e) {  // while solving, or reading a sub-table whole (which takes a while)
        return stopped(e.work() == Stopped::Work::Reading
                           ? m.name() + ": stopped while reading its sub-tables"
                           : std::string(e.what()));
    }
    b.solve_seconds = own_seconds(b);
    return true;
}

bool JobRun::write(TableBuild& b) {
    const Material& m = b.m;
    const auto stopped = [&] {
        result_.interrupted = true;
        result_.stopped_at = "writing " + m.name();
        result_.stopped_while = JobResult::Phase::Writing;
        const bool resumable = std::filesystem::exists(b.checkpoint);
        if (!resumable) remove_solve_files(b.checkpoint, options_.note);
        report(m.name() + ": stopped while writing; " +
               (resumable ? "a rerun resumes from " + b.checkpoint.string()
                          : std::string("no checkpoint: a rerun solves it again")) +
               ", then keeps the blocks already written to " + temporary_path(b.file).string());
        return false;
    };
    const auto write_start = ActiveClock::now();
    try {
        const auto values = values_of(b.solved, m);
        const auto survey = b.settle ? survey_of(b.solved, m) : nullptr;
        // Without the promoted tables whole, the exits cannot be searched for.
        const Table* search_from = b.settle && !b.memory.promotions_in_part ? b.solved.whole.get() : nullptr;
        write_table_with_lines(*values, search_from, survey.get(), b.read_in_part, b.file, b.tables,
                               with_stop(plan_, options_),
                               [this](const std::string& line) { table_line(line); });
        if (options_.wdl) write_wdl(*values, wdl_path(plan_.dir, m), with_stop(plan_, options_));
    } catch (const Stopped&) {  // writing, or the exits reading a sub-table's other side to move
        return stopped();
    }
    b.write_seconds = seconds_since(write_start);
    remove_if_present(b.checkpoint, options_.note);
    remove_solve_files(b.checkpoint, options_.note);
    remove_if_present(checkpoint_seconds_path(b.checkpoint), options_.note);
    char rate[64];
    std::snprintf(rate, sizeof rate, "%.3g", double(2 * b.planned.entries) / std::max(b.solve_seconds, 1e-9));
    std::error_code ec;
    const uint64_t bytes = std::filesystem::file_size(b.file, ec);
    report(m.name() + ": solved in " + format_duration(b.solve_seconds) + " (" + rate + " entries/s), " +
           b.file.string() + " written in " + format_duration(b.write_seconds) + " (" + format_bytes(bytes) +
           ")");
    if (const std::string passes = passes_text(b.phases); !passes.empty()) report(m.name() + ": " + passes);
    b.table = std::move(b.solved.whole);
    return true;
}

bool JobRun::verify(TableBuild& b) {
    const Material& m = b.m;
    // A table solved into its slice store is read back from its file, whole.
    b.solved.slices.reset();
    if (b.table)
        b.tables.add(b.table);
    else
        b.table = b.tables.find(m);
    table_line(m.name() + ": verifying by forward moves");
    auto last_line = std::chrono::steady_clock::now();
    VerifyResult v;
    try {
        v = verify_table(*b.table, b.tables, options_.stop,
                         percent_lines(m.name() + ": checked", last_line,
                                       [this](const std::string& line) { table_line(line); }));
    } catch (const Stopped&) {  // while reading a sub-table's other side to move
        v.stopped = true;
    }
    if (v.mismatch) throw JobError(m.name() + ": verification failed: " + *v.mismatch);
    if (v.stopped) {
        result_.interrupted = true;
        result_.stopped_at = "verifying " + m.name();
        result_.stopped_while = JobResult::Phase::Verifying;
        result_.built.push_back({m, own_seconds(b), b.resuming, std::nullopt});
        report(m.name() + ": verification stopped after " + std::to_string(v.checked) + " positions; " +
               b.file.string() + " is complete (tbgen --verify " + b.file.string() + " checks it)");
        return false;
    }
    report(m.name() + ": verified " + std::to_string(v.checked) + " positions by forward moves");
    return true;
}

void JobRun::finish(TableBuild& b) {
    const Material& m = b.m;
    // After the verification, which reads the file itself.
    if (subtables_.copy_wanted(m, b.settle)) {
        if (b.table)
            subtables_.write_copy(MemoryValues(*b.table));
        else
            subtables_.write_copy(*values_of(b.solved, m));
    }
    // From the solved values, not the file: a file in the shipping form keeps one side to move.
    std::optional<TableStatistics> statistics;
    if (options_.statistics_of.contains(m)) {
        table_line(m.name() + ": counting its statistics");
        statistics = b.table ? compute_statistics(*b.table) : compute_statistics(*values_of(b.solved, m));
    }
    b.solved.slices.reset();
    // Solve, write, verify, statistics: not the chain's tables, which a later job does not complete.
    const double table_seconds = own_seconds(b);
    progress_.table_finished();
    if (b.time_complete) {  // a resumed table without its earlier time would look too fast
        std::ofstream times(times_path_, std::ios::app);
        times << m.name() << ' ' << 2 * b.planned.entries << ' ' << table_seconds << '\n';
    }
    result_.built.push_back({m, table_seconds, b.resuming, std::move(statistics)});
    // The table's own peak, against its estimate; verifying holds more (both sides of everything).
    std::string done = m.name() + ": done; ";
    if (const uint64_t peak = b.peak.bytes())
        done += "peak memory " + format_bytes(peak) + " (estimated " + format_bytes(b.memory.peak()) +
                (options_.verify ? ", verification not counted" : "") + "); ";
    report(done + progress_.status());
}

// Waits up to WAIT_POLL_SECONDS, less when the job is stopped.
constexpr double WAIT_POLL_SECONDS = 1;
void wait_a_moment(const std::atomic<bool>* stop) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(WAIT_POLL_SECONDS);
    while (std::chrono::steady_clock::now() < until && !(stop && stop->load()))
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
}

}  // namespace

JobResult run_job(const JobPlan& plan, const JobOptions& options) {
    set_job_heap_thresholds();  // whichever program runs the job: tbgen, or the Python module
    const auto job_start = ActiveClock::now();
    JobRun run(plan, options);
    JobResult& result = run.result();
    // Which tables are complete; the tables of other processes join as their files appear.
    std::map<Material, bool> complete;
    const bool leads = !options.ranks || options.ranks->leads();  // of the files in the directory
    for (const PlannedTable& t : plan.tables) {
        complete[t.material] = t.complete;
        if (t.complete) {
            ++result.skipped;
            if (leads) run.tidy_complete(t.material);
        }
    }
    if (leads) run.remove_spent_copies(complete);
    if (options.ranks) {
        // The ranks build the tables together in the plan's order: no other process takes part.
        for (const PlannedTable& t : plan.tables) {
            if (t.complete) continue;
            if (!run.build(t)) break;
            complete[t.material] = true;
            if (leads) run.remove_spent_copies(complete);
        }
        result.seconds = seconds_since(job_start);
        return result;
    }
    auto ready = [&](const Material& m) {
        const auto subtables = direct_subtables(m);
        return std::all_of(subtables.begin(), subtables.end(),
                           [&](const Material& s) { return complete[s]; });
    };
    // A table's file appeared since the plan (written atomically: a file under its final name is complete).
    auto built_elsewhere = [&](const PlannedTable& t) {
        const auto stamp = file_stamp(table_path(plan.dir, t.material));
        return stamp && stamp != t.damaged_file;
    };
    // This process and those holding the lock of another table left: the tables left are theirs to share.
    auto processes_building = [&](const Material& own) {
        return 1 + int(std::count_if(plan.tables.begin(), plan.tables.end(), [&](const PlannedTable& o) {
                   return !complete[o.material] && o.material != own &&
                          table_locked_elsewhere(plan.dir, o.material);
               }));
    };
    std::string waiting_for;  // the tables of other processes this job last said it waits for
    for (;;) {
        if (run.stop_requested()) {
            result.interrupted = true;
            break;
        }
        // The first table in the plan's order that is ready and free: with one process, the plan's order.
        bool left = false, progressed = false;
        std::string held;
        for (const PlannedTable& t : plan.tables) {
            const Material& m = t.material;
            if (complete[m]) continue;
            if (built_elsewhere(t)) {
                complete[m] = true;
                ++result.built_elsewhere;
                run.progress().table_built_elsewhere(m);
                run.report(m.name() + ": built by another process; " + run.progress().status());
                run.remove_spent_copies(complete);
                continue;
            }
            left = true;
            if (!ready(m)) continue;
            const TableLock lock(plan.dir, m);
            if (!lock.held()) {
                held += (held.empty() ? "" : ", ") + m.name();
                continue;
            }
            progressed = true;
            // Finished by another process between the look above and the lock: seen on the next pass.
            if (built_elsewhere(t)) break;
            run.progress().set_processes(processes_building(m));
            if (!run.build(t)) {
                result.seconds = seconds_since(job_start);
                return result;
            }
            complete[m] = true;
            run.remove_spent_copies(complete);
            waiting_for.clear();
            break;
        }
        if (!left) break;
        if (progressed) continue;
        if (held != waiting_for && !held.empty())
            run.report("waiting: the tables left need " + held + ", which another process is building");
        waiting_for = held;
        wait_a_moment(options.stop);
    }
    if (result.interrupted && result.stopped_at.empty())
        result.stopped_at = waiting_for.empty() ? "between tables" : "waiting for " + waiting_for;
    result.seconds = seconds_since(job_start);
    return result;
}

}  // namespace retro
