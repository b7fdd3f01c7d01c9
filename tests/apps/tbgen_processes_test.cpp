// Several tbgen processes building one directory: they split the work, one killed by SIGKILL loses
// only its table in progress, and the files are byte-identical to those of one process alone, whose
// tables each stay within their memory estimate.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <regex>
#include <thread>

#include "support/app_run.hpp"
#include "support/store_test_util.hpp"

using namespace retro;
namespace fs = std::filesystem;

namespace {

// Three 4-man pawn tables and their sub-tables: 17 tables, the same checks as the whole 4-man set
// would give in a fraction of its time. zstd at level 1 writes them in seconds where xz takes a
// minute; the bytes are as reproducible.
const std::string SET = "KRPvK KBPvK KNPvK -q --codec zstd --level 1";
constexpr int TABLES = 17;

int count_matches(const std::string& text, const std::regex& pattern) {
    return int(
        std::distance(std::sregex_iterator(text.begin(), text.end(), pattern), std::sregex_iterator()));
}

}  // namespace

TEST(TbgenProcesses, TwoShareAJobAndOneKilledLosesOnlyItsTable) {
    const fs::path base = fs::temp_directory_path() / ("retro_processes_" + std::to_string(getpid()));
    fs::remove_all(base);
    fs::create_directories(base);
    const fs::path alone = base / "alone", shared = base / "shared";
    const test::AppOutcome one = test::run_app("tbgen", SET + " -t 2 -o " + alone.string(), base);
    ASSERT_EQ(one.status, 0) << one.err;
    // Each table's measured peak holds to its estimate, up to the few MiB the process varies by: a
    // buffer that the estimate leaves out (such as one per slice of a pawn table) shows here.
    const std::string alone_log = store_test::read_bytes(alone / "tbgen.log");
    const std::regex peak(R"((\w+): done; peak memory ([0-9.]+) MiB \(estimated ([0-9.]+) MiB\))");
    int peaks = 0;
    for (std::sregex_iterator it(alone_log.begin(), alone_log.end(), peak), end; it != end; ++it, ++peaks)
        EXPECT_LE(std::stod(it->str(2)), 1.1 * std::stod(it->str(3)) + 16) << it->str(0);
    EXPECT_EQ(peaks, TABLES) << alone_log;

    // Checkpoints every 0.6 s, so that the killed table has one to resume from.
    const std::string shared_args = SET + " -t 1 --checkpoint-minutes 0.01 -o " + shared.string();
    const fs::path log_a = base / "a.log", log_b = base / "b.log";
    const pid_t a = test::start_app("tbgen", shared_args, log_a);
    const pid_t b = test::start_app("tbgen", shared_args, log_b);
    ASSERT_GT(a, 0);
    ASSERT_GT(b, 0);
    // Kill A 0.3 s into its first 4-man pawn table (seconds of solving at one thread, on any machine).
    const std::regex pawn_table_started(
        R"(\] (K[QRBNP]*P[QRBNP]*vK[QRBNP]*|K[QRBNP]*vK[QRBNP]*P[QRBNP]*): solving)");
    std::smatch started;
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(300);
    std::string a_text;
    while (std::chrono::steady_clock::now() < until) {
        a_text = store_test::read_bytes(log_a);
        for (std::sregex_iterator it(a_text.begin(), a_text.end(), pawn_table_started), end; it != end; ++it)
            if (it->str(1).size() == 4 + 1) started = *it;  // 4 men and the 'v'
        if (!started.empty() || waitpid(a, nullptr, WNOHANG) != 0) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    ASSERT_FALSE(started.empty()) << "A never started a 4-man pawn table:\n" << a_text;
    const std::string killed_table = started.str(1);
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    ASSERT_EQ(kill(a, SIGKILL), 0);
    EXPECT_EQ(test::wait_for(a, 10), 128 + SIGKILL);
    EXPECT_FALSE(fs::exists(shared / (killed_table + ".rtb"))) << killed_table << " was done before the kill";

    // B builds the rest, A's table too, and ends when the set is complete.
    ASSERT_EQ(test::wait_for(b, 600), 0) << store_test::read_bytes(log_b);
    const std::string b_text = store_test::read_bytes(log_b);
    a_text = store_test::read_bytes(log_a);
    const int done_by_a = count_matches(a_text, std::regex(": done;"));
    const int done_by_b = count_matches(b_text, std::regex(": done;"));
    EXPECT_GT(done_by_a, 0) << a_text;
    const int seen_by_b = count_matches(b_text, std::regex("built by another process"));
    EXPECT_GT(seen_by_b, 0) << b_text;
    EXPECT_LE(seen_by_b, done_by_a) << b_text;  // tables A finished before B's plan are skipped
    EXPECT_EQ(done_by_a + done_by_b, TABLES) << "a table built twice, or not at all";
    EXPECT_NE(b_text.find("] " + killed_table + ": solving"), std::string::npos) << b_text;

    int files = 0;
    for (const auto& e : fs::directory_iterator(alone)) {
        if (e.path().extension() != ".rtb") continue;
        ++files;
        EXPECT_TRUE(store_test::read_bytes(e.path()) == store_test::read_bytes(shared / e.path().filename()))
            << e.path().filename() << " differs from one process's";
    }
    EXPECT_EQ(files, TABLES);
    for (const auto& e : fs::directory_iterator(shared)) {
        const std::string name = e.path().filename().string();
        EXPECT_EQ(name.find(".checkpoint"), std::string::npos) << name << " left behind";
        EXPECT_EQ(name.find(".tmp"), std::string::npos) << name << " left behind";
        EXPECT_EQ(name.find(".layers"), std::string::npos) << name << " left behind";
    }
    fs::remove_all(base);
}
