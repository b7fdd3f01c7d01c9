#include "jobs/bench.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <sstream>
#include <stdexcept>

namespace retro {

namespace {

// Each pass's CSV column, in Control::Phase's order.
constexpr std::array<const char*, Control::PHASES> PHASE_COLUMNS{"first_pass_s", "sweeps_s", "final_values_s",
                                                                 "waves_s", "assembly_s"};

// The passes that took a millisecond or more in some row (a pawnless table has no waves and no
// assembly), in order.
std::vector<int> phases_taken(const std::vector<BenchRow>& rows) {
    std::vector<int> out;
    for (int p = 0; p < Control::PHASES; ++p)
        if (std::ranges::any_of(rows, [&](const BenchRow& r) { return r.phase_seconds[size_t(p)] >= 1e-3; }))
            out.push_back(p);
    return out;
}

}  // namespace

std::vector<int> parse_thread_list(const std::string& text) {
    std::set<int> out;
    std::stringstream in(text);
    std::string item;
    auto number = [&](const std::string& s) {
        std::size_t end = 0;
        int v = 0;
        try {
            v = std::stoi(s, &end);
        } catch (const std::exception&) {
            end = 0;
        }
        if (end != s.size() || v < 1 || v > 4096)
            throw std::invalid_argument("'" + text +
                                        "' is not a list of thread counts (example: 1,2,4,8 or 1-8)");
        return v;
    };
    while (std::getline(in, item, ',')) {
        const auto dash = item.find('-');
        if (dash == std::string::npos) {
            out.insert(number(item));
        } else {
            const int lo = number(item.substr(0, dash)), hi = number(item.substr(dash + 1));
            if (hi < lo) throw std::invalid_argument("'" + item + "': an empty range of thread counts");
            for (int t = lo; t <= hi; ++t) out.insert(t);
        }
    }
    if (out.empty()) throw std::invalid_argument("no thread counts in '" + text + "'");
    return {out.begin(), out.end()};
}

std::vector<int> default_thread_list(int cores) {
    cores = std::max(cores, 1);
    std::vector<int> out;
    if (cores <= 16) {
        for (int t = 1; t <= cores; ++t) out.push_back(t);
        return out;
    }
    for (int t = 1; t < cores; t *= 2) out.push_back(t);
    out.push_back(cores);
    return out;
}

double median(std::vector<double> values) {
    if (values.empty()) return 0;
    std::sort(values.begin(), values.end());
    const size_t n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

std::vector<BenchRow> summarize(const std::vector<BenchRun>& runs, uint64_t positions) {
    std::set<int> counts;
    for (const auto& r : runs) counts.insert(r.threads);
    std::vector<BenchRow> rows;
    for (int t : counts) {
        std::vector<double> wall, cpu;
        std::array<std::vector<double>, Control::PHASES> phases;
        for (const auto& r : runs) {
            if (r.threads != t) continue;
            wall.push_back(r.wall_seconds);
            cpu.push_back(r.cpu_seconds);
            for (size_t p = 0; p < phases.size(); ++p) phases[p].push_back(r.phase_seconds[p]);
        }
        BenchRow row;
        for (size_t p = 0; p < phases.size(); ++p) row.phase_seconds[p] = median(phases[p]);
        row.threads = t;
        row.runs = int(wall.size());
        row.median_seconds = median(wall);
        row.min_seconds = *std::min_element(wall.begin(), wall.end());
        row.max_seconds = *std::max_element(wall.begin(), wall.end());
        row.cpu_seconds = median(cpu);
        row.positions_per_second = row.median_seconds > 0 ? double(positions) / row.median_seconds : 0;
        rows.push_back(row);
    }
    if (!rows.empty()) {
        const BenchRow base = rows.front();
        for (auto& row : rows) {
            row.speedup = row.median_seconds > 0 ? base.median_seconds / row.median_seconds : 0;
            row.efficiency = row.speedup * base.threads / row.threads;
        }
    }
    return rows;
}

std::string format_bench_table(const std::vector<BenchRow>& rows) {
    std::string out =
        "threads  runs  median s     min s     max s     cpu s  speedup  efficiency  positions/s\n";
    char line[160];
    for (const auto& r : rows) {
        std::snprintf(line, sizeof line, "%7d  %4d  %8.3f  %8.3f  %8.3f  %8.3f  %7.2f  %9.0f%%  %11.4g\n",
                      r.threads, r.runs, r.median_seconds, r.min_seconds, r.max_seconds, r.cpu_seconds,
                      r.speedup, 100 * r.efficiency, r.positions_per_second);
        out += line;
    }
    return out;
}

std::string format_phase_table(const std::vector<BenchRow>& rows) {
    const std::vector<int> taken = phases_taken(rows);
    if (rows.empty() || taken.empty()) return "";
    char cell[64];
    std::string header = "threads";
    for (int p : taken) {
        std::snprintf(cell, sizeof cell, "  %17s", Control::PHASE_NAMES[size_t(p)]);
        header += cell;
    }
    std::string out = "where the time goes (median seconds, share of the median wall time):\n" + header +
                      "              other\n";
    for (const auto& r : rows) {
        std::snprintf(cell, sizeof cell, "%7d", r.threads);
        out += cell;
        double other = r.median_seconds;
        for (int p : taken) {
            const double seconds = r.phase_seconds[size_t(p)];
            other -= seconds;
            std::snprintf(cell, sizeof cell, "  %10.3f (%3.0f%%)", seconds,
                          r.median_seconds > 0 ? 100 * seconds / r.median_seconds : 0.0);
            out += cell;
        }
        other = std::max(other, 0.0);  // the medians of the passes may come from different runs
        std::snprintf(cell, sizeof cell, "  %10.3f (%3.0f%%)\n", other,
                      r.median_seconds > 0 ? 100 * other / r.median_seconds : 0.0);
        out += cell;
    }
    if (rows.size() < 2) return out;
    const BenchRow& base = rows.front();
    std::snprintf(cell, sizeof cell, "speedup by pass, against %d thread%s:\n", base.threads,
                  base.threads == 1 ? "" : "s");
    out += cell + header + "              whole\n";
    const auto ratio = [](double from, double to) { return to > 0 ? from / to : 0.0; };
    for (const auto& r : rows) {
        std::snprintf(cell, sizeof cell, "%7d", r.threads);
        out += cell;
        for (int p : taken) {
            std::snprintf(cell, sizeof cell, "  %17.2f",
                          ratio(base.phase_seconds[size_t(p)], r.phase_seconds[size_t(p)]));
            out += cell;
        }
        std::snprintf(cell, sizeof cell, "  %17.2f\n", r.speedup);
        out += cell;
    }
    return out;
}

std::string bench_csv(const std::vector<BenchRow>& rows) {
    std::string out = "threads,runs,median_s,min_s,max_s,cpu_s,speedup,efficiency,positions_per_s";
    for (const char* column : PHASE_COLUMNS) out += std::string(",") + column;
    out += "\n";
    char line[200];
    for (const auto& r : rows) {
        std::snprintf(line, sizeof line, "%d,%d,%.6f,%.6f,%.6f,%.6f,%.4f,%.4f,%.0f", r.threads, r.runs,
                      r.median_seconds, r.min_seconds, r.max_seconds, r.cpu_seconds, r.speedup, r.efficiency,
                      r.positions_per_second);
        out += line;
        for (double seconds : r.phase_seconds) {
            std::snprintf(line, sizeof line, ",%.6f", seconds);
            out += line;
        }
        out += "\n";
    }
    return out;
}

std::string gnuplot_script(const std::filesystem::path& csv, const std::filesystem::path& output,
                           const std::string& title, int max_threads) {
    const bool svg = output.extension() == ".svg";
    auto quoted = [](const std::string& s) {
        std::string q = "'";
        for (char c : s) q += c == '\'' ? std::string("''") : std::string(1, c);
        return q + "'";
    };
    const int top = std::max(max_threads, 1) + 1;
    std::ostringstream s;
    s << (svg ? "set terminal svg size 900,600 dynamic background rgb 'white'\n"
              : "set terminal png size 900,600\n")
      << "set output " << quoted(output.string()) << "\n"
      << "set datafile separator ','\n"
      << "set title " << quoted(title) << "\n"
      << "set key top left\n"
      << "set grid\n"
      << "set xlabel 'threads'\n"
      << (max_threads <= 16 ? "set xtics 1\n" : "") << "set ylabel 'speedup (median wall time)'\n"
      << "set y2label 'parallel efficiency'\n"
      << "set xrange [0:" << top << "]\n"
      << "set yrange [0:" << top << "]\n"
      << "set y2range [0:1.2]\n"
      << "set ytics nomirror\n"
      << "set y2tics 0.2\n"
      << "plot x title 'ideal' with lines dashtype 2 linecolor rgb 'gray', \\\n"
      << "     " << quoted(csv.string())
      << " using 1:7 skip 1 title 'speedup' with linespoints pointtype 7 linewidth 2, \\\n"
      << "     '' using 1:8 skip 1 axes x1y2 title 'efficiency (right axis)' with linespoints pointtype 5\n";
    return s.str();
}

std::optional<std::filesystem::path> find_program(const std::string& name) {
    const char* path = std::getenv("PATH");
    if (!path) return std::nullopt;
    std::stringstream in(path);
    std::string dir;
    while (std::getline(in, dir, ':')) {
        if (dir.empty()) continue;
        const auto candidate = std::filesystem::path(dir) / name;
        if (::access(candidate.c_str(), X_OK) == 0) return candidate;
    }
    return std::nullopt;
}

}  // namespace retro
