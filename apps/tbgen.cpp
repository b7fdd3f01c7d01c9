// tbgen: builds endgame tables by retrograde analysis (single tables or whole sets, resumable), or
// verifies table files. The job logic lives in lib/jobs/.

#include <algorithm>
#include <boost/program_options.hpp>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <iostream>

#include "cli/command_line.hpp"
#include "cli/write_options.hpp"
#include "jobs/cost_model.hpp"
#include "jobs/estimates.hpp"
#include "jobs/heap.hpp"
#include "jobs/log.hpp"
#include "jobs/plan.hpp"
#include "jobs/plan_report.hpp"
#include "jobs/plan_tables.hpp"
#include "jobs/progress.hpp"
#include "jobs/resident.hpp"
#include "jobs/runner.hpp"
#include "jobs/signals.hpp"
#include "jobs/threads.hpp"
#include "jobs/verify_file.hpp"
#include "probe/verifier.hpp"
#include "solve/solver.hpp"
#include "solve/statistics.hpp"
#include "store/format.hpp"
#include "store/table_file.hpp"
#ifdef RETRO_MPI
#include "ranks_mpi/mpi_ranks.hpp"
#endif

namespace po = boost::program_options;
using namespace retro;

namespace {

constexpr int EXIT_REFUSED = 3;

std::string shell_quote(const std::string& s) {
    if (!s.empty() &&
        s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=,:+") ==
            std::string::npos)
        return s;
    std::string out = "'";
    for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

std::string what_a_rerun_keeps(JobResult::Phase stopped_while) {
    switch (stopped_while) {
        case JobResult::Phase::Writing:
            return "the table being written is solved again (from its checkpoint, if it has one) and goes "
                   "on with the blocks already written";
        case JobResult::Phase::Verifying:
            return "the table being verified is complete";
        case JobResult::Phase::Solving:
            break;
    }
    return "nothing is lost";
}

int verify_files(const std::vector<std::string>& files) {
    StopSignals signals;
    int status = 0;
    for (const auto& file : files) {
        const auto start = std::chrono::steady_clock::now();
        auto last_line = start;
        const auto say = [](const std::string& line) { std::cerr << line << std::endl; };
        const FileVerification v =
            verify_file(file, &StopSignals::flag(),
                        percent_lines(file + ": checked", last_line, say, TimeLeft::Say), say);
        const VerifyResult& r = v.result;
        if (r.stopped) {
            const int sig = StopSignals::signal_number();
            std::cerr << file << ": verification interrupted"
                      << (sig ? " by signal " + std::to_string(sig) : "")
                      << "; the same command resumes it from " << verification_record_path(file).string()
                      << "\n";
            return 128 + (sig ? sig : SIGINT);
        }
        if (r.mismatch) {
            std::cout << file << ": FAILED: " << *r.mismatch << "\n";
            status = 1;
        } else {
            std::cout << file << ": ok, " << r.checked << " positions re-derived by forward moves in "
                      << seconds_since(start) << " s" << (v.resumed_from ? " (this run's part)" : "") << "\n";
        }
    }
    return status;
}

struct GenerateArgs {
    std::vector<std::string> names;  // tables named on the command line: their statistics are printed
    int all = 0;                     // --all N
    std::filesystem::path dir;
    std::filesystem::path log;
    bool json = false, quiet = false, verify = false, dry_run = false, wdl = false;
    JobSettings settings;
    double checkpoint_minutes = 5;
    std::string command_line;  // to print how to resume
    // The ranks that solve each table together, when mpirun or srun started this process.
    Ranks* ranks = nullptr;
};

int generate(const GenerateArgs& a) {
    std::vector<Material> named;
    for (const auto& n : a.names) named.push_back(Material::parse(n).canonical());
    std::vector<Material> targets = named;
    if (a.all) {
        const auto all = materials_up_to(a.all);
        targets.insert(targets.end(), all.begin(), all.end());
    }

    // Everything that can refuse the job comes before anything large is allocated.
    std::unique_ptr<JobLog> log = std::make_unique<JobLog>();
    // Of several ranks, rank 0 alone logs and reports; the others say nothing unless they fail.
    const bool silent = a.ranks && !a.ranks->leads();
    if (!a.dry_run) check_writable_dir(a.dir);
    const std::vector<std::string> places =
        a.ranks && !a.dry_run ? gather_places(*a.ranks) : std::vector<std::string>();
    if (!a.dry_run && !silent) {
        log = std::make_unique<JobLog>(a.log.empty() ? a.dir / "tbgen.log" : a.log);
        log->line("start: " + a.command_line);
        if (a.ranks) {
            std::string where;
            for (size_t r = 0; r < places.size(); ++r)
                where += (r ? ", " : "") + std::to_string(r) + ": " + places[r];
            log->line(std::to_string(a.ranks->size()) +
                      " ranks solve each table together, each checkpointing its part (as many ranks "
                      "resume them); ranks " +
                      where);
        }
    }
    auto say = [&](const std::string& s) {
        if (silent) return;
        std::cerr << s << "\n";
        log->line(s);
    };

    const JobPlan plan = make_plan(targets, a.dir, a.settings);  // reads and checks every file already there
    for (const std::string& line : plan_report(plan)) say(line);
    if (a.dry_run && !silent)
        for (const std::string& line : plan_table_lines(plan)) std::cout << line << "\n";
    std::optional<std::string> why = refusal(plan);
    if (why) {
        say("tbgen: refused: " + *why);
        return EXIT_REFUSED;
    }
    if (a.dry_run) return 0;

    // Ranks take no stop request: each must reach every collective step, so a signal ends them at
    // once (mpirun passes it on to all, and sends it to every rank when one fails), which loses
    // nothing written. Rank 0 says so first.
    std::optional<StopSignals> signals;
    std::optional<EndOnSignal> end_on_signal;
    if (!a.ranks) signals.emplace();
    if (a.ranks && !silent)
        end_on_signal.emplace([&](int sig) {
            say("tbgen: rank 0 ends on signal " + std::to_string(sig) +
                ": under mpirun every rank ends when the job is signalled or when any rank fails (then "
                "mpirun's message names that rank); the tables written so far are complete, and the same "
                "command resumes the job, the table in progress from its last checkpoint:\n  " +
                a.command_line);
        });
    JobOptions options;
    options.ranks = a.ranks;
    options.checkpoint_seconds = a.checkpoint_minutes * 60;
    if (!a.ranks) options.stop = &StopSignals::flag();
    options.verify = a.verify;
    options.wdl = a.wdl;
    options.statistics_of.insert(named.begin(), named.end());
    options.report = say;
    options.note = [&](const std::string& s) { log->line(s); };
    options.solver_line = [&](const std::string& s) {
        if (silent) return;
        if (!a.quiet) std::cerr << s << "\n";
        log->line(s);
    };
    JobResult result;
    try {
        result = run_job(plan, options);
    } catch (const std::exception& e) {
        const std::string peak = "peak memory " + format_bytes(peak_resident_bytes());
        if (a.ranks)  // the other ranks wait in a collective step: end them too
            a.ranks->abort("tbgen: error on rank " + std::to_string(a.ranks->rank()) + ": " + e.what() +
                           " (" + peak + "); the tables written so far are complete");
        log->line(std::string("error: ") + e.what() + " (" + peak + ")");
        std::cerr << "tbgen: error: " << e.what() << "\n"
                  << peak
                  << "; the tables written so far are complete; fix the cause and run the same command "
                     "to resume:\n  "
                  << a.command_line << "\n";
        return 1;
    }

    if (result.interrupted) {
        const int sig = StopSignals::signal_number();
        say(std::string("interrupted") + (sig ? " by signal " + std::to_string(sig) : std::string()) + ": " +
            result.stopped_at + ". " + std::to_string(result.built.size()) + " tables built in this run, " +
            std::to_string(plan.to_build() - int(result.built.size()) - result.built_elsewhere) +
            " still to build; peak memory " + format_bytes(peak_resident_bytes()) + ".");
        say(what_a_rerun_keeps(result.stopped_while) + ": run the same command again to resume:\n  " +
            a.command_line);
        return 128 + (sig ? sig : SIGINT);
    }

    if (!result.built.empty()) {
        auto slowest = result.built;
        std::sort(slowest.begin(), slowest.end(),
                  [](const auto& x, const auto& y) { return x.seconds > y.seconds; });
        std::string s = "slowest:";
        for (size_t i = 0; i < std::min<size_t>(5, slowest.size()); ++i)
            s += " " + slowest[i].material.name() + " " + format_duration(slowest[i].seconds) +
                 (slowest[i].resumed ? " (resumed)" : "") +
                 (i + 1 < std::min<size_t>(5, slowest.size()) ? "," : "");
        say(s);
    }
    uint64_t disk = 0;
    std::error_code ec;
    for (const auto& t : plan.tables) {
        const uint64_t bytes = std::filesystem::file_size(table_path(a.dir, t.material), ec);
        if (!ec) disk += bytes;  // a file that vanished meanwhile counts nothing, not 2^64 - 1
    }
    say("done: " + std::to_string(result.built.size()) + " tables built, " +
        (result.built_elsewhere ? std::to_string(result.built_elsewhere) + " by other processes, " : "") +
        std::to_string(result.skipped) + " skipped, in " + format_duration(result.seconds) +
        "; peak memory " + format_bytes(peak_resident_bytes()) + "; the job's " +
        std::to_string(plan.tables.size()) + " table files take " + format_bytes(disk));

    for (const Material& m : named) {
        if (silent) break;
        // Counted by the job for a table it built; a complete table skipped is read from its file,
        // whole (minutes for a 7-man table), so a signal stops the read.
        const auto built = std::find_if(result.built.begin(), result.built.end(),
                                        [&](const BuiltTable& b) { return b.material == m && b.statistics; });
        if (built != result.built.end()) {
            std::cout << (a.json ? format_json(*built->statistics) + "\n" : format_text(*built->statistics));
            continue;
        }
        Tablebase tables(a.dir);
        if (signals) tables.stop_reading_when(&StopSignals::flag());
        try {
            const TableStatistics stats = compute_statistics(*tables.find(m));
            std::cout << (a.json ? format_json(stats) + "\n" : format_text(stats));
        } catch (const Stopped&) {
            const int sig = StopSignals::signal_number();
            say("interrupted" + (sig ? " by signal " + std::to_string(sig) : std::string()) +
                " while reading " + m.name() + "'s statistics from its file; the table is complete");
            return 128 + (sig ? sig : SIGINT);
        }
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    set_job_heap_thresholds();
    std::unique_ptr<Ranks> ranks;
#ifdef RETRO_MPI
    ranks = launched_ranks(argc, argv);  // before any thread starts
#endif
    po::options_description visible(
        "tbgen: build chess endgame tables (exact distance to mate, both sides to move) by retrograde "
        "analysis.\n"
        "Usage: tbgen [options] MATERIAL...   e.g. tbgen KQvKR -o tables\n"
        "       tbgen --all 5 -o tables       every table of 3 to 5 men (145 tables)\n"
        "       tbgen --verify FILE...\n"
        "Every table a material needs (captures, promotions) is built first. Tables whose file is complete\n"
        "are skipped, so after an interruption (Ctrl-C, kill, power cut) the same command resumes; a table\n"
        "in progress resumes from its last checkpoint. Several tbgen processes may build into one directory\n"
        "(one machine, or several sharing it over NFS): they split the tables. See docs/guide.md.\n"
        "Options");
    const std::string all_help = "build every table of 3 to N men (N = 3 to " + std::to_string(MAX_MEN) + ")";
    visible.add_options()("help,h", "show this help")(
        "output,o", po::value<std::string>()->default_value("tables"), "directory for the table files")(
        "all", po::value<int>(), all_help.c_str())("threads,t", po::value<int>()->default_value(0),
                                                   "worker threads (0 = all cores)")(
        "checkpoint-minutes", po::value<double>()->default_value(5),
        "at most this long between checkpoints of a table in progress (kept in the output directory)")(
        "memory-limit", po::value<std::string>(),
        "refuse a job whose estimated peak memory exceeds this (e.g. 16G; 0 = no limit; default: the "
        "machine's available memory)")(
        "cache", po::value<std::string>(),
        "what a pawn table may hold besides the slice it solves and the tables its captures reach: its "
        "solved slices and the tables its promotions reach, whole (e.g. 4G; default: half the memory "
        "limit). "
        "Beyond it the slices stay on disk and the promotions are read in part, slice by slice: slower, "
        "in far less memory")("no-disk-check", "start even when the disk estimate exceeds the free space")(
        "log", po::value<std::string>(), "append a timestamped log here (default: OUTPUT/tbgen.log)")(
        "dry-run,n",
        "print the plan and the estimates, and on stdout each table of the most men with its own, build "
        "nothing")("calibrate",
                   "print this machine's speed on the cost model's calibration (a fixed solve) and exit")(
        "json", "print statistics as one JSON object per table")("quiet,q", "no per-ply progress")(
        "verify",
        "verify: with materials, check each table after building it; otherwise the "
        "arguments are table files to re-check by forward moves")(
        "wdl", "also write a win/draw/loss bitbase (.rtw, 2 bits per entry) beside each table")(
        "ranks", po::value<int>(),
        "with --dry-run: plan each table split over N processes by king pair, its memory per process "
        "(under mpirun the ranks' count is taken; see docs/cluster.md)")(
        "wave-below", po::value<uint64_t>(),
        ("solve a pawn table's slices of fewer entries per side side by side, a thread (under mpirun a "
         "rank) each, and larger ones one at a time split over the threads and ranks (1 to " +
         std::to_string(WAVE_SLICE_ENTRIES) + ", the default; 1 splits every slice)")
            .c_str());
    add_write_options(visible);
    try {
        const CommandLine line = parse_command_line(argc, argv, visible);
        const po::variables_map& vm = line.options;
        const auto args = line.arguments;
        if (vm.count("calibrate")) {
            std::printf(
                "calibration: %.4f s of CPU (KQvK and KRvK solved on one thread, the least of "
                "several runs on each of a few cores, averaged); this machine takes %.2f times the reference "
                "machine's time\n",
                calibration_seconds(), machine_cost_model(1).speed());
            return 0;
        }
        if (vm.count("help") || (args.empty() && !vm.count("all"))) {
            std::cout << visible << "\n";
            return vm.count("help") ? 0 : 2;
        }
        const int threads = vm["threads"].as<int>();
        if (threads < 0) throw std::runtime_error("--threads must be 0 (all cores) or more");
        const bool is_files =
            vm.count("verify") && !args.empty() && args.front().find(TABLE_EXTENSION) != std::string::npos;
        if (is_files) return with_threads(threads, [&] { return verify_files(args); });

        GenerateArgs a;
        a.names = args;
        if (vm.count("all")) {
            a.all = vm["all"].as<int>();
            if (a.all < 3 || a.all > MAX_MEN)
                throw std::runtime_error("--all takes the number of men, 3 to " + std::to_string(MAX_MEN));
        }
        a.dir = vm["output"].as<std::string>();
        if (vm.count("log")) a.log = vm["log"].as<std::string>();
        a.json = vm.count("json");
        a.quiet = vm.count("quiet");
        a.verify = vm.count("verify");
        a.wdl = vm.count("wdl");
        a.settings.write = write_options_from(vm);
        a.settings.threads = threads;
        if (vm.count("no-disk-check")) a.settings.disk_check = DiskCheck::Ignore;
        a.dry_run = vm.count("dry-run");
        a.ranks = ranks.get();
        a.settings.ranks = ranks ? ranks->size() : 1;
        if (vm.count("ranks")) {
            const int asked = vm["ranks"].as<int>();
            if (asked < 1) throw std::runtime_error("--ranks takes the number of processes, 1 or more");
            if (ranks && asked != ranks->size())
                throw std::runtime_error("--ranks " + std::to_string(asked) + " but mpirun started " +
                                         std::to_string(ranks->size()) + " ranks");
            if (!ranks && !a.dry_run)
                throw std::runtime_error(
                    "--ranks plans a run with --dry-run; to solve on N ranks, run tbgen under mpirun -np N "
                    "(docs/cluster.md)");
            a.settings.ranks = asked;
        }
        a.checkpoint_minutes = vm["checkpoint-minutes"].as<double>();
        if (!(a.checkpoint_minutes >= 0)) throw std::runtime_error("--checkpoint-minutes must be 0 or more");
        if (vm.count("memory-limit")) {
            const std::string text = vm["memory-limit"].as<std::string>();
            a.settings.memory_limit = text == "none" ? 0 : parse_bytes(text);
        }
        if (vm.count("cache")) a.settings.cache = parse_bytes(vm["cache"].as<std::string>());
        if (vm.count("wave-below")) {
            a.settings.waves_below = vm["wave-below"].as<uint64_t>();
            if (a.settings.waves_below < 1 || a.settings.waves_below > WAVE_SLICE_ENTRIES)
                throw std::runtime_error("--wave-below takes 1 to " + std::to_string(WAVE_SLICE_ENTRIES) +
                                         " entries");
        }
        for (int i = 0; i < argc; ++i) a.command_line += (i ? " " : "") + shell_quote(argv[i]);
        return with_threads(threads, [&] { return generate(a); });
    } catch (const po::error& e) {
        std::cerr << "tbgen: " << e.what() << " (see tbgen --help)\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "tbgen: error: " << e.what() << "\n";
        return 1;
    }
}
