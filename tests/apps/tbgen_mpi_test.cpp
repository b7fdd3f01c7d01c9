// tbgen under mpirun: each pawnless table solved by every rank, the files byte-identical to those of
// one process for any number of ranks; what is not yet distributed refused before anything is written.
// Run as root with oversubscription, as CI does (2 cores, more ranks than cores).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <regex>

#include "support/app_run.hpp"
#include "support/store_test_util.hpp"

using namespace retro;
namespace fs = std::filesystem;

namespace {

#ifdef RETRO_MPIEXEC
// `tbgen args` on `ranks` ranks (shell syntax).
std::string on_ranks(int ranks, const std::string& args) {
    // Root (CI), shared memory without cross-memory attach (which containers often forbid), and
    // waiting ranks that yield their core (more ranks than cores).
    return "env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "
           "OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_mpi_yield_when_idle=1 " +
           std::string(RETRO_MPIEXEC) + " -np " + std::to_string(ranks) + " --oversubscribe " +
           (fs::path(RETRO_BIN_DIR) / "tbgen").string() + " " + args;
}

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
// Runs tbgen `args` with one process, then on each of `ranks` ranks, and expects the same `files`, and
// lines in the log of the traffic and the peaks of table `last`.
void expect_files_of_one_process(const std::string& args, const std::string& last,
                                 const std::vector<std::string>& files, const std::vector<int>& ranks) {
    const Scratch scratch;
    const fs::path alone = scratch.path / "alone";
    const test::AppOutcome one =
        test::run_app("tbgen", args + " -q --codec zstd --level 1 -t 2 -o " + alone.string(), scratch.path);
    ASSERT_EQ(one.status, 0) << one.err;
    for (const int n : ranks) {
        const fs::path dir = scratch.path / ("ranks" + std::to_string(n)), log = dir.string() + ".out";
        ASSERT_EQ(run_shell(on_ranks(n, args + " -q --codec zstd --level 1 -t 1 -o " + dir.string()), log), 0)
            << store_test::read_bytes(log);
        for (const std::string& file : files)
            EXPECT_EQ(store_test::read_bytes(dir / file), store_test::read_bytes(alone / file))
                << file << " on " << n << " ranks";
        // The log tells the table's traffic and every rank's peak.
        const std::string text = store_test::read_bytes(dir / "tbgen.log");
        const std::regex traffic(
            last + ": " + std::to_string(n) +
            R"( ranks sent (\d+) bytes, [0-9.]+ per entry and side \(rank 0: .*\); ([0-9.]+)% of (\d+) predecessor updates crossed ranks)");
        std::smatch m;
        ASSERT_TRUE(std::regex_search(text, m, traffic)) << text;
        EXPECT_EQ(m.str(1) == "0", n == 1) << m.str(0);  // one rank sends nothing
        EXPECT_EQ(std::stod(m.str(2)) == 0.0, n == 1) << m.str(0);
        EXPECT_GT(std::stoull(m.str(3)), 0u);
        const std::regex peaks(last + ": peak memory by rank 0: [0-9.]+ [KMG]iB" +
                               std::string(n > 1 ? ", 1: " : " \\(estimated"));
        EXPECT_TRUE(std::regex_search(text, peaks)) << text;
    }
}
#endif

}  // namespace

TEST(TbgenMpi, KQvKRAndItsSubTablesOnOneTwoAndThreeRanksAreTheFilesOfOneProcess) {
#ifndef RETRO_MPIEXEC
    GTEST_SKIP() << "tbgen is built without MPI (scripts/setup.sh installs Open MPI)";
#else
    expect_files_of_one_process("KQvKR --wdl", "KQvKR",
                                {"KQvK.rtb", "KRvK.rtb", "KQvKR.rtb", "KQvK.rtw", "KRvK.rtw", "KQvKR.rtw"},
                                {1, 2, 3});
#endif
}

TEST(TbgenMpi, KBNvKOnThreeRanksIsTheFileOfOneProcess) {
#ifndef RETRO_MPIEXEC
    GTEST_SKIP() << "tbgen is built without MPI (scripts/setup.sh installs Open MPI)";
#else
    expect_files_of_one_process("KBNvK", "KBNvK", {"KBvK.rtb", "KNvK.rtb", "KBNvK.rtb"}, {3});
#endif
}

TEST(TbgenMpi, PawnTablesAndCheckpointsAreRefusedOnRanks) {
#ifndef RETRO_MPIEXEC
    GTEST_SKIP() << "tbgen is built without MPI (scripts/setup.sh installs Open MPI)";
#else
    const Scratch scratch;
    const fs::path dir = scratch.path / "pawns", log = scratch.path / "pawns.out";
    EXPECT_EQ(run_shell(on_ranks(2, "KPvK -q -o " + dir.string()), log), 3);
    const std::string said = store_test::read_bytes(log);
    EXPECT_NE(said.find("pawn tables are not yet solved by several ranks (KPvK)"), std::string::npos) << said;
    EXPECT_FALSE(fs::exists(dir / "KPvK.rtb"));
    EXPECT_FALSE(fs::exists(dir / "KQvK.rtb"));  // nothing built before the refusal
    // A checkpoint of a one-process run is not resumed on ranks.
    store_test::write_bytes(dir / "KQvK.checkpoint", "left by a one-process run");
    EXPECT_EQ(run_shell(on_ranks(2, "KQvK -q -o " + dir.string()), log), 3);
    EXPECT_NE(store_test::read_bytes(log).find(
                  "resuming a checkpoint on several ranks is not yet supported (KQvK)"),
              std::string::npos)
        << store_test::read_bytes(log);
#endif
}
