// The thread-scaling benchmark's arithmetic and output: thread lists, medians, speedup and
// efficiency, the terminal table, CSV and a gnuplot plot. apps/tbbench.cpp does the timing.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "store/control.hpp"

namespace retro {

// "1,2,4,8,16", ranges "1-4,8". Sorted, each once. Throws std::invalid_argument.
std::vector<int> parse_thread_list(const std::string& text);
// Every count from 1 to `cores` up to 16 cores; above that the powers of two and `cores` itself
// (1,2,4,...,32,64 on 64 cores), so a run on a big machine stays affordable.
std::vector<int> default_thread_list(int cores);

double median(std::vector<double> values);

struct BenchRun {
    int threads = 0;
    double wall_seconds = 0;
    double cpu_seconds = 0;                 // user + system of the whole process during the run
    Control::PhaseSeconds phase_seconds{};  // by solver pass, summed over the schemes and waves
};

struct BenchRow {
    int threads = 0;
    int runs = 0;
    double median_seconds = 0, min_seconds = 0, max_seconds = 0;
    double cpu_seconds = 0;  // median
    // Against the smallest thread count measured (1 when it is in the list): speedup = its median
    // time / this median time; efficiency = speedup / (threads / that count).
    double speedup = 0, efficiency = 0;
    double positions_per_second = 0;        // index entries of both sides to move / median time
    Control::PhaseSeconds phase_seconds{};  // each the median of its runs
};

// One row per thread count, in increasing order. positions: index entries of both sides to move.
std::vector<BenchRow> summarize(const std::vector<BenchRun>& runs, uint64_t positions);

// Aligned columns for the terminal.
std::string format_bench_table(const std::vector<BenchRow>& rows);
// Where the median time goes: per thread count, each pass's seconds and share of the median wall
// time, the rest as "other" (allocation, a slice's setup), and with several counts each pass's speedup
// against the first count's. Only the passes that took a millisecond or more in some row.
std::string format_phase_table(const std::vector<BenchRow>& rows);
// threads,runs,median_s,min_s,max_s,cpu_s,speedup,efficiency,positions_per_s, then each pass's
// median seconds: first_pass_s,sweeps_s,final_values_s,waves_s,assembly_s
std::string bench_csv(const std::vector<BenchRow>& rows);

// A gnuplot script plotting speedup (with the ideal line) and efficiency against threads from the
// CSV file, into `output` (PNG or SVG by its extension).
std::string gnuplot_script(const std::filesystem::path& csv, const std::filesystem::path& output,
                           const std::string& title, int max_threads);

// The full path of an executable found in PATH.
std::optional<std::filesystem::path> find_program(const std::string& name);

}  // namespace retro
