// The table files do not depend on the number of threads: KRvK, KQvKR and KPvKP solved with 1, 2
// and 3 threads (one thread counts down without atomics, several with them) are written byte for
// byte the same; so are KPvKP's checkpoints (en passant edges included).
//
// tbb::global_control only caps the threads: on a 2-core machine the default arena still has 2
// slots, so a cap of 3 alone would run 2. Each solve therefore runs in a task_arena of exactly n
// slots under a global_control of n.
#include <gtest/gtest.h>
#include <tbb/global_control.h>
#include <tbb/task_arena.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "index/pawn_slices.hpp"
#include "jobs/log.hpp"
#include "solve/layer_sweep.hpp"
#include "store/table_file.hpp"
#include "support/solved_tables.hpp"

using namespace retro;
namespace fs = std::filesystem;

namespace {

std::string file_bytes(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A fresh directory removed at the end of the test.
struct TempDir {
    fs::path path;
    explicit TempDir(const std::string& name)
        : path(fs::temp_directory_path() / ("retro-" + name + "-" + std::to_string(::getpid()))) {
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~TempDir() { fs::remove_all(path); }
};

// Runs f in an arena of exactly `threads` threads.
template <class F>
void with_exactly(int threads, F&& f) {
    tbb::global_control cap(tbb::global_control::max_allowed_parallelism, size_t(threads));
    tbb::task_arena arena(threads);
    ASSERT_EQ(arena.max_concurrency(), threads);
    arena.execute(f);
}

// Solves `material` once per thread count (its sub-tables solved beforehand, with the default
// threads) and expects identical files, written with `options`.
void expect_same_files_for_1_2_3_threads(const std::string& name, const WriteOptions& options = {}) {
    const Material m = Material::parse(name);
    std::vector<std::string> subs;
    for (const Material& sub : direct_subtables(m)) subs.push_back(sub.name());
    const Tablebase& subtables = retro::test::solved_tables(subs);

    TempDir dir("determinism-" + name);
    std::string reference;
    std::unique_ptr<Table> first;
    for (int threads : {1, 2, 3}) {
        std::unique_ptr<Table> table;
        with_exactly(threads, [&] {
            EXPECT_EQ(arena_updaters(), threads == 1 ? Updaters::One : Updaters::Several);
            table = solve_in_memory(m, subtables);
        });
        const fs::path file = table_path(dir.path / std::to_string(threads), m);
        fs::create_directories(file.parent_path());
        write_table(*table, file, options);
        const std::string bytes = file_bytes(file);
        ASSERT_EQ(bytes.size(), fs::file_size(file));
        ASSERT_FALSE(bytes.empty());
        if (threads == 1) {
            reference = bytes;
            first = std::move(table);
            continue;
        }
        EXPECT_TRUE(bytes == reference) << name << ": the file written after solving with " << threads
                                        << " threads differs from the one with 1 thread";
        for (Color side : {WHITE, BLACK})
            for (uint64_t i = 0; i < table->scheme.size(); ++i)
                if (table->value(side, i) != first->value(side, i)) {
                    Position pos;
                    table->scheme.decode(i, pos);
                    pos.set_side_to_move(side);
                    ADD_FAILURE() << name << ": first different entry " << i << " (" << pos.fen()
                                  << "): " << describe(first->value(side, i)) << " with 1 thread, "
                                  << describe(table->value(side, i)) << " with " << threads;
                    return;
                }
    }
}

}  // namespace

TEST(Determinism, KRvK) { expect_same_files_for_1_2_3_threads("KRvK"); }

TEST(Determinism, KQvKR) { expect_same_files_for_1_2_3_threads("KQvKR"); }

// Written with zstd in the natural order: the default write's search of digit orders with xz would
// take half of this test, and KRvK and KQvKR check that write.
TEST(Determinism, KPvKP) {
    WriteOptions fast;
    fast.codec = Codec::Zstd;
    fast.search_digit_order = false;
    expect_same_files_for_1_2_3_threads("KPvKP", fast);
}

// The checkpoint, layer log and slice store written at ply 8 of KRPvK's third slice, whose sweeps go
// through its 224 K entries in parallel chunks, the store holding the two slices before it.
TEST(Determinism, KRPvKCheckpoint) {
    const Material m = Material::parse("KRPvK");
    std::vector<std::string> subs;
    for (const Material& sub : direct_subtables(m)) subs.push_back(sub.name());
    const Tablebase& subtables = retro::test::solved_tables(subs);

    TempDir dir("determinism-checkpoint");
    std::string reference;
    for (int threads : {1, 2, 3}) {
        std::atomic<bool> stop{false};
        LineStream progress([&](const std::string& line) {
            if (line.starts_with("KRPvK slice 3 of 24: lost in 8:")) stop = true;
        });
        SolveOptions options;
        options.control.lines = &progress;
        options.checkpoint = dir.path / (std::to_string(threads) + ".checkpoint");
        options.waves_below = 1 << 17;  // the slices solved alone, their sweeps in parallel chunks
        options.control.stop = &stop;
        with_exactly(threads, [&] { EXPECT_THROW(solve_in_memory(m, subtables, options), Stopped); });
        const std::string store = file_bytes(slice_store_path(options.checkpoint));
        const std::string bytes =
            file_bytes(options.checkpoint) + file_bytes(layer_log_path(options.checkpoint)) + store;
        // The slice's state, some layers in the log, and two slices in the store.
        ASSERT_GT(bytes.size(), 2 * IndexScheme(m, pawn_configs(m)[2]).size() + 10000);
        ASSERT_GT(store.size(), 1000u);
        if (threads == 1)
            reference = bytes;
        else
            EXPECT_TRUE(bytes == reference) << "the checkpoint or layer log written with " << threads
                                            << " threads differs from the one with 1 thread";
    }
}
