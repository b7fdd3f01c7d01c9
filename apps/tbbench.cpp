// tbbench: how the solver scales with threads. Solves one table at several thread counts, several
// times each, and reports median wall time, speedup, parallel efficiency and positions per second as
// a table, CSV and a plot, and where the time goes by solver pass. Only the target's solve is timed: its
// sub-tables are built (when missing) and loaded before the first run.
#include <sys/resource.h>
#include <tbb/info.h>

#include <algorithm>
#include <boost/program_options.hpp>
#include <chrono>
#include <fstream>
#include <iostream>
#include <thread>

#include "index/dependencies.hpp"
#include "index/index_scheme.hpp"
#include "jobs/bench.hpp"
#include "jobs/estimates.hpp"
#include "jobs/heap.hpp"
#include "jobs/plan.hpp"
#include "jobs/progress.hpp"
#include "jobs/resident.hpp"
#include "jobs/runner.hpp"
#include "jobs/threads.hpp"
#include "probe/tablebase.hpp"
#include "solve/solver.hpp"
#include "store/atomic_file.hpp"
#include "store/checksum.hpp"
#include "store/table_file.hpp"

namespace po = boost::program_options;
using namespace retro;

namespace {

double cpu_seconds() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           1e-6 * double(u.ru_utime.tv_usec + u.ru_stime.tv_usec);
}

std::string load_average() {
    std::ifstream in("/proc/loadavg");
    std::string one;
    in >> one;
    return one.empty() ? "?" : one;
}

uint64_t table_hash(const Table& t) {
    uint64_t h = checksum64(t.bytes(WHITE).data(), t.bytes(WHITE).size());
    h = checksum64(t.bytes(BLACK).data(), t.bytes(BLACK).size(), h);
    for (Color side : {WHITE, BLACK})
        for (const Table::LongValue& l : t.long_values(side)) h = checksum64(&l, sizeof l, h);
    return h;
}

// The folder a file named on the command line is written to: checked (made when missing) before the
// runs, so that a mistyped path fails at once rather than after minutes of runs.
void check_output(const std::filesystem::path& file) {
    check_writable_dir(file.has_parent_path() ? file.parent_path() : std::filesystem::path("."));
}

// Writes text as the whole of `path`: a failed write throws and leaves no part of the file.
void write_text(const std::filesystem::path& path, const std::string& text) {
    const Bytes bytes(reinterpret_cast<const uint8_t*>(text.data()), text.size());
    write_file_atomically(path, std::span<const Bytes>(&bytes, 1));
}

// Builds the sub-tables `m` needs into dir when they are missing, then loads them.
void prepare_subtables(const Material& m, const std::filesystem::path& dir, Tablebase& tables) {
    const JobPlan plan = make_plan(direct_subtables(m), dir);  // not m itself: that is what we time
    if (plan.to_build() > 0) {
        std::cerr << "building " << plan.to_build() << " sub-tables into " << dir.string() << " first\n";
        check_writable_dir(dir);
        JobOptions options;
        options.report = [](const std::string& s) { std::cerr << s << "\n"; };
        run_job(plan, options);
    }
    // A file that settles values by exits is completed from its own sub-tables as it loads, which
    // takes a while (KRPvKR's seven: half a minute): each one is named as it is ready.
    const auto subs = direct_subtables(m);
    std::cerr << "loading the sub-tables, untimed:";
    for (const Material& sub : subs) {
        const auto start = std::chrono::steady_clock::now();
        if (!tables.find(sub))
            throw std::runtime_error("sub-table " + sub.name() + " missing in " + dir.string());
        std::cerr << ' ' << sub.name() << " ("
                  << format_duration(
                         std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count())
                  << ")" << std::flush;
    }
    std::cerr << (subs.empty() ? " none\n" : "\n");
}

}  // namespace

int main(int argc, char** argv) {
    set_job_heap_thresholds();  // the solves run as a job's do
    const int cores = int(tbb::info::default_concurrency());
    po::options_description visible(
        "tbbench: thread scaling of the solver. Solves one table at each thread count, --repeat times,\n"
        "and reports median wall time, speedup, parallel efficiency and positions per second.\n"
        "Usage: tbbench [--table KQvKR] [--threads 1,2,4,8] [--repeat 3] [--csv F.csv] [--plot F.svg]\n"
        "Options");
    visible.add_options()("help,h", "show this help")("table",
                                                      po::value<std::string>()->default_value("KQvKR"),
                                                      "the table to solve (e.g. KRBvKR for a long run)")(
        "threads", po::value<std::string>(),
        "thread counts, e.g. 1,2,4,8,16 or 1-8 (default: 1 to the cores, every count up to 16, then "
        "powers of two)")("repeat", po::value<int>()->default_value(3),
                          "runs per thread count (the median counts)")(
        "warmup", po::value<int>()->default_value(1), "untimed runs first, at the largest thread count")(
        "dir", po::value<std::string>()->default_value("tables"),
        "where the sub-tables are (built there when missing)")("csv", po::value<std::string>(),
                                                               "write the results as CSV")(
        "plot", po::value<std::string>(), "plot speedup and efficiency with gnuplot (.png or .svg)");
    try {
        po::variables_map vm;
        po::store(po::parse_command_line(argc, argv, visible), vm);
        po::notify(vm);
        if (vm.count("help")) {
            std::cout << visible << "\n";
            return 0;
        }
        const Material m = Material::parse(vm["table"].as<std::string>()).canonical();
        const std::vector<int> threads = vm.count("threads")
                                             ? parse_thread_list(vm["threads"].as<std::string>())
                                             : default_thread_list(cores);
        const int repeat = vm["repeat"].as<int>();
        const int warmup = vm["warmup"].as<int>();
        if (repeat < 1 || warmup < 0)
            throw std::runtime_error("--repeat must be 1 or more, --warmup 0 or more");
        const std::filesystem::path dir = vm["dir"].as<std::string>();
        for (const char* output : {"csv", "plot"})
            if (vm.count(output)) check_output(vm[output].as<std::string>());

        const uint64_t positions = 2 * IndexScheme(m).size();
        const uint64_t memory = in_memory_solve_bytes(m, *std::ranges::max_element(threads));
        std::cerr << "tbbench " << m.name() << ": " << positions
                  << " index entries (both sides to move), about " << format_bytes(memory)
                  << " of memory with the sub-tables held whole; " << cores << " cores available ("
                  << std::thread::hardware_concurrency() << " hardware threads), load average "
                  << load_average() << "\n";
        if (const auto available = available_memory_bytes(); available && memory > *available)
            throw std::runtime_error("solving " + m.name() + " here needs about " + format_bytes(memory) +
                                     " of memory, more than the " + format_bytes(*available) +
                                     " available (tbgen --dry-run " + m.name() +
                                     " shows what a job that builds it needs)");
        std::cerr << "thread counts:";
        for (int t : threads) std::cerr << ' ' << t;
        std::cerr << "; " << repeat << " runs each, interleaved\n";
        if (threads.back() > cores)
            std::cerr << "note: more threads than cores (" << cores
                      << "): those runs measure oversubscription\n";

        Tablebase tables(dir);
        prepare_subtables(m, dir, tables);

        std::optional<uint64_t> expected_hash;
        auto run_once = [&](int t) {
            Control::PhaseSeconds phases{};
            SolveOptions options;
            options.control.timed = [&](Control::Phase p, double seconds) { phases[size_t(p)] += seconds; };
            const double cpu0 = cpu_seconds();
            const auto start = std::chrono::steady_clock::now();
            const auto table = with_threads(t, [&] { return solve_in_memory(m, tables, options); });
            const double wall =
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            const double cpu = cpu_seconds() - cpu0;
            const uint64_t h = table_hash(*table);
            if (expected_hash && *expected_hash != h)
                throw std::runtime_error(
                    "the table solved with " + std::to_string(t) +
                    " threads differs from the first run: the solver is not deterministic");
            expected_hash = h;
            return BenchRun{t, wall, cpu, phases};
        };
        for (int w = 0; w < warmup; ++w) {
            const BenchRun r = run_once(threads.back());
            std::cerr << "warm-up, " << r.threads << " threads: " << r.wall_seconds << " s\n";
        }
        std::vector<BenchRun> runs;
        // Interleaved (1,2,4,1,2,4,...) so drifting load on the machine spreads over all counts.
        for (int k = 0; k < repeat; ++k)
            for (int t : threads) {
                runs.push_back(run_once(t));
                std::cerr << "run " << k + 1 << "/" << repeat << ", " << t
                          << " threads: " << runs.back().wall_seconds << " s wall, "
                          << runs.back().cpu_seconds << " s cpu\n";
            }

        const auto rows = summarize(runs, positions);
        std::cout << m.name() << ", " << positions << " positions (index entries, both sides to move), "
                  << repeat << " runs per thread count, load average " << load_average() << "\n"
                  << format_bench_table(rows) << format_phase_table(rows) << "peak memory "
                  << format_bytes(peak_resident_bytes()) << " (estimated " << format_bytes(memory) << ")\n";

        const std::string csv_text = bench_csv(rows);
        std::filesystem::path csv;
        if (vm.count("csv")) {
            csv = vm["csv"].as<std::string>();
            write_text(csv, csv_text);
            std::cerr << "CSV written to " << csv.string() << "\n";
        }
        if (vm.count("plot")) {
            const std::filesystem::path plot = vm["plot"].as<std::string>();
            const auto gnuplot = find_program("gnuplot");
            if (!gnuplot) {
                std::cerr << "plot skipped: gnuplot is not installed (Debian: apt-get install gnuplot-nox)\n";
            } else {
                if (csv.empty()) {  // gnuplot reads the data from a file
                    csv = plot;
                    csv.replace_extension(".csv");
                    write_text(csv, csv_text);
                }
                std::filesystem::path script = plot;
                script.replace_extension(".gp");
                write_text(
                    script,
                    gnuplot_script(csv, plot, "tbbench " + m.name() + ": speedup and efficiency by threads",
                                   threads.back()));
                const std::string cmd = gnuplot->string() + " '" + script.string() + "'";
                if (std::system(cmd.c_str()) != 0) throw std::runtime_error("the plot failed: " + cmd);
                std::cerr << "plot written to " << plot.string() << " (script " << script.string() << ")\n";
            }
        }
        return 0;
    } catch (const po::error& e) {
        std::cerr << "tbbench: " << e.what() << " (see tbbench --help)\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "tbbench: error: " << e.what() << "\n";
        return 1;
    }
}
