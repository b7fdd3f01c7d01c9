// Table files: random probes per second through the block reader (hot and cold cache), whole-table
// reads (the solver's path), write times (KQvKR, and a synthetic table of KRBvKR's size), the
// search for values settled by exits, the completion of a file they settle and the rebuild of a
// shipped file's dropped side.
//
//   store_bench                                   everything (solves KQvK, KRvK, KQvKR first: ~10 s)
//   store_bench --benchmark_filter=Probe          probes only
//   RETRO_BENCH_TABLES=DIR store_bench            use DIR/KQvKR.rtb etc. instead of solving
//   RETRO_BENCH_BIG=0 store_bench                 skip the 220 MB synthetic table
//   RETRO_BENCH_REWRITE=FILE.rtb store_bench --benchmark_filter=Rewrite
//                                                 write a real table at several codecs and levels,
//                                                 with and without the digit-order search
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <random>

#include "probe/tablebase.hpp"
#include "solve/exit_settled.hpp"
#include "solve/solver.hpp"
#include "store/block_cache.hpp"
#include "store/table_file.hpp"
#include "store/table_reader.hpp"

using namespace retro;
namespace fs = std::filesystem;

namespace {

const fs::path& scratch() {
    static const fs::path dir = [] {
        const fs::path d = fs::temp_directory_path() / ("retro-store-bench-" + std::to_string(::getpid()));
        fs::create_directories(d);
        std::atexit([] {
            fs::remove_all(fs::temp_directory_path() / ("retro-store-bench-" + std::to_string(::getpid())));
        });
        return d;
    }();
    return dir;
}

// KQvKR and its sub-tables, from RETRO_BENCH_TABLES or solved here and written to the scratch dir.
const fs::path& table_dir() {
    static const fs::path dir = [] {
        if (const char* env = std::getenv("RETRO_BENCH_TABLES")) return fs::path(env);
        Tablebase tables;
        for (const char* name : {"KQvK", "KRvK", "KQvKR"}) {
            auto t = solve_in_memory(Material::parse(name), tables);
            write_table(*t, table_path(scratch(), t->material()));
            tables.add(std::move(t));
        }
        return scratch();
    }();
    return dir;
}

std::shared_ptr<const Table> kqkr() {
    static const std::shared_ptr<const Table> t =
        read_table(table_path(table_dir(), Material::parse("KQvKR")));
    return t;
}

// Random legal KQvKR positions, either side to move, any orientation (colours swapped half the time).
std::vector<Position> random_positions(size_t n, uint64_t seed, uint64_t first_index = 0, uint64_t span = 0) {
    const IndexScheme& scheme = kqkr()->scheme;
    if (span == 0) span = scheme.size();
    std::mt19937_64 rng(seed);
    std::vector<Position> out;
    Position pos;
    while (out.size() < n) {
        const uint64_t idx = first_index + rng() % span;
        if (!scheme.decode(idx, pos)) continue;
        const Color side = Color(rng() & 1);
        pos.set_side_to_move(side);
        if (pos.in_check(~side)) continue;
        out.push_back(rng() & 1 ? pos.color_flipped() : pos);
    }
    return out;
}

// Hot: 4096 positions from 4 blocks' worth of entries, probed over and over (all cached).
void ProbeHot(benchmark::State& state) {
    const Tablebase tables(table_dir());
    const auto positions = random_positions(4096, 1, kqkr()->scheme.size() / 2, 4 << 16);
    for (const auto& p : positions) tables.probe(p);  // warm up
    size_t i = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(tables.probe(positions[i]));
        i = (i + 1) & 4095;
    }
    state.SetItemsProcessed(int64_t(state.iterations()));
    // Blocks decoded per probe: 0 when every block stayed cached.
    state.counters["decoded"] = double(tables.cache().misses()) / double(state.iterations());
}
BENCHMARK(ProbeHot)->ThreadRange(1, 2)->UseRealTime();

// Hot, through the reader alone (no en passant check, no material lookup).
void ProbeHotReader(benchmark::State& state) {
    const TableReader reader(table_path(table_dir(), Material::parse("KQvKR")), format::Metric::Dtm);
    const auto positions = random_positions(4096, 2, kqkr()->scheme.size() / 2, 4 << 16);
    for (const auto& p : positions) reader.value(p);
    size_t i = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(reader.value(positions[i]));
        i = (i + 1) & 4095;
    }
    state.SetItemsProcessed(int64_t(state.iterations()));
}
BENCHMARK(ProbeHotReader);

// Warm: random positions over the whole table with a cache that holds all of it (after the first pass).
void ProbeWarmWholeTable(benchmark::State& state) {
    const Tablebase tables(table_dir());
    const auto positions = random_positions(1 << 16, 3);
    for (const auto& p : positions) tables.probe(p);
    size_t i = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(tables.probe(positions[i]));
        i = (i + 1) & ((1 << 16) - 1);
    }
    state.SetItemsProcessed(int64_t(state.iterations()));
}
BENCHMARK(ProbeWarmWholeTable);

// Cold: the cache is cleared before every probe, so each one reads and decompresses a block.
void ProbeCold(benchmark::State& state) {
    const Tablebase tables(table_dir());
    const auto positions = random_positions(1 << 12, 4);
    size_t i = 0;
    for (auto _ : state) {
        tables.cache().clear();
        benchmark::DoNotOptimize(tables.probe(positions[i]));
        i = (i + 1) & ((1 << 12) - 1);
    }
    state.SetItemsProcessed(int64_t(state.iterations()));
}
BENCHMARK(ProbeCold)->UseRealTime()->Unit(benchmark::kMicrosecond);

// One block after another of KQvKR written with each codec, decompressed and checked (one thread,
// no cache): the cost of a cold probe without the index and file system around it.
void DecodeBlock(benchmark::State& state) {
    WriteOptions o;
    o.codec = Codec(state.range(0));
    const fs::path dir = scratch() / ("decode-" + codec_name(o.codec));
    fs::create_directories(dir);
    const auto path = table_path(dir, Material::parse("KQvKR"));
    write_table(*kqkr(), path, o);
    auto cache = std::make_shared<BlockCache>(0);
    const TableReader reader(path, format::Metric::Dtm, cache);
    uint32_t b = 0;
    uint64_t bytes = 0;
    for (auto _ : state) {
        cache->clear();
        bytes += reader.block(b)->size();
        b = (b + 1) % reader.header().block_count;
    }
    state.SetBytesProcessed(int64_t(bytes));
    state.counters["file_bytes"] = double(fs::file_size(path));
}
BENCHMARK(DecodeBlock)
    ->Arg(int(Codec::Xz))
    ->Arg(int(Codec::Zstd))
    ->Arg(int(Codec::Zlib))
    ->ArgName("codec")
    ->Unit(benchmark::kMicrosecond);

// The solver's path: the whole KQvKR table, every block decompressed and checked (all threads).
void ReadWholeKQvKR(benchmark::State& state) {
    const auto path = table_path(table_dir(), Material::parse("KQvKR"));
    for (auto _ : state) benchmark::DoNotOptimize(read_table(path));
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(2 * kqkr()->scheme.size()));
}
BENCHMARK(ReadWholeKQvKR)->UseRealTime()->Unit(benchmark::kMillisecond);

// What the holes of the file hold: a value chosen to compress well (WriteOptions::fill_holes), or
// what the table holds there.
enum class Holes { Kept, Filled };
// The digits stored in the order the writer's search finds, or in the index's own order.
enum class DigitOrder { Natural, Searched };

// Holes and DigitOrder from a benchmark argument (fill, order_search): 1 or 0.
Holes holes_of(int64_t fill) { return fill ? Holes::Filled : Holes::Kept; }
DigitOrder order_of(int64_t search) { return search ? DigitOrder::Searched : DigitOrder::Natural; }

void write(benchmark::State& state, const Table& table, Codec codec, Holes holes, int level = -1,
           DigitOrder order = DigitOrder::Searched) {
    WriteOptions o;
    o.codec = codec;
    o.fill_holes = holes == Holes::Filled;
    o.level = level;
    o.search_digit_order = order == DigitOrder::Searched;
    const auto path = table_path(scratch(), table.material());
    for (auto _ : state) write_table(table, path, o);
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(2 * table.scheme.size()));
    state.counters["file_bytes"] = double(fs::file_size(path));
}

void WriteKQvKR(benchmark::State& state) {
    write(state, *kqkr(), Codec(state.range(0)), holes_of(state.range(1)));
}
BENCHMARK(WriteKQvKR)
    ->ArgsProduct({{int(Codec::Xz), int(Codec::Zstd), int(Codec::Zlib)}, {1, 0}})
    ->ArgNames({"codec", "fill"})
    ->UseRealTime()
    ->Unit(benchmark::kMillisecond);

// The search for the values exits settle (format version 5): one pass of move generation and
// sub-table lookups over KQvKR, part of every write of tbgen and tbpack.
void SettleExitsKQvKR(benchmark::State& state) {
    const Tablebase tables(table_dir());
    for (auto _ : state) benchmark::DoNotOptimize(exit_settled(*kqkr(), tables));
    state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(2 * kqkr()->scheme.size()));
}
BENCHMARK(SettleExitsKQvKR)->UseRealTime()->Unit(benchmark::kMillisecond);

// The whole KQvKR table read from a file that exits settle (the default form), and completed from
// its sub-tables (apply_exits): what a job pays for a sub-table that has no exact copy.
void CompleteSettledKQvKR(benchmark::State& state) {
    const fs::path dir = scratch() / "settled";
    fs::create_directories(dir);
    const Tablebase exact(table_dir());
    for (const char* name : {"KQvK", "KRvK", "KQvKR"}) {
        const Material m = Material::parse(name);
        write_settled_table(*exact.find(m), table_path(dir, m), WriteOptions{}, exact);
    }
    for (auto _ : state) benchmark::DoNotOptimize(Tablebase(dir).find(Material::parse("KQvKR")));
    state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(2 * kqkr()->scheme.size()));
}
BENCHMARK(CompleteSettledKQvKR)->UseRealTime()->Unit(benchmark::kMillisecond);

// The whole KQvKR table read from the shipping form, which keeps one side to move (the argument's
// other), its sub-tables in the default form: the dropped side is rebuilt by a one-ply search over the
// kept one and the sub-tables (rebuild_side), what a job pays for a sub-table of a shipped set.
void RebuildShippedKQvKR(benchmark::State& state) {
    const Color kept = Color(state.range(0));
    const fs::path dir = scratch() / (kept == WHITE ? "shipped-white" : "shipped-black");
    fs::create_directories(dir);
    const Tablebase exact(table_dir());
    for (const char* name : {"KQvK", "KRvK", "KQvKR"}) {
        const Material m = Material::parse(name);
        WriteOptions options;
        if (m == Material::parse("KQvKR"))
            options.keep =
                kept == WHITE ? WriteOptions::Sides::WhiteToMove : WriteOptions::Sides::BlackToMove;
        write_settled_table(*exact.find(m), table_path(dir, m), options, exact);
    }
    for (auto _ : state) benchmark::DoNotOptimize(Tablebase(dir).find(Material::parse("KQvKR")));
    state.SetItemsProcessed(int64_t(state.iterations()) * int64_t(kqkr()->scheme.size()));
}
BENCHMARK(RebuildShippedKQvKR)->Arg(WHITE)->Arg(BLACK)->UseRealTime()->Unit(benchmark::kMillisecond);

// A KRBvKR-sized table (2 x 110,107,536 entries, 220 MB) filled with KQvKR's values over and over, so
// it compresses roughly like real data. Holes are found with KRBvKR's own index.
std::shared_ptr<const Table> synthetic_krbkr() {
    static const std::shared_ptr<const Table> t = [] {
        auto big = std::make_shared<Table>(Material::parse("KRBvKR"));
        const auto src = kqkr();
        for (Color side : {WHITE, BLACK})
            for (uint64_t i = 0; i < big->size(); ++i) big->set(side, i, src->value(side, i % src->size()));
        return big;
    }();
    return t;
}

void WriteSyntheticKRBvKR(benchmark::State& state) {
    write(state, *synthetic_krbkr(), Codec::Xz, holes_of(state.range(0)));
}
void ReadSyntheticKRBvKR(benchmark::State& state) {
    const auto path = table_path(scratch(), Material::parse("KRBvKR"));
    if (!fs::exists(path)) write_table(*synthetic_krbkr(), path);
    for (auto _ : state) benchmark::DoNotOptimize(read_table(path));
    state.SetBytesProcessed(int64_t(state.iterations()) * int64_t(2 * synthetic_krbkr()->scheme.size()));
}

const bool big_registered = [] {
    const char* env = std::getenv("RETRO_BENCH_BIG");
    if (env && std::string(env) == "0") return false;
    benchmark::RegisterBenchmark("WriteSyntheticKRBvKR", WriteSyntheticKRBvKR)
        ->Arg(1)
        ->Arg(0)
        ->ArgName("fill")
        ->Iterations(1)
        ->UseRealTime()
        ->Unit(benchmark::kSecond);
    benchmark::RegisterBenchmark("ReadSyntheticKRBvKR", ReadSyntheticKRBvKR)
        ->Iterations(1)
        ->UseRealTime()
        ->Unit(benchmark::kSecond);
    return true;
}();

// The write time against the file size of a real table (tbgen --codec/--level), e.g. a 5-man one.
const bool rewrite_registered = [] {
    const char* env = std::getenv("RETRO_BENCH_REWRITE");
    if (!env) return false;
    const auto rewrite = [](benchmark::State& state) {
        // Read here, not while registering: the index tables are not set up before main.
        static const std::shared_ptr<const Table> table = read_table(std::getenv("RETRO_BENCH_REWRITE"));
        write(state, *table, Codec(state.range(0)), Holes::Filled, int(state.range(1)),
              order_of(state.range(2)));
    };
    benchmark::RegisterBenchmark("Rewrite", rewrite)
        ->Args({int(Codec::Xz), 6, 1})
        ->Args({int(Codec::Xz), 6, 0})
        ->Args({int(Codec::Xz), 4, 1})
        ->Args({int(Codec::Xz), 3, 1})
        ->Args({int(Codec::Xz), 1, 1})
        ->Args({int(Codec::Zstd), 9, 1})
        ->ArgNames({"codec", "level", "order_search"})
        ->Iterations(1)
        ->UseRealTime()
        ->Unit(benchmark::kSecond);
    return true;
}();

}  // namespace
