// Running jobs: complete tables are skipped, a stopped job resumes inside a table from its checkpoint
// and ends with the same bytes as an uninterrupted run, tbgen refuses what does not fit.
#include "jobs/runner.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <optional>
#include <regex>
#include <sstream>
#include <thread>

#include "index/dependencies.hpp"
#include "index/pawn_slices.hpp"
#include "jobs/log.hpp"
#include "jobs/plan.hpp"
#include "jobs/table_lock.hpp"
#include "probe/tablebase.hpp"
#include "solve/exit_settled.hpp"
#include "solve/solver.hpp"
#include "store/table_diff.hpp"
#include "store/table_file.hpp"
#include "support/app_run.hpp"
#include "support/solved_tables.hpp"

using namespace retro;
namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

using Outcome = test::AppOutcome;

Outcome tbgen(const std::string& args, const fs::path& scratch) {
    return test::run_app("tbgen", args, scratch);
}

// KPvK: small, yet with sub-tables (its four promotions) read from the directory.
const std::vector<Material> KPK = {Material::parse("KPvK")};
const char* const KPK_SET[] = {"KBvK", "KNvK", "KQvK", "KRvK", "KPvK"};

class JobsRunner : public ::testing::Test {
protected:
    // One uninterrupted run of KPvK and its sub-tables for all the tests to compare with.
    static void SetUpTestSuite() {
        base_ = fs::temp_directory_path() / ("retro_jobs_runner_" + std::to_string(getpid()));
        fs::create_directories(reference());
        const JobResult r = run_job(make_plan(KPK, reference()), {});
        ASSERT_EQ(r.built.size(), 5u);
        ASSERT_FALSE(r.interrupted);
    }
    static void TearDownTestSuite() { fs::remove_all(base_); }
    static fs::path reference() { return base_ / "reference"; }
    static void expect_same_files(const fs::path& dir) {
        for (const char* name : KPK_SET) {
            const auto m = Material::parse(name);
            ASSERT_TRUE(fs::exists(table_path(dir, m))) << name;
            EXPECT_TRUE(slurp(table_path(dir, m)) == slurp(table_path(reference(), m))) << name << " differs";
            EXPECT_FALSE(fs::exists(checkpoint_path(dir, m))) << name << ": checkpoint left behind";
            EXPECT_FALSE(fs::exists(layer_log_path(checkpoint_path(dir, m))))
                << name << ": layer log left behind";
        }
    }
    // A directory holding KPvK's sub-tables, as an earlier job left them (without exact copies).
    static fs::path with_kpk_subtables(const std::string& name) {
        const fs::path dir = base_ / name;
        fs::create_directories(dir);
        for (const char* table : KPK_SET)
            if (std::string(table) != "KPvK")
                fs::copy_file(table_path(reference(), Material::parse(table)),
                              table_path(dir, Material::parse(table)));
        return dir;
    }
    static inline fs::path base_;
};

// Options that stop the job after the tenth of KPvK's 24 slices (only the stop writes a checkpoint).
// KPvK's 24 slices of 3612 entries are solved four at a time, a wave of equal advance each: the stop
// comes after the third wave, before slice 13.
JobOptions stopping_after_slice_12_of_kpvk(std::atomic<bool>& stop) {
    JobOptions options;
    options.stop = &stop;
    options.checkpoint_seconds = 1e9;
    options.solver_line = [&stop](const std::string& line) {
        if (line.starts_with("KPvK slice 12 of 24 done")) stop = true;
    };
    return options;
}

}  // namespace

TEST_F(JobsRunner, CompleteTablesAreSkipped) {
    const JobPlan plan = make_plan(KPK, reference());
    ASSERT_EQ(plan.tables.size(), 5u);
    for (const auto& t : plan.tables) EXPECT_TRUE(t.complete) << t.material.name();
    EXPECT_EQ(plan.to_build(), 0);
    EXPECT_EQ(plan.peak_memory(), 0u);
    const JobResult r = run_job(plan, {});
    EXPECT_TRUE(r.built.empty());
    EXPECT_EQ(r.skipped, 5);

    const Outcome o = tbgen("KPvK -q -o " + reference().string(), base_);
    EXPECT_EQ(o.status, 0) << o.err;
    EXPECT_NE(o.err.find("5 complete (skipped), 0 to build"), std::string::npos) << o.err;
    EXPECT_NE(slurp(reference() / "tbgen.log").find("KPvK: complete, skipped"), std::string::npos);
}

// The estimate counts the completion of the sub-tables read from settled files (complete before the
// job, without a current exact copy), not of those the job builds (read from their copies).
TEST_F(JobsRunner, EstimatesCountTheCompletionOfTheSubTablesWithoutACopy) {
    const Material kpk = Material::parse("KPvK"), kqk = Material::parse("KQvK");
    const uint64_t every = memory_plan(kpk).completing;
    ASSERT_GT(every, 0u);
    EXPECT_EQ(make_plan(KPK, base_ / "none").memory(kpk).completing, 0u);  // all built by the job

    const fs::path dir = with_kpk_subtables("completed");
    JobPlan plan = make_plan(KPK, dir);
    EXPECT_EQ(plan.completed_when_read.size(), 4u);
    EXPECT_EQ(plan.memory(kpk).completing, every);
    const uint64_t disk = plan.disk_needed(FileSize::Expected);  // with the copies of the four
    const Tablebase tables(dir);
    write_table(*tables.find(kqk), exact_copy_path(dir, kqk), exact_copy_options());
    plan = make_plan(KPK, dir);
    EXPECT_FALSE(plan.completed_when_read.contains(kqk));
    EXPECT_EQ(plan.completed_when_read.size(), 3u);
    EXPECT_LE(plan.memory(kpk).completing, every);
    EXPECT_EQ(disk - plan.disk_needed(FileSize::Expected),
              exact_copy_bytes_estimate(kqk, FileSize::Expected));
}

// Those sub-tables are completed before the solve, each once, with a line for each (KPPvKP's took 19
// minutes without a word) and an exact copy that the solve reads, removed when the job ends; the
// table comes out the same.
TEST_F(JobsRunner, SubTablesWithoutACopyAreCompletedFirstOnceWithALineEach) {
    const fs::path dir = with_kpk_subtables("completing");
    std::vector<std::string> lines, notes, reports;
    JobOptions options;
    options.solver_line = [&](const std::string& line) { lines.push_back(line); };
    options.note = [&](const std::string& line) { notes.push_back(line); };
    options.report = [&](const std::string& line) { reports.push_back(line); };
    const JobResult r = run_job(make_plan(KPK, dir), options);
    ASSERT_EQ(r.built.size(), 1u);
    const auto line_at = [&](const std::string& text) {
        return std::find_if(lines.begin(), lines.end(),
                            [&](const std::string& line) { return line.find(text) != std::string::npos; });
    };
    const auto count = [](const std::vector<std::string>& in, const std::string& text) {
        return std::count_if(in.begin(), in.end(),
                             [&](const std::string& line) { return line.find(text) != std::string::npos; });
    };
    const auto completing = line_at("KPvK: completing ");
    ASSERT_NE(completing, lines.end());
    EXPECT_NE(completing->find("4 tables from their sub-tables first, each once"), std::string::npos)
        << *completing;
    EXPECT_NE(completing->find(": KBvK, KNvK, KQvK, KRvK"), std::string::npos) << *completing;
    ASSERT_NE(line_at("KRvK completed from its sub-tables in "), lines.end());
    EXPECT_NE(line_at("KRvK completed from its sub-tables in ")->find(" (4 of 4)"), std::string::npos);
    // The status tells the chain apart from the table's own time, and the table's time leaves it out.
    EXPECT_NE(line_at(" (2 of 4)")->find("| table "), std::string::npos);
    EXPECT_NE(line_at(" (2 of 4)")->find(", completing its sub-tables (2 of 4 done), job "),
              std::string::npos)
        << *line_at(" (2 of 4)");
    EXPECT_EQ(line_at(" slice ")->find("completing its sub-tables"), std::string::npos)
        << *line_at(" slice ");
    EXPECT_EQ(count(reports, "KPvK: its 4 sub-tables completed in "), 1);
    const auto first_slice = line_at("KPvK slice");
    for (const char* sub : {"KBvK", "KNvK", "KQvK", "KRvK"}) {
        const std::string completed = std::string("KPvK: ") + sub + " completed from its sub-tables in ";
        EXPECT_EQ(count(lines, completed), 1) << sub;
        EXPECT_LT(completing, line_at(completed)) << sub;
        EXPECT_LT(line_at(completed), first_slice) << sub;
        EXPECT_EQ(count(notes, std::string(sub) + ": exact copy "), 1) << sub;
        EXPECT_FALSE(fs::exists(exact_copy_path(dir, Material::parse(sub)))) << sub;  // spent
    }
    expect_same_files(dir);
}

// The copies of tables complete before the job stay while any table is left to build, whether it
// reads them directly or not: a later table's completion chain may read them, and a job stopped in
// the middle of a chain keeps what it completed for the rerun.
TEST_F(JobsRunner, CopiesOfTablesCompleteBeforeTheJobStayWhileATableIsLeft) {
    const fs::path dir = with_kpk_subtables("copies-stay");
    const Material kbk = Material::parse("KBvK");
    write_table(*Tablebase(dir).find(kbk), exact_copy_path(dir, kbk), exact_copy_options());
    std::atomic<bool> stop{false};
    JobOptions options;
    options.stop = &stop;
    options.report = [&](const std::string& line) {
        if (line.find("KPvK: done") != std::string::npos) stop = true;  // KQvKR is left
    };
    const JobPlan plan = make_plan({Material::parse("KPvK"), Material::parse("KQvKR")}, dir);
    EXPECT_TRUE(plan.settled_complete.contains(kbk));
    EXPECT_FALSE(plan.completed_when_read.contains(kbk));
    const JobResult r = run_job(plan, options);
    EXPECT_TRUE(r.interrupted);
    ASSERT_EQ(r.built.size(), 1u);
    EXPECT_EQ(r.built[0].material.name(), "KPvK");
    for (const char* name : {"KBvK", "KNvK"})  // KQvKR reads neither
        EXPECT_TRUE(fs::exists(exact_copy_path(dir, Material::parse(name)))) << name;
}

TEST_F(JobsRunner, DamagedOrPartialFilesAreRebuilt) {
    const fs::path dir = base_ / "damaged";
    fs::create_directories(dir);
    for (const auto& e : fs::directory_iterator(reference()))
        if (e.path().extension() == ".rtb") fs::copy_file(e.path(), dir / e.path().filename());
    const auto kqk = table_path(dir, Material::parse("KQvK"));  // third in the order
    fs::resize_file(kqk, fs::file_size(kqk) - 100);             // truncated
    std::ofstream(temporary_path(table_path(dir, Material::parse("KRvK")))) << "partial";  // a killed write
    const JobPlan plan = make_plan(KPK, dir);
    ASSERT_EQ(plan.to_build(), 1);
    EXPECT_FALSE(plan.tables[2].complete);
    const JobResult r = run_job(plan, {});
    ASSERT_EQ(r.built.size(), 1u);
    EXPECT_EQ(r.built[0].material.name(), "KQvK");
    EXPECT_FALSE(fs::exists(temporary_path(table_path(dir, Material::parse("KRvK")))));
    expect_same_files(dir);
}

// Another process holds KBvK's lock: the job builds the tables that do not need it, waits for it,
// takes the other process's file once it appears, and ends with the same files as one job alone.
TEST_F(JobsRunner, WaitsForATableAnotherProcessBuildsAndTakesItsFile) {
    const fs::path dir = base_ / "shared";
    fs::create_directories(dir);
    const Material kbk = Material::parse("KBvK");
    std::optional<TableLock> other(std::in_place, dir, kbk);
    ASSERT_TRUE(other->held());
    std::mutex mutex;
    std::vector<std::string> reports;
    JobOptions options;
    options.report = [&](const std::string& line) {
        const std::lock_guard lock(mutex);
        reports.push_back(line);
    };
    auto reported = [&](const std::string& text) {
        const std::lock_guard lock(mutex);
        return std::any_of(reports.begin(), reports.end(),
                           [&](const std::string& line) { return line.find(text) != std::string::npos; });
    };
    JobResult result;
    std::thread job([&] { result = run_job(make_plan(KPK, dir), options); });
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (!reported("waiting: the tables left need KBvK") && std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_TRUE(reported("waiting: the tables left need KBvK, which another process is building"));
    EXPECT_FALSE(fs::exists(table_path(dir, Material::parse("KPvK"))));  // it needs KBvK
    // The other process's file appears as tbgen writes one: under another name, then renamed.
    const fs::path file = table_path(dir, kbk), tmp = file.string() + ".other";
    fs::copy_file(table_path(reference(), kbk), tmp);
    fs::rename(tmp, file);
    other.reset();
    job.join();
    EXPECT_FALSE(result.interrupted);
    EXPECT_EQ(result.built.size(), 4u);
    EXPECT_EQ(result.built_elsewhere, 1);
    EXPECT_TRUE(reported("KBvK: built by another process"));
    EXPECT_EQ(result.built.back().material.name(), "KPvK");
    expect_same_files(dir);
}

// A stop asked while the job waits for another process ends the wait within a second or so.
TEST_F(JobsRunner, AStopEndsTheWaitForAnotherProcess) {
    const fs::path dir = base_ / "stop-waiting";
    fs::create_directories(dir);
    for (const char* name : {"KNvK", "KQvK", "KRvK"})
        fs::copy_file(table_path(reference(), Material::parse(name)), table_path(dir, Material::parse(name)));
    const TableLock other(dir, Material::parse("KBvK"));
    std::atomic<bool> stop{false};
    JobOptions options;
    options.stop = &stop;
    options.report = [&](const std::string& line) {
        if (line.starts_with("waiting:")) stop = true;
    };
    const auto start = std::chrono::steady_clock::now();
    const JobResult r = run_job(make_plan(KPK, dir), options);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
    EXPECT_TRUE(r.interrupted);
    EXPECT_EQ(r.stopped_at, "waiting for KBvK");
    EXPECT_TRUE(r.built.empty());
}

// A stop asked while a table's sub-tables are read whole (a minute for a large one) stops there;
// the rerun builds the table.
TEST_F(JobsRunner, AStopWhileReadingTheSubTablesStopsThere) {
    const fs::path dir = base_ / "stop-reading";
    fs::create_directories(dir);
    for (const char* name : {"KBvK", "KNvK", "KQvK", "KRvK"})
        fs::copy_file(table_path(reference(), Material::parse(name)), table_path(dir, Material::parse(name)));
    std::atomic<bool> stop{false};
    JobOptions options;
    options.stop = &stop;
    options.report = [&](const std::string& line) {
        if (line.find("KPvK: solving") != std::string::npos) stop = true;  // as its sub-tables load
    };
    const JobResult r = run_job(make_plan(KPK, dir), options);
    EXPECT_TRUE(r.interrupted);
    EXPECT_EQ(r.stopped_at, "KPvK: stopped while reading its sub-tables");
    EXPECT_TRUE(r.built.empty());
    EXPECT_FALSE(fs::exists(table_path(dir, Material::parse("KPvK"))));

    stop = false;
    options.report = {};
    const JobResult rerun = run_job(make_plan(KPK, dir), options);
    EXPECT_FALSE(rerun.interrupted);
    ASSERT_EQ(rerun.built.size(), 1u);
    expect_same_files(dir);
}

// The stopped job keeps the exact copies of the sub-tables for its rerun, which removes them.
TEST_F(JobsRunner, StoppedJobResumesInsideTheTableWithTheSameBytes) {
    const fs::path dir = base_ / "stopped";
    fs::create_directories(dir);
    std::atomic<bool> stop{false};
    JobOptions options = stopping_after_slice_12_of_kpvk(stop);
    const JobResult first = run_job(make_plan(KPK, dir), options);
    EXPECT_TRUE(first.interrupted);
    EXPECT_EQ(first.built.size(), 4u);  // the sub-tables are done
    EXPECT_NE(first.stopped_at.find("KPvK"), std::string::npos) << first.stopped_at;
    const auto checkpoint = checkpoint_path(dir, Material::parse("KPvK"));
    ASSERT_TRUE(fs::exists(checkpoint));
    EXPECT_FALSE(fs::exists(table_path(dir, Material::parse("KPvK"))));
    // Each sub-table KPvK reads whole has an exact copy beside its settled file, the values solved,
    // which KPvK reads instead of completing the file.
    const Tablebase completed(reference());
    for (const char* name : {"KBvK", "KNvK", "KQvK", "KRvK"}) {
        const auto m = Material::parse(name);
        const TableAsStored copy = read_table_as_stored(exact_copy_path(dir, m));
        EXPECT_FALSE(copy.exits_settled) << name;
        EXPECT_TRUE(read_table_as_stored(table_path(dir, m)).exits_settled) << name;
        EXPECT_TRUE(diff_tables(*copy.table, *completed.find(m)).identical()) << name;
    }

    // A stop requested between tables stops before the next one.
    const JobResult none = run_job(make_plan(KPK, dir), options);
    EXPECT_TRUE(none.interrupted);
    EXPECT_TRUE(none.built.empty());

    // Beside the checkpoint, the point it resumes at (slice 13, ply 0) and the seconds spent so far.
    // Pretend they were 1000: the resumed table's time and its line in tbgen.times must count them.
    const fs::path elapsed = checkpoint_seconds_path(checkpoint);
    SolvePoint point = -1;
    double seconds = -1;
    ASSERT_TRUE(std::ifstream(elapsed) >> point >> seconds) << "no " << elapsed;
    EXPECT_EQ(point, SolvePoint(12) << 32);
    EXPECT_GE(seconds, 0);
    std::ofstream(elapsed) << point << " 1000\n";

    stop = false;
    const JobPlan plan = make_plan(KPK, dir);
    ASSERT_EQ(plan.to_build(), 1);
    EXPECT_TRUE(plan.tables.back().has_checkpoint);
    bool resumed = false;
    options.report = [&](const std::string& line) {
        resumed |= line.starts_with("KPvK: resuming from " + checkpoint.string() + " at slice 13, ply 0") &&
                   line.ends_with("(16 min 40 s spent on it before)");
    };
    const JobResult second = run_job(plan, options);
    EXPECT_FALSE(second.interrupted);
    ASSERT_EQ(second.built.size(), 1u);
    EXPECT_TRUE(second.built[0].resumed);
    EXPECT_GE(second.built[0].seconds, 1000);
    EXPECT_TRUE(resumed);
    expect_same_files(dir);
    EXPECT_FALSE(fs::exists(elapsed));
    for (const char* name : KPK_SET)  // the copies go once no table left reads them
        EXPECT_FALSE(fs::exists(exact_copy_path(dir, Material::parse(name)))) << name;
    const std::string times = slurp(dir / "tbgen.times");
    const auto at = times.find("KPvK ");
    ASSERT_NE(at, std::string::npos) << times;
    std::istringstream line(times.substr(at + 5));
    uint64_t entries = 0;
    double recorded = 0;
    line >> entries >> recorded;
    EXPECT_GE(recorded, 1000);
}

TEST_F(JobsRunner, StopWhileWritingLeavesNoFileAndARerunWritesTheSameBytes) {
    // Stopped while compressing, then again once resumed: never a file; the blocks written so far are
    // kept in FILE.tmp for the rerun. The resumed table's slices kept their surveys in the slice
    // store: no search for exits.
    const fs::path dir = base_ / "stopped_writing";
    fs::create_directories(dir);
    const fs::path kpk = table_path(dir, Material::parse("KPvK"));
    std::atomic<bool> stop{false};
    std::vector<std::string> said;
    JobOptions options;
    options.stop = &stop;
    bool stopping = true;
    options.solver_line = [&](const std::string& line) {
        said.push_back(line);
        if (stopping && line.starts_with("KPvK: writing ")) stop = true;
    };
    for (const bool resumed : {false, true}) {
        said.clear();
        const JobResult stopped = run_job(make_plan(KPK, dir), options);
        EXPECT_TRUE(stopped.interrupted) << resumed;
        EXPECT_EQ(stopped.stopped_at, "writing KPvK");
        EXPECT_EQ(stopped.built.size(), resumed ? 0u : 4u);  // the sub-tables first
        EXPECT_FALSE(fs::exists(kpk)) << resumed;
        EXPECT_TRUE(fs::exists(temporary_path(kpk))) << resumed;
        EXPECT_FALSE(fs::exists(layer_log_path(checkpoint_path(dir, Material::parse("KPvK"))))) << resumed;
        const bool searched = std::ranges::any_of(
            said, [](const std::string& line) { return line.starts_with("KPvK: settling values by exits"); });
        EXPECT_FALSE(searched) << resumed;
        stop = false;
    }
    stopping = false;
    const JobResult second = run_job(make_plan(KPK, dir), options);
    EXPECT_FALSE(second.interrupted);
    EXPECT_EQ(second.built.size(), 1u);
    expect_same_files(dir);
    EXPECT_FALSE(fs::exists(temporary_path(kpk)));
    EXPECT_FALSE(fs::exists(write_journal_path(kpk)));
}

TEST_F(JobsRunner, ARerunGoesOnFromTheBlocksOfAKilledWrite) {
    const fs::path dir = base_ / "killed_writing";
    fs::create_directories(dir);
    JobOptions options;
    JobSettings settings;
    settings.write.block_entries = 1 << 10;  // KPvK in some 200 blocks
    ASSERT_FALSE(run_job(make_plan(KPK, dir, settings), options).interrupted);
    const fs::path kpk = table_path(dir, Material::parse("KPvK"));
    const std::string whole = slurp(kpk);
    const auto table = Tablebase(dir).find(Material::parse("KPvK"));
    fs::remove(kpk);

    // What a kill right after block 10 leaves: FILE.tmp and its journal (copied then, since the stop
    // that follows keeps a few more blocks).
    const fs::path tmp = temporary_path(kpk), journal = write_journal_path(kpk);
    std::atomic<bool> stop{false};
    WriteOptions killed = settings.write;
    killed.control.stop = &stop;
    killed.sync_seconds = 0;
    killed.control.progress = [&](Control::Count count, uint64_t done, uint64_t) {
        if (count != Control::Count::BlocksWritten || done != 10) return;
        fs::copy_file(tmp, dir / "saved.tmp");
        fs::copy_file(journal, dir / "saved.journal");
        stop = true;
    };
    EXPECT_THROW(write_settled_table(*table, kpk, killed, Tablebase(dir)), Stopped);
    fs::rename(dir / "saved.tmp", tmp);
    fs::rename(dir / "saved.journal", journal);

    std::vector<std::string> lines;
    options.solver_line = [&](const std::string& line) { lines.push_back(line); };
    const JobResult rerun = run_job(make_plan(KPK, dir, settings), options);
    EXPECT_EQ(rerun.built.size(), 1u);
    EXPECT_TRUE(std::any_of(lines.begin(), lines.end(), [](const std::string& line) {
        return line.find("going on after the 10 that an interrupted write left") != std::string::npos;
    }));
    EXPECT_TRUE(slurp(kpk) == whole);
    EXPECT_FALSE(fs::exists(tmp));
    EXPECT_FALSE(fs::exists(journal));
}

TEST_F(JobsRunner, CountsTheStatisticsOfTheTablesNamedWhileItHoldsThem) {
    const fs::path dir = base_ / "statistics";
    fs::create_directories(dir);
    JobOptions options;
    options.statistics_of = {Material::parse("KPvK")};
    const JobResult r = run_job(make_plan(KPK, dir), options);
    ASSERT_EQ(r.built.size(), 5u);
    for (const BuiltTable& b : r.built) {
        ASSERT_EQ(b.statistics.has_value(), b.material == Material::parse("KPvK")) << b.material.name();
        if (!b.statistics) continue;
        // The same as counted over the file, as tbgen did before; the oracle says mate in 28.
        EXPECT_EQ(format_text(*b.statistics),
                  format_text(compute_statistics(*Tablebase(dir).find(b.material))));
        EXPECT_EQ(b.statistics->side[WHITE].longest_win(), 55);
    }
}

TEST_F(JobsRunner, StopWhileVerifyingKeepsTheCompleteFile) {
    const fs::path dir = base_ / "stopped_verifying";
    fs::create_directories(dir);
    std::atomic<bool> stop{false};
    JobOptions options;
    options.stop = &stop;
    options.verify = true;
    options.solver_line = [&](const std::string& line) {
        stop = stop || line.starts_with("KPvK: verifying by forward moves");
    };
    std::string stopped_line;
    options.report = [&](const std::string& line) {
        if (line.starts_with("KPvK: verification stopped after ")) stopped_line = line;
    };
    const JobResult r = run_job(make_plan(KPK, dir), options);
    EXPECT_TRUE(r.interrupted);
    EXPECT_EQ(r.stopped_at, "verifying KPvK");
    EXPECT_EQ(r.built.size(), 5u);
    EXPECT_NE(stopped_line.find("tbgen --verify"), std::string::npos) << stopped_line;
    expect_same_files(dir);
}

TEST_F(JobsRunner, AResumedTableWithoutItsEarlierTimeIsNotTimed) {
    // A checkpoint whose time file is of another ply (or missing): the table's time would be only
    // its last part, so tbgen.times gets no line for it.
    const fs::path dir = base_ / "untimed";
    fs::create_directories(dir);
    std::atomic<bool> stop{false};
    JobOptions options = stopping_after_slice_12_of_kpvk(stop);
    ASSERT_TRUE(run_job(make_plan(KPK, dir), options).interrupted);
    const fs::path elapsed = checkpoint_seconds_path(checkpoint_path(dir, Material::parse("KPvK")));
    ASSERT_TRUE(fs::exists(elapsed));
    std::ofstream(elapsed) << "1 1000\n";  // slice 1, ply 1: no checkpoint of this table stops there
    stop = false;
    const JobResult second = run_job(make_plan(KPK, dir), options);
    ASSERT_EQ(second.built.size(), 1u);
    EXPECT_TRUE(second.built[0].resumed);
    EXPECT_LT(second.built[0].seconds, 1000);
    EXPECT_EQ(slurp(dir / "tbgen.times").find("KPvK "), std::string::npos);
}

TEST_F(JobsRunner, StatusFollowsEveryLineOfTheTablesBuilt) {
    const fs::path dir = base_ / "status";
    fs::create_directories(dir);
    fs::copy_file(table_path(reference(), Material::parse("KBvK")), table_path(dir, Material::parse("KBvK")));
    std::vector<JobStatus> seen;
    std::vector<std::string> lines;
    JobOptions options;
    options.report = [&](const std::string& line) { lines.push_back(line); };
    options.solver_line = [&](const std::string& line) { lines.push_back(line); };
    options.status = [&](const JobStatus& s) { seen.push_back(s); };
    const JobPlan plan = make_plan(KPK, dir);
    const JobResult r = run_job(plan, options);
    ASSERT_EQ(r.built.size(), 4u);  // KBvK was there already
    ASSERT_EQ(seen.size(), lines.size());
    int table = 1;
    double fraction = 0;
    for (size_t i = 0; i < seen.size(); ++i) {
        const JobStatus& s = seen[i];
        EXPECT_EQ(s.message, lines[i]);
        EXPECT_EQ(s.tables, 4);
        ASSERT_TRUE(s.table == table || s.table == table + 1) << s.message;
        table = s.table;
        EXPECT_EQ(s.material, r.built[size_t(table - 1)].material) << s.message;
        EXPECT_GE(s.fraction, fraction) << s.message;
        fraction = s.fraction;
    }
    EXPECT_EQ(seen.front().message.rfind("[1/4] KNvK: solving", 0), 0u) << seen.front().message;
    EXPECT_EQ(seen.front().fraction, 0);
    EXPECT_EQ(seen.back().table, 4);
    EXPECT_EQ(seen.back().material.name(), "KPvK");
    EXPECT_EQ(seen.back().fraction, 1);
    EXPECT_EQ(seen.back().message.rfind("KPvK: done", 0), 0u) << seen.back().message;
    // Each table's own peak against its estimate: a few MiB of the process, KPvK's 0.2 MiB of tables,
    // the codecs of the job's threads.
    const std::string estimated = format_bytes(plan.memory(Material::parse("KPvK")).peak());
    const std::regex peak("^KPvK: done; peak memory [0-9.]+ MiB \\(estimated " + estimated +
                          "\\); job 100.0%");
    EXPECT_TRUE(std::regex_search(seen.back().message, peak)) << seen.back().message;
}

TEST(JobsSolver, CheckpointEveryPlyResumesToTheSameTable) {
    // The solver alone, checkpointing after every ply (checkpoint_seconds = 0), stopped and resumed.
    const Tablebase tables;  // KRvK needs no sub-table
    const Material m = Material::parse("KRvK");
    const fs::path checkpoint =
        fs::temp_directory_path() / ("retro_jobs_" + std::to_string(getpid()) + ".checkpoint");
    std::atomic<bool> stop{false};
    LineStream progress([&](const std::string& line) {
        if (line.find(" in 9:") != std::string::npos) stop = true;
    });
    SolveOptions options;
    options.control.lines = &progress;
    options.checkpoint = checkpoint;
    options.checkpoint_seconds = 0;
    options.control.stop = &stop;
    EXPECT_THROW(solve_in_memory(m, tables, options), Stopped);
    ASSERT_TRUE(fs::exists(checkpoint));
    stop = false;
    const auto resumed = solve_in_memory(m, tables, options);
    EXPECT_FALSE(fs::exists(temporary_path(checkpoint)));
    fs::remove(checkpoint);
    fs::remove(layer_log_path(checkpoint));
    const auto whole = solve_in_memory(m, tables);
    EXPECT_TRUE(*resumed == *whole);
}

// A pawn table solved with a checkpoint after every ply or batch of slices (checkpoint_seconds = 0),
// stopped at the checkpoint `stop_at` and resumed; expects the resumed solve to start from the last
// checkpoint before the stop and to give the table of a solve without stops. Returns the checkpoints
// written before the stop.
std::vector<SolvePoint> stopped_and_resumed(const std::string& name, SolvePoint stop_at, uint64_t waves_below,
                                            const std::string& tag) {
    const Material m = Material::parse(name);
    std::vector<std::string> subs;
    for (const Material& sub : direct_subtables(m)) subs.push_back(sub.name());
    const Tablebase& tables = retro::test::solved_tables(subs);
    const fs::path checkpoint =
        fs::temp_directory_path() / ("retro_jobs_" + tag + "_" + std::to_string(getpid()) + ".checkpoint");
    std::atomic<bool> stop{false};
    std::vector<SolvePoint> points;
    SolveOptions options;
    options.checkpoint = checkpoint;
    options.checkpoint_seconds = 0;
    options.control.stop = &stop;
    options.waves_below = waves_below;
    options.checkpoint_written = [&](SolvePoint p) {
        points.push_back(p);
        if (p == stop_at) stop = true;
    };
    EXPECT_THROW(solve_in_memory(m, tables, options), Stopped);
    const std::vector<SolvePoint> before_stop = points;
    std::optional<SolvePoint> resumed_at;
    options.checkpoint_found = [&](std::optional<SolvePoint> at, const std::string&) { resumed_at = at; };
    stop = false;
    const auto resumed = solve_in_memory(m, tables, options);
    EXPECT_TRUE(!before_stop.empty() && resumed_at == before_stop.back());
    for (const fs::path& p : {checkpoint, layer_log_path(checkpoint), slice_store_path(checkpoint)})
        fs::remove(p);
    EXPECT_TRUE(*resumed == *solve_in_memory(m, tables));
    return before_stop;
}

TEST(JobsSolver, CheckpointEveryPlyOfASliceResumesToTheSameTable) {
    // A pawn table stopped inside a slice (KRPvK's sixth, at its third ply, its slices of 224 K
    // entries solved one at a time) and resumed there, from the slice's state and layer log and the
    // five slices before it in the slice store.
    const std::vector<SolvePoint> points =
        stopped_and_resumed("KRPvK", (SolvePoint(5) << 32) + 3, 1 << 17, "slice");
    ASSERT_FALSE(points.empty());
    EXPECT_EQ(points.back(), (SolvePoint(5) << 32) + 4);  // the stop's own checkpoint, after ply 3
}

TEST(JobsSolver, AWaveCheckpointsBetweenItsBatchesAndResumesThere) {
    // KPvK's 24 slices (3612 entries) are solved in waves of four (the pawn's files a-d on one rank),
    // a batch each: checkpoints fall between the batches, none inside a slice, and a stop after the
    // second batch resumes at the ninth slice. (KRPvK's, of 224 K entries, are solved so too, but
    // take 7 minutes under ThreadSanitizer where KPvK's take seconds.)
    ASSERT_TRUE(solved_in_waves(Material::parse("KPvK")));
    const SolvePoint ninth_slice = SolvePoint(8) << 32;
    const std::vector<SolvePoint> points =
        stopped_and_resumed("KPvK", ninth_slice, WAVE_SLICE_ENTRIES, "wave");
    ASSERT_GE(points.size(), 2u);
    EXPECT_EQ(points.front(), SolvePoint(4) << 32);
    EXPECT_EQ(points.back(), ninth_slice);
    for (const SolvePoint p : points) EXPECT_EQ(p & 0xffffffffu, 0u) << "a checkpoint inside a slice";
}

TEST(JobsSolver, StopDuringTheFirstPassDropsItWithoutACheckpoint) {
    const Tablebase tables;
    const fs::path checkpoint =
        fs::temp_directory_path() / ("retro_jobs_first_" + std::to_string(getpid()) + ".checkpoint");
    const std::atomic<bool> stop{true};  // asked before the first pass has done anything
    SolveOptions options;
    options.checkpoint = checkpoint;
    options.control.stop = &stop;
    try {
        solve_in_memory(Material::parse("KRvK"), tables, options);
        FAIL() << "the solve was not stopped";
    } catch (const Stopped& e) {
        EXPECT_NE(std::string(e.what()).find("first pass"), std::string::npos) << e.what();
    }
    EXPECT_FALSE(fs::exists(checkpoint));
    EXPECT_FALSE(fs::exists(layer_log_path(checkpoint)));
}

class JobsTbgen : public ::testing::Test {
protected:
    void SetUp() override {
        base_ = fs::temp_directory_path() / ("retro_jobs_tbgen_" + std::to_string(getpid()));
        fs::create_directories(base_);
    }
    void TearDown() override { fs::remove_all(base_); }
    fs::path base_;
};

TEST_F(JobsTbgen, RefusesAJobOverTheMemoryLimitBeforeWriting) {
    const fs::path dir = base_ / "refused";
    const Outcome o = tbgen("--all 4 --memory-limit 1M -q -o " + dir.string(), base_);
    EXPECT_EQ(o.status, 3) << o.err;
    EXPECT_NE(o.err.find("refused"), std::string::npos) << o.err;
    EXPECT_NE(o.err.find("memory"), std::string::npos) << o.err;
    for (const auto& e : fs::directory_iterator(dir)) EXPECT_NE(e.path().extension(), ".rtb") << e.path();
}

TEST_F(JobsTbgen, NamesAnUnusableOutputDirectory) {
    std::ofstream(base_ / "a-file") << "x";
    const Outcome o = tbgen("KQvK -q -o " + (base_ / "a-file" / "tables").string(), base_);
    EXPECT_EQ(o.status, 1) << o.err;
    EXPECT_NE(o.err.find("output directory"), std::string::npos) << o.err;
}

TEST_F(JobsTbgen, TableLocksAreOnePerTableAndDieWithTheirProcess) {
    const Material kqk = Material::parse("KQvK"), krk = Material::parse("KRvK");
    EXPECT_NE(table_lock_byte(kqk), table_lock_byte(krk));
    EXPECT_NE(table_lock_byte(kqk), table_lock_byte(kqk.color_swapped()));
    EXPECT_NE(table_lock_byte(Material::parse("KRRvKQ")), table_lock_byte(Material::parse("KRQvKR")));
    {
        const TableLock first(base_, kqk);
        ASSERT_TRUE(first.held());
        EXPECT_FALSE(TableLock(base_, kqk).held());  // another holder, even in the same process
        EXPECT_TRUE(TableLock(base_, krk).held());
        EXPECT_TRUE(table_locked_elsewhere(base_, kqk));  // looked at without taking it
        EXPECT_FALSE(table_locked_elsewhere(base_, krk));
    }
    EXPECT_TRUE(TableLock(base_, kqk).held());  // freed with its holder
    EXPECT_FALSE(table_locked_elsewhere(base_, kqk));

    // Held by another process until it dies by SIGKILL: then the kernel frees it.
    int ready[2];
    ASSERT_EQ(pipe(ready), 0);
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        const TableLock lock(base_, kqk);
        const char held = lock.held() ? 'y' : 'n';
        if (write(ready[1], &held, 1) != 1) _exit(1);
        pause();
        _exit(0);
    }
    char held = 0;
    ASSERT_EQ(read(ready[0], &held, 1), 1);
    EXPECT_EQ(held, 'y');
    EXPECT_FALSE(TableLock(base_, kqk).held());
    EXPECT_TRUE(table_locked_elsewhere(base_, kqk));
    kill(child, SIGKILL);
    int status = 0;
    waitpid(child, &status, 0);
    EXPECT_TRUE(WIFSIGNALED(status));
    EXPECT_TRUE(TableLock(base_, kqk).held());
    close(ready[0]);
    close(ready[1]);
}
