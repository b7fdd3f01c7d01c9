// Probe speed. In memory: KQvKR solved at start-up (about 1.5 s), random legal positions probed
// over and over. From a file: a 5-man table written by tbgen, through the C++ Tablebase and through
// the C API (libretrograde.so):
//   cold: the cache emptied before every probe, so each one reads and decodes a block (from the
//         page cache once the file has been read); the counters give the median and the 10th, 90th
//         and 99th percentiles of single probes, and their median CPU time, in microseconds;
//   hot:  4,096 positions from two stored blocks of each side, all cached; items_per_second counts
//         the probes of all threads.
//
//   probe_bench                                   all (the 5-man file is built first if missing)
//   probe_bench --benchmark_filter=File           the file benchmarks only
//   probe_bench --benchmark_filter=Probe/         in-memory value lookups only
//   RETRO_BENCH_DIR=DIR probe_bench               the directory of the 5-man table (default:
//                                                 $TMPDIR/retro-probe-bench, kept between runs)
//   RETRO_BENCH_MATERIAL=KRPvKR probe_bench       another table (default KQRvKR)
//   RETRO_BENCH_CACHE_MIB=256 probe_bench         the hot probes' block cache (default 64 MiB, the
//                                                 library's)
// A missing table is built into the directory with its sub-tables, as `tbgen KQRvKR -o DIR` would
// (KQRvKR: about 10 minutes on 2 cores), and kept for the next runs; a table written with
// `tbgen --codec zstd` is probed the same way (cold probes then decode zstd).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <random>
#include <vector>

#include "jobs/runner.hpp"
#include "probe/line.hpp"
#include "retrograde.h"
#include "solve/solver.hpp"
#include "store/block_cache.hpp"
#include "store/table_reader.hpp"

using namespace retro;
namespace fs = std::filesystem;

namespace {

const Tablebase& tables() {
    static const auto tb = [] {
        auto t = std::make_unique<Tablebase>();
        for (const char* m : {"KQvK", "KRvK", "KQvKR"}) t->add(solve_in_memory(Material::parse(m), *t));
        return t;
    }();
    return *tb;
}

// Random legal KQvKR positions over the whole board, half of them colour-swapped (KRvKQ).
const std::vector<Position>& positions() {
    static const auto out = [] {
        std::mt19937_64 rng(12345);
        std::vector<Position> v;
        const PieceType men[] = {KING, QUEEN, KING, ROOK};
        const Color colors[] = {WHITE, WHITE, BLACK, BLACK};
        while (v.size() < (1 << 16)) {
            Position pos;
            pos.set_side_to_move(Color(rng() & 1));
            const bool swap = rng() & 1;
            bool ok = true;
            for (int i = 0; i < 4 && ok; ++i) {
                const Square s = Square(rng() % 64);
                ok = !(pos.occupied() & square_bb(s));
                pos.put({swap ? ~colors[i] : colors[i], men[i]}, s);
            }
            if (ok && pos.illegality().empty()) v.push_back(pos);
        }
        return v;
    }();
    return out;
}

void Probe(benchmark::State& state) {
    const Tablebase& tb = tables();
    const auto& pos = positions();
    size_t i = 0;
    unsigned sum = 0;
    for (auto _ : state) {
        sum += tb.probe(pos[i++ & (pos.size() - 1)]);
        benchmark::DoNotOptimize(sum);
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(Probe)->ThreadRange(1, 2)->UseRealTime();

void BestMove(benchmark::State& state) {
    const Tablebase& tb = tables();
    const auto& pos = positions();
    size_t i = 0;
    for (auto _ : state) {
        auto best = best_move(tb, pos[i++ & (pos.size() - 1)]);
        benchmark::DoNotOptimize(best);
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BestMove);

// The 5-man table file: RETRO_BENCH_MATERIAL (KQRvKR) in RETRO_BENCH_DIR, built there when missing.
const Material& file_material() {
    static const Material m =
        Material::parse(std::getenv("RETRO_BENCH_MATERIAL") ? std::getenv("RETRO_BENCH_MATERIAL") : "KQRvKR");
    return m;
}

const fs::path& file_dir() {
    static const fs::path dir = [] {
        const fs::path d = std::getenv("RETRO_BENCH_DIR") ? fs::path(std::getenv("RETRO_BENCH_DIR"))
                                                          : fs::temp_directory_path() / "retro-probe-bench";
        fs::create_directories(d);
        const JobPlan plan = make_plan({file_material()}, d);
        if (plan.to_build() > 0) {
            std::cerr << "probe_bench: building " << file_material().name() << " and " << plan.to_build() - 1
                      << " sub-tables into " << d << " (once; kept for later runs)\n";
            JobOptions options;
            options.report = [](const std::string& line) { std::cerr << "  " << line << "\n"; };
            run_job(plan, options);
        }
        return d;
    }();
    return dir;
}

// The file's index scheme, header and digit order, for positions that stay in a few blocks.
const TableReader& file_reader() {
    static const TableReader reader(table_path(file_dir(), file_material()), format::Metric::Dtm);
    return reader;
}

// n random legal positions of the file's material, either side to move, colours swapped half the
// time: from the whole table, or (span > 0) from the entries the file stores at [first, first +
// span), which its digit order may scatter over the whole index range.
std::vector<Position> file_positions(size_t n, uint64_t seed, uint64_t first = 0, uint64_t span = 0) {
    const IndexScheme& scheme = file_reader().scheme();
    std::vector<uint64_t> stored_range;
    if (span > 0) {
        stored_range.resize(span);
        file_reader().digit_order().for_each_index(first, span,
                                                   [&](uint64_t k, uint64_t idx) { stored_range[k] = idx; });
    }
    std::mt19937_64 rng(seed);
    std::vector<Position> out;
    Position pos;
    while (out.size() < n) {
        const uint64_t idx = span > 0 ? stored_range[rng() % span] : rng() % scheme.size();
        if (!scheme.decode(idx, pos)) continue;
        const Color side = Color(rng() & 1);
        pos.set_side_to_move(side);
        if (pos.in_check(~side)) continue;
        out.push_back(rng() & 1 ? pos.color_flipped() : pos);
    }
    return out;
}

// The same positions as the C API's bitboards.
std::vector<retro_position> bits_of(const std::vector<Position>& positions) {
    std::vector<retro_position> out(positions.size());
    for (size_t i = 0; i < positions.size(); ++i)
        if (retro_parse_fen(positions[i].fen().c_str(), &out[i]) != RETRO_OK)
            throw std::runtime_error(retro_last_error());
    return out;
}

double thread_cpu_seconds() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) + double(t.tv_nsec) * 1e-9;
}

// Times each call of probe(i) alone, with prepare(i) untimed before it. Reports the median and the
// 10th, 90th and 99th percentiles of the wall time in microseconds, and the median of this
// thread's CPU time, which other work on a shared machine disturbs less.
template <class Prepare, class Probe>
void time_each(benchmark::State& state, size_t n, Prepare prepare, Probe probe) {
    std::vector<double> wall, cpu;
    size_t i = 0;
    for (auto _ : state) {
        prepare(i);
        const auto start = std::chrono::steady_clock::now();
        const double cpu_start = thread_cpu_seconds();
        probe(i);
        cpu.push_back(thread_cpu_seconds() - cpu_start);
        wall.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        state.SetIterationTime(wall.back());
        i = (i + 1) % n;
    }
    const auto at = [](std::vector<double>& v, double q) {
        std::sort(v.begin(), v.end());
        return v[size_t(q * double(v.size() - 1))] * 1e6;
    };
    state.counters["p10_us"] = at(wall, 0.10);
    state.counters["median_us"] = at(wall, 0.50);
    state.counters["p90_us"] = at(wall, 0.90);
    state.counters["p99_us"] = at(wall, 0.99);
    state.counters["median_cpu_us"] = at(cpu, 0.50);
    state.SetItemsProcessed(int64_t(state.iterations()));
}

constexpr size_t COLD = 1 << 12, HOT = 1 << 12;

void FileColdCpp(benchmark::State& state) {
    const Tablebase tb(file_dir());
    const auto pos = file_positions(COLD, 1);
    time_each(
        state, COLD, [&](size_t) { tb.cache().clear(); },
        [&](size_t i) { benchmark::DoNotOptimize(tb.probe(pos[i])); });
}
BENCHMARK(FileColdCpp)->UseManualTime()->Iterations(2000)->Unit(benchmark::kMicrosecond);

// A cache of one byte keeps only the last block read: random positions then each read their own.
void FileColdC(benchmark::State& state) {
    retro_tablebase* tb = nullptr;
    if (retro_open(file_dir().c_str(), 1, &tb) != RETRO_OK) return state.SkipWithError(retro_last_error());
    const auto bits = bits_of(file_positions(COLD, 1));
    retro_value v;
    time_each(
        state, COLD, [](size_t) {},
        [&](size_t i) {
            retro_probe(tb, &bits[i], &v);
            benchmark::DoNotOptimize(v);
        });
    retro_close(tb);
}
BENCHMARK(FileColdC)->UseManualTime()->Iterations(2000)->Unit(benchmark::kMicrosecond);

// Positions from two stored blocks of each side, all cached after a first pass.
std::vector<Position> hot_positions() {
    const uint64_t block = file_reader().header().block_entries;
    const uint64_t first = file_reader().scheme().size() / 2 / block * block;
    return file_positions(HOT, 2, first, 2 * block);
}

// The hot probes' cache: RETRO_BENCH_CACHE_MIB, or the library's default.
size_t hot_cache_bytes() {
    const char* mib = std::getenv("RETRO_BENCH_CACHE_MIB");
    return mib ? size_t(std::strtoull(mib, nullptr, 10)) << 20 : BlockCache::DEFAULT_BYTES;
}

// One Tablebase for the threads of a run, as an engine would share it.
const Tablebase& hot_tablebase() {
    static const Tablebase tb(file_dir(), hot_cache_bytes());
    return tb;
}

void FileHotCpp(benchmark::State& state) {
    const Tablebase& tb = hot_tablebase();
    const auto pos = hot_positions();
    for (const auto& p : pos) tb.probe(p);  // warm up
    size_t i = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(tb.probe(pos[i]));
        i = (i + 1) % HOT;
    }
    state.SetItemsProcessed(int64_t(state.iterations()));
}
BENCHMARK(FileHotCpp)->ThreadRange(1, 2)->UseRealTime();

retro_tablebase* hot_handle() {
    static retro_tablebase* tb = [] {
        retro_tablebase* h = nullptr;
        if (retro_open(file_dir().c_str(), hot_cache_bytes(), &h) != RETRO_OK)
            throw std::runtime_error(retro_last_error());
        return h;
    }();
    return tb;
}

void FileHotC(benchmark::State& state) {
    retro_tablebase* tb = hot_handle();
    const auto bits = bits_of(hot_positions());
    retro_value v;
    for (const auto& b : bits) retro_probe(tb, &b, &v);
    size_t i = 0;
    for (auto _ : state) {
        retro_probe(tb, &bits[i], &v);
        benchmark::DoNotOptimize(v);
        i = (i + 1) % HOT;
    }
    state.SetItemsProcessed(int64_t(state.iterations()));
}
BENCHMARK(FileHotC)->ThreadRange(1, 2)->UseRealTime();

// Through the C API's FEN entry point: the FEN parsed at every probe.
void FileHotCFen(benchmark::State& state) {
    retro_tablebase* tb = hot_handle();
    std::vector<std::string> fens;
    for (const auto& p : hot_positions()) fens.push_back(p.fen());
    retro_value v;
    size_t i = 0;
    for (auto _ : state) {
        retro_probe_fen(tb, fens[i].c_str(), &v);
        benchmark::DoNotOptimize(v);
        i = (i + 1) % HOT;
    }
    state.SetItemsProcessed(int64_t(state.iterations()));
}
BENCHMARK(FileHotCFen);

}  // namespace
