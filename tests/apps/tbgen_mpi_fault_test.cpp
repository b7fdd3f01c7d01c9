// tbgen under mpirun when a rank dies or the job is signalled in the middle of a table's plies: every
// rank ends within seconds, the output names the cause, no file of the table is under its final
// name, and the same command on as many ranks resumes the ranks' checkpoints and gives the file of
// one process. Run as root with oversubscription, as CI does.
#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <thread>

#include "support/app_run.hpp"
#include "support/mpi_run.hpp"
#include "support/store_test_util.hpp"

using namespace retro;
namespace fs = std::filesystem;

namespace {

#ifdef RETRO_MPIEXEC
// A 4-man table of 81 plies (its longest loss is in 80), seconds on 2 ranks. Its sub-tables are in
// place, so that the job on ranks solves this table alone.
const std::string TABLE = "KRvKN";
const std::string ARGS = TABLE + " -q --codec zstd --level 1 -t 1";
// Generous: the job ends in about a second, and this bound only keeps a hang from stalling the suite.
constexpr int SECONDS_TO_END = 60;

// The files of one process, solved once for the suite: the table and its sub-tables.
class TbgenMpiFault : public testing::Test {
protected:
    static fs::path base() {
        return fs::temp_directory_path() / ("retro_mpi_fault_" + std::to_string(getpid()));
    }
    static fs::path alone() { return base() / "alone"; }

    static void SetUpTestSuite() {
        fs::remove_all(base());
        fs::create_directories(base());
        const test::AppOutcome one = test::run_app("tbgen", ARGS + " -o " + alone().string(), base());
        ASSERT_EQ(one.status, 0) << one.err;
    }
    static void TearDownTestSuite() { fs::remove_all(base()); }

    // A directory holding the sub-tables of one process (and their exact copies), not the table.
    static fs::path with_sub_tables(const std::string& name) {
        const fs::path dir = base() / name;
        fs::create_directories(dir);
        for (const auto& e : fs::directory_iterator(alone())) {
            const std::string file = e.path().filename().string();
            if (file.starts_with(TABLE + ".") || file.starts_with("tbgen.")) continue;
            fs::copy_file(e.path(), dir / file);
        }
        return dir;
    }
};

// Waits until the log of the job on `dir` holds `line`; false, with a failure, when mpirun `job` ends
// before or the line does not come in a minute.
bool logged(const fs::path& dir, pid_t job, const std::string& line) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::minutes(1);
    for (;;) {
        const std::string log = store_test::read_bytes(dir / "tbgen.log");
        if (log.find(line) != std::string::npos) return true;
        if (std::chrono::steady_clock::now() > until || waitpid(job, nullptr, WNOHANG) != 0) {
            kill(job, SIGKILL);
            waitpid(job, nullptr, 0);
            ADD_FAILURE() << "no line '" << line << "' in the log:\n" << log;
            return false;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
}

// The process ids of the two ranks, once the log names them; empty, with a failure, when it does not.
std::vector<pid_t> ranks_of(const fs::path& dir, pid_t job) {
    if (!logged(dir, job, "ranks 0: pid")) return {};
    const std::string log = store_test::read_bytes(dir / "tbgen.log");
    std::smatch ranks;
    if (!std::regex_search(log, ranks, std::regex(R"(ranks 0: pid (\d+) on [^,]+, 1: pid (\d+) on )"))) {
        ADD_FAILURE() << "no pids in the ranks' line:\n" << log;
        return {};
    }
    return {pid_t(std::stol(ranks.str(1))), pid_t(std::stol(ranks.str(2)))};
}

// The process ids of the ranks, rank 1 stopped (SIGSTOP) as soon as the log holds `line`, so the
// table cannot end before the fault comes (on a quiet machine it takes a fraction of a second): rank 0
// goes on alone to the next collective step, where it waits. Empty, with a failure, when the line does
// not come.
std::vector<pid_t> ranks_stopped_at(const fs::path& dir, pid_t job, const std::string& line) {
    const std::vector<pid_t> pids = ranks_of(dir, job);
    if (pids.empty() || !logged(dir, job, line)) return {};
    EXPECT_EQ(kill(pids[1], SIGSTOP), 0);
    return pids;
}

// Whether rank `pid` still runs (a zombie left to a container's init does not).
bool runs(pid_t pid) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string id, name, state;
    return stat >> id >> name >> state && state != "Z";
}

// The signals pending for `pid` (its process's and its threads'), as a mask of bit (signal - 1).
uint64_t pending_signals(pid_t pid) {
    std::ifstream status("/proc/" + std::to_string(pid) + "/status");
    uint64_t pending = 0;
    for (std::string line; std::getline(status, line);)
        if (line.starts_with("SigPnd:") || line.starts_with("ShdPnd:"))
            pending |= std::stoull(line.substr(line.find(':') + 1), nullptr, 16);
    return pending;
}

// Keeps stopped rank `pid` stopped until a SIGINT or SIGTERM is pending for it (or it has ended), then
// wakes it; false when neither comes within SECONDS_TO_END. Signalled, mpirun wakes the ranks (SIGCONT)
// before it ends them: woken at once, the ranks of a fast machine could end the table first.
bool held_until_terminated(pid_t pid) {
    const uint64_t terminating = (uint64_t(1) << (SIGINT - 1)) | (uint64_t(1) << (SIGTERM - 1));
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(SECONDS_TO_END);
    bool ending = false;
    while (!ending && std::chrono::steady_clock::now() < until) {
        kill(pid, SIGSTOP);
        ending = !runs(pid) || (pending_signals(pid) & terminating);
        if (!ending) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    kill(pid, SIGCONT);
    return ending;
}

// Whether `pid` ended within SECONDS_TO_END; it is killed when it did not, so that it cannot outlive
// the suite. A rank killed by mpirun may still be tearing down its memory when mpirun has ended.
bool ends(pid_t pid) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(SECONDS_TO_END);
    while (runs(pid)) {
        if (std::chrono::steady_clock::now() > until) {
            kill(pid, SIGKILL);
            return false;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return true;
}

// What a job that ended in the middle of `table` leaves: every rank gone, no file of the table.
void expect_ended_in_the_table(const fs::path& dir, const std::vector<pid_t>& ranks,
                               const std::string& table = TABLE) {
    for (const pid_t pid : ranks)
        EXPECT_TRUE(ends(pid)) << "rank with pid " << pid << " ran " << SECONDS_TO_END << " s after mpirun";
    EXPECT_FALSE(fs::exists(dir / (table + ".rtb")));
}

// Kills rank 1 of a job on 2 ranks that checkpoints every ply (`table` solved with `args` into `dir`)
// once its log holds `line`: every rank ends within SECONDS_TO_END, and mpirun names the rank and the
// signal. Then the ranks' checkpoints are refused by another number of ranks, with the number needed,
// and 2 ranks resume them and write the file in `expected`, leaving nothing of the solve behind.
void expect_resumed_after_a_kill(const std::string& table, const std::string& args, const fs::path& dir,
                                 const std::string& line, const fs::path& expected) {
    const std::string with_checkpoints = args + " --checkpoint-minutes 0 -o " + dir.string();
    const fs::path out = dir.string() + ".out";
    const pid_t job = test::start_shell(test::on_ranks(2, with_checkpoints), out);
    ASSERT_GT(job, 0);
    const std::vector<pid_t> ranks = ranks_stopped_at(dir, job, line);
    ASSERT_EQ(ranks.size(), 2u);
    ASSERT_EQ(kill(ranks[1], SIGKILL), 0);
    const int status = test::wait_for(job, SECONDS_TO_END);
    EXPECT_NE(status, -1) << "mpirun still ran " << SECONDS_TO_END << " s after rank 1 was killed";
    EXPECT_NE(status, 0);
    expect_ended_in_the_table(dir, ranks, table);
    // The stopped rank 1 died before the table's plies were over: no traffic line.
    EXPECT_EQ(store_test::read_bytes(dir / "tbgen.log").find(table + ": 2 ranks sent"), std::string::npos);
    // mpirun names the rank and the signal. (Rank 0, ended by mpirun's SIGTERM, also says what a rerun
    // does, unless mpirun's grace of a second before SIGKILL passes first on a loaded machine.)
    const std::string said = store_test::read_bytes(out);
    EXPECT_TRUE(std::regex_search(said, std::regex(R"(rank 1 .*exited on signal 9)"))) << said;
    for (const std::string& checkpoint : {table + ".checkpoint", table + ".rank1.checkpoint"})
        EXPECT_TRUE(fs::exists(dir / checkpoint) || fs::exists(dir / (checkpoint + ".next"))) << checkpoint;

    const std::string needed = "was written by 2 ranks, and only as many resume it: run under mpirun -np 2";
    const fs::path three = dir.string() + ".three";
    EXPECT_GT(test::wait_for(test::start_shell(test::on_ranks(3, with_checkpoints), three), SECONDS_TO_END),
              0);
    EXPECT_NE(store_test::read_bytes(three).find(needed), std::string::npos) << store_test::read_bytes(three);
    const test::AppOutcome alone = test::run_app("tbgen", with_checkpoints, dir.parent_path());
    EXPECT_EQ(alone.status, 3);
    EXPECT_NE(alone.err.find(needed), std::string::npos) << alone.err;

    const fs::path rerun = dir.string() + ".rerun";
    ASSERT_EQ(test::wait_for(test::start_shell(test::on_ranks(2, with_checkpoints), rerun), 600), 0)
        << store_test::read_bytes(rerun);
    const std::string log = store_test::read_bytes(dir / "tbgen.log");
    EXPECT_TRUE(std::regex_search(
        log, std::regex(table + ": resuming from .*" + table + R"(\.checkpoint at .*ply \d+ on 2 ranks)")))
        << log;
    EXPECT_TRUE(store_test::read_bytes(dir / (table + ".rtb")) ==
                store_test::read_bytes(expected / (table + ".rtb")))
        << "the resumed file differs from one process's";
    for (const auto& e : fs::directory_iterator(dir)) {
        const std::string name = e.path().filename().string();
        for (const char* part : {".checkpoint", ".layers", ".slices", ".tmp", ".journal"})
            EXPECT_EQ(name.find(part), std::string::npos) << name << " left behind";
    }
}
#endif

}  // namespace

#ifndef RETRO_MPIEXEC
TEST(TbgenMpiFault, NeedsMpi) {
    GTEST_SKIP() << "tbgen is built without MPI (scripts/setup.sh installs Open MPI)";
}
#else
TEST_F(TbgenMpiFault, ARankKilledInTheMiddleOfATableEndsTheJobAndAsManyRanksResumeIt) {
    expect_resumed_after_a_kill(TABLE, ARGS, with_sub_tables("killed"), TABLE + ": won in 11:", alone());
}

// A pawn table's small slices, dealt to the ranks in batches, a checkpoint after each.
TEST_F(TbgenMpiFault, APawnTableKilledInItsSlicesIsResumedByAsManyRanks) {
    const std::string args = "KPvK -q --codec zstd --level 1 -t 1";
    const fs::path one = base() / "pawns-alone", dir = base() / "pawns";
    ASSERT_EQ(test::run_app("tbgen", args + " -o " + one.string(), base()).status, 0);
    fs::create_directories(dir);
    for (const auto& e : fs::directory_iterator(one))
        if (!e.path().filename().string().starts_with("KPvK.") && e.path().filename() != "tbgen.log")
            fs::copy_file(e.path(), dir / e.path().filename());
    expect_resumed_after_a_kill("KPvK", args, dir, "KPvK slice 8 of 24 done", one);
}

TEST_F(TbgenMpiFault, SigintAndSigtermToMpirunEndEveryRank) {
    for (const int sig : {SIGINT, SIGTERM}) {
        const std::string name = "signal" + std::to_string(sig);
        const fs::path dir = with_sub_tables(name), out = base() / (name + ".out");
        const pid_t job = test::start_shell(test::on_ranks(2, ARGS + " -o " + dir.string()), out);
        ASSERT_GT(job, 0);
        const std::vector<pid_t> ranks = ranks_stopped_at(dir, job, TABLE + ": solving");
        ASSERT_EQ(ranks.size(), 2u);
        ASSERT_EQ(kill(job, sig), 0);
        EXPECT_TRUE(held_until_terminated(ranks[1])) << "no SIGTERM from mpirun after signal " << sig;
        const int status = test::wait_for(job, SECONDS_TO_END);
        EXPECT_NE(status, -1) << "mpirun still ran " << SECONDS_TO_END << " s after signal " << sig;
        EXPECT_NE(status, 0);
        expect_ended_in_the_table(dir, ranks);
    }
}
#endif
