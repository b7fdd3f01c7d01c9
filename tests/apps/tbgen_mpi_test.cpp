// tbgen under mpirun: each table solved by every rank, the files byte-identical to those of one process
// for any number of ranks; what is not yet distributed refused before anything is written.
// Run as root with oversubscription, as CI does (2 cores, more ranks than cores).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <regex>

#include "index/index_scheme.hpp"
#include "solve/checkpoint.hpp"
#include "store/table_paths.hpp"
#include "support/app_run.hpp"
#include "support/mpi_run.hpp"
#include "support/store_test_util.hpp"

using namespace retro;
namespace fs = std::filesystem;

namespace {

#ifdef RETRO_MPIEXEC
using test::on_ranks;

// Runs a shell command, its output into `log`; its exit status.
int run_shell(const std::string& command, const fs::path& log) {
    const int raw = std::system((command + " > " + log.string() + " 2>&1").c_str());
    return WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
}
#endif

// A temporary directory of its own, removed at the end.
struct Scratch {
    fs::path path = fs::temp_directory_path() / ("retro_mpi_" + std::to_string(getpid()));
    Scratch() {
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~Scratch() { fs::remove_all(path); }
};

#ifdef RETRO_MPIEXEC
// The names of the table files in `dir`.
std::vector<std::string> table_files(const fs::path& dir) {
    std::vector<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir))
        if (entry.path().extension() == ".rtb" || entry.path().extension() == ".rtw")
            names.push_back(entry.path().filename().string());
    std::ranges::sort(names);
    return names;
}

// Runs tbgen `args` with one process, then on each of `ranks` ranks (with `rank_args` besides), and
// expects `files` table files, the same bytes each time, and lines in the log of the traffic and the
// peaks of table `last`. No writer searches the exits: the ranks found the survey as they solved (or
// the file is self-contained). Returns the log of the last run.
std::string expect_files_of_one_process(const std::string& args, const std::string& last, size_t files,
                                        const std::vector<int>& ranks, const std::string& rank_args = "") {
    const Scratch scratch;
    const fs::path alone = scratch.path / "alone";
    const test::AppOutcome one =
        test::run_app("tbgen", args + " -q --codec zstd --level 1 -t 2 -o " + alone.string(), scratch.path);
    EXPECT_EQ(one.status, 0) << one.err;
    const std::vector<std::string> names = table_files(alone);
    EXPECT_EQ(names.size(), files);
    std::string text;
    for (const int n : ranks) {
        const fs::path dir = scratch.path / ("ranks" + std::to_string(n)), log = dir.string() + ".out";
        EXPECT_EQ(run_shell(on_ranks(n, args + " " + rank_args + " -q --codec zstd --level 1 -t 1 -o " +
                                            dir.string()),
                            log),
                  0)
            << store_test::read_bytes(log);
        EXPECT_EQ(table_files(dir), names) << "on " << n << " ranks";
        for (const std::string& file : names)
            EXPECT_EQ(store_test::read_bytes(dir / file), store_test::read_bytes(alone / file))
                << file << " on " << n << " ranks";
        // The log tells the table's traffic and every rank's peak.
        text = store_test::read_bytes(dir / "tbgen.log");
        const std::regex traffic(
            last + ": " + std::to_string(n) +
            R"( ranks sent (\d+) bytes, [0-9.]+ per entry and side \(rank 0: .*\); ([0-9.]+)% of (\d+) predecessor updates crossed ranks)");
        std::smatch m;
        EXPECT_TRUE(std::regex_search(text, m, traffic)) << text;
        EXPECT_EQ(m.str(1) == "0", n == 1) << m.str(0);  // one rank sends nothing
        EXPECT_EQ(std::stod(m.str(2)) == 0.0, n == 1) << m.str(0);
        EXPECT_GT(std::stoull(m.str(3)), 0u);
        const std::regex peaks(last + ": peak memory by rank 0: [0-9.]+ [KMG]iB" +
                               std::string(n > 1 ? ", 1: " : " \\(estimated"));
        EXPECT_TRUE(std::regex_search(text, peaks)) << text;
        EXPECT_EQ(text.find(": settling values by exits"), std::string::npos) << text;
    }
    return text;
}

// The bytes of solved slices that table `m`'s line in `log` says the ranks sent one another; 0 when
// it says none.
uint64_t slice_bytes_sent(const std::string& log, const std::string& m) {
    std::smatch found;
    if (!std::regex_search(log, found, std::regex(m + R"(: \d+ ranks sent .*)"))) return 0;
    const std::string line = found.str(0);
    std::smatch bytes;
    return std::regex_search(line, bytes, std::regex(R"(solved slices sent: (\d+) bytes)"))
               ? std::stoull(bytes.str(1))
               : 0;
}
#endif

}  // namespace

// In the shipping form (one side to move, the one rank 0 finds compresses smaller) with the bitbases.
TEST(TbgenMpi, KQvKRAndItsSubTablesShippedOnOneAndTwoRanksAreTheFilesOfOneProcess) {
#ifndef RETRO_MPIEXEC
    GTEST_SKIP() << "tbgen is built without MPI (scripts/setup.sh installs Open MPI)";
#else
    expect_files_of_one_process("KQvKR --wdl --shipping", "KQvKR", 6, {1, 2});
#endif
}

// The 4-man pawn tables' slices are small: each is solved by one rank, beside the others of its
// wave, and handed to the others.
TEST(TbgenMpi, EveryTableOfUpToFourMenOnThreeRanksIsTheFileOfOneProcess) {
#ifndef RETRO_MPIEXEC
    GTEST_SKIP() << "tbgen is built without MPI (scripts/setup.sh installs Open MPI)";
#else
    const std::string log = expect_files_of_one_process("--all 4", "KRvKR", 35, {3});
    // KPvKP's 1128 slices of 3612 entries a side, a byte each, each sent to the two ranks that did
    // not solve it.
    EXPECT_GE(slice_bytes_sent(log, "KPvKP"), 2 * 1128 * 2 * 3612u) << log;
#endif
}

// With --wave-below 1 every slice is split over the ranks by king pair, then put together at each; with
// --cache 1M the slices stay on disk and the promotions are read in part (the lean way), at every rank.
TEST(TbgenMpi, KRPvKTheLeanWayWithEverySliceSplitOverTwoRanksIsTheFileOfOneProcess) {
#ifndef RETRO_MPIEXEC
    GTEST_SKIP() << "tbgen is built without MPI (scripts/setup.sh installs Open MPI)";
#else
    const std::string log =
        expect_files_of_one_process("KRPvK --cache 1M", "KRPvK", 10, {2}, "--wave-below 1");
    EXPECT_GT(slice_bytes_sent(log, "KRPvK"), 0u) << log;
#endif
}

// With --wave-below 1 every slice is split over the ranks by king pair: each rank finds the survey of
// its part, which rank 0 gathers to write the table.
TEST(TbgenMpi, KPvKWithEverySliceSplitOverTwoRanksIsWrittenFromTheRanksSurvey) {
#ifndef RETRO_MPIEXEC
    GTEST_SKIP() << "tbgen is built without MPI (scripts/setup.sh installs Open MPI)";
#else
    const std::string log = expect_files_of_one_process("KPvK", "KPvK", 5, {2}, "--wave-below 1");
    EXPECT_GT(slice_bytes_sent(log, "KPvK"), 0u) << log;
#endif
}

// A checkpoint of one process is refused by ranks, naming what resumes it; a damaged one is set aside
// and the table solved from the start.
TEST(TbgenMpi, AOneProcessCheckpointIsRefusedOnRanksAndADamagedOneSetAside) {
#ifndef RETRO_MPIEXEC
    GTEST_SKIP() << "tbgen is built without MPI (scripts/setup.sh installs Open MPI)";
#else
    const Scratch scratch;
    const fs::path dir = scratch.path / "resumed", log = scratch.path / "resumed.out";
    fs::create_directories(dir);
    const Material kqk = Material::parse("KQvK");
    const SweepState state = blank_sweep_state(IndexScheme(kqk).size());
    write_checkpoint(checkpoint_path(dir, kqk), kqk, 0, &state, {});
    EXPECT_EQ(run_shell(on_ranks(2, "KQvK -q -o " + dir.string()), log), 3);
    EXPECT_NE(store_test::read_bytes(log).find("KQvK.checkpoint was written by one process, and only as many "
                                               "resume it: run tbgen without mpirun to finish KQvK"),
              std::string::npos)
        << store_test::read_bytes(log);
    EXPECT_FALSE(fs::exists(dir / "KQvK.rtb"));

    store_test::write_bytes(checkpoint_path(dir, kqk), "damaged");
    EXPECT_EQ(run_shell(on_ranks(2, "KQvK -q -o " + dir.string()), log), 0) << store_test::read_bytes(log);
    EXPECT_NE(store_test::read_bytes(dir / "tbgen.log")
                  .find("set aside as " + damaged_checkpoint_path(checkpoint_path(dir, kqk)).string() +
                        ", solving from the start"),
              std::string::npos)
        << store_test::read_bytes(dir / "tbgen.log");
    EXPECT_TRUE(fs::exists(dir / "KQvK.rtb"));
#endif
}
