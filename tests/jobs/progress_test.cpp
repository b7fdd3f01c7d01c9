// Progress and ETA of a job, with a fake clock; the log's line stream; the stop signals.
#include "jobs/progress.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <csignal>
#include <fstream>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "jobs/log.hpp"
#include "jobs/signals.hpp"

using namespace retro;
using namespace std::chrono_literals;

TEST(JobsProgress, EtaFromTheRatesSoFar) {
    const Material a = Material::parse("KQvK"), b = Material::parse("KRvK"), c = Material::parse("KQvKR");
    JobProgress p({{a, 1000}, {b, 1000}, {c, 4000}});
    const auto t0 = JobProgress::Clock::time_point{};
    EXPECT_FALSE(p.job_eta(t0));  // nothing measured yet
    p.table_started(a, t0);
    EXPECT_FALSE(p.table_eta(t0 + 1s));
    p.table_finished(t0 + 1s);  // 1000 entries/s for 3 men
    EXPECT_DOUBLE_EQ(p.job_fraction(), 1000.0 / 6000);
    p.table_started(b, t0 + 1s);
    EXPECT_NEAR(*p.table_eta(t0 + 1500ms), 0.5, 1e-9);
    EXPECT_NEAR(*p.job_eta(t0 + 1500ms), 0.5 + 4.0, 1e-9);  // 4-man at the 3-man rate until measured
    EXPECT_NE(p.status(t0 + 5s).find("(ETA: this table past its estimate, then ~4.0 s)"), std::string::npos)
        << p.status(t0 + 5s);
    p.table_finished(t0 + 3s);  // 1000 entries in 2 s: 3-man rate now 2000 entries / 3 s
    p.table_started(c, t0 + 3s);
    EXPECT_NEAR(*p.expected_seconds(c, 4000), 6.0, 1e-9);
    EXPECT_FALSE(p.table_eta(t0 + 10s));           // over its estimate
    EXPECT_NEAR(*p.job_eta(t0 + 10s), 0.0, 1e-9);  // counts as nearly done
    EXPECT_NE(p.status(t0 + 4s).find("job 33.3%"), std::string::npos) << p.status(t0 + 4s);
    EXPECT_NE(p.status(t0 + 4s).find("(ETA 5.0 s)"), std::string::npos) << p.status(t0 + 4s);
    // The last table past its estimate: no "ETA 0.0 s" while it may take hours more.
    EXPECT_NE(p.status(t0 + 10s).find("(ETA unknown: this table is past its estimate)"), std::string::npos)
        << p.status(t0 + 10s);
    p.table_finished(t0 + 11s);
    EXPECT_DOUBLE_EQ(p.job_fraction(), 1.0);
    EXPECT_NEAR(*p.job_eta(t0 + 11s), 0.0, 1e-9);
}

// A pawn table tells how many of its slices are solved: its expected time follows them, not the
// rates of other tables (KNNNvKP's slices took twice what the rates of this machine said).
TEST(JobsProgress, APawnTableSlicesSolvedSetItsEta) {
    const Material a = Material::parse("KQvK"), b = Material::parse("KPvK");
    JobProgress p({{a, 1000}, {b, 4000}});
    const auto t0 = JobProgress::Clock::time_point{};
    p.table_started(a, t0);
    p.table_finished(t0 + 1s);  // 1000 entries/s: b expected in 4 s
    p.table_started(b, t0 + 1s);
    p.table_progress(0.0, t0 + 1s);  // its slices start
    EXPECT_NEAR(*p.table_eta(t0 + 2s), 3.0, 1e-9);
    p.table_progress(0.25, t0 + 3s);  // a quarter in 2 s: 8 s in all
    EXPECT_NEAR(*p.table_eta(t0 + 3s), 6.0, 1e-9);
    EXPECT_NEAR(*p.job_eta(t0 + 3s), 6.0, 1e-9);
    EXPECT_DOUBLE_EQ(p.job_fraction(), (1000 + 0.25 * 4000) / 5000);
    EXPECT_NE(p.status(t0 + 3s).find("table 2.0 s of ~8.0 s, job 40.0% (ETA 6.0 s)"), std::string::npos)
        << p.status(t0 + 3s);
    p.table_progress(1.0, t0 + 9s);  // every slice solved, the file still to write: the rates again
    EXPECT_FALSE(p.table_eta(t0 + 9s));
    p.table_finished(t0 + 10s);
    EXPECT_DOUBLE_EQ(p.job_fraction(), 1.0);
}

// The time before a pawn table's first slice (reading sub-tables that an earlier job built, or a
// resumed table's earlier slices) is not extrapolated with its slices.
TEST(JobsProgress, TheSlicesAloneAreExtrapolated) {
    const Material a = Material::parse("KQvK"), b = Material::parse("KPvK");
    JobProgress p({{a, 1000}, {b, 4000}});
    const auto t0 = JobProgress::Clock::time_point{};
    p.table_started(a, t0);
    p.table_finished(t0 + 1s);  // b expected in 4 s
    p.table_started(b, t0 + 1s);
    p.table_progress(0.0, t0 + 11s);  // 10 s reading its sub-tables: the rates' 4 s after them
    EXPECT_NEAR(*p.table_eta(t0 + 12s), 3.0, 1e-9);
    p.table_progress(0.25, t0 + 13s);  // a quarter of the slices in 2 s: 6 s more
    EXPECT_NEAR(*p.table_eta(t0 + 13s), 6.0, 1e-9);
    EXPECT_NE(p.status(t0 + 13s).find("table 12 s of ~18 s"), std::string::npos) << p.status(t0 + 13s);

    const Material c = Material::parse("KRPvK");
    JobProgress resumed({{c, 4000}});
    resumed.table_started(c, t0);
    resumed.table_resumed(100);             // half its slices solved in an earlier run
    resumed.table_progress(0.5, t0);        // its slices go on from there
    resumed.table_progress(0.75, t0 + 5s);  // a quarter in 5 s: 5 s more
    EXPECT_NEAR(*resumed.table_eta(t0 + 5s), 5.0, 1e-9);
}

// Another process builds a table: its entries count as done and its time leaves the ETA.
// A table's completion chain (sub-tables built by an earlier job, completed first) has a status of
// its own, and its time is neither the table's expected time nor a rate: a 37-minute chain before a
// 3-minute solve made the status say "past its estimate" and every later ETA too long.
TEST(JobsProgress, AChainOfSubTablesIsToldApartFromTheTable) {
    const Material a = Material::parse("KQvK"), b = Material::parse("KQvKR"), c = Material::parse("KRvKN");
    JobProgress p({{a, 1000}, {b, 2000}, {c, 1000}});
    const auto t0 = JobProgress::Clock::time_point{};
    p.table_started(a, t0);
    p.table_finished(t0 + 1s);  // 1000 entries/s
    p.table_started(b, t0 + 1s);
    p.chain_progress(0, 3);
    p.chain_progress(2, 3);
    const std::string during = p.status(t0 + 31s);
    EXPECT_NE(during.find("table 30 s, completing its sub-tables (2 of 3 done), job 25.0%"
                          " (ETA: the sub-tables left, then ~3.0 s)"),
              std::string::npos)
        << during;
    EXPECT_NEAR(*p.job_eta(t0 + 31s), 2.0 + 1.0, 1e-9);  // b's solve, then c
    p.chain_progress(3, 3);
    p.chain_finished(t0 + 41s);  // 40 s of chain
    EXPECT_DOUBLE_EQ(p.chain_seconds(), 40.0);
    EXPECT_NEAR(*p.table_eta(t0 + 42s), 1.0, 1e-9);  // its 2 s of solve from the chain's end
    const std::string after = p.status(t0 + 42s);
    EXPECT_NE(after.find("table 41 s of ~42 s, job 25.0% (ETA 2.0 s)"), std::string::npos) << after;
    p.table_finished(t0 + 45s);  // 2000 entries in the 4 s after the chain: 500 a second, not 45
    EXPECT_NEAR(*p.expected_seconds(c, 1000), 2.0, 1e-9);
    p.table_started(c, t0 + 45s);
    EXPECT_DOUBLE_EQ(p.chain_seconds(), 0.0);  // no chain
}

TEST(JobsProgress, TablesBuiltElsewhereCountAsDone) {
    const Material a = Material::parse("KQvK"), b = Material::parse("KRvK"), c = Material::parse("KBvK");
    JobProgress p({{a, 1000}, {b, 1000}, {c, 2000}});
    const auto t0 = JobProgress::Clock::time_point{};
    p.table_started(b, t0);      // out of order: a is someone else's
    p.table_built_elsewhere(b);  // the running table is this job's own
    EXPECT_EQ(p.tables_done(), 0);
    p.table_finished(t0 + 1s);  // 1000 entries/s
    EXPECT_NEAR(*p.job_eta(t0 + 1s), 3.0, 1e-9);
    p.table_built_elsewhere(a);
    EXPECT_EQ(p.tables_done(), 2);
    EXPECT_DOUBLE_EQ(p.job_fraction(), 0.5);
    EXPECT_NEAR(*p.job_eta(t0 + 1s), 2.0, 1e-9);
    p.table_built_elsewhere(a);  // counted once
    EXPECT_EQ(p.tables_done(), 2);
    p.table_built_elsewhere(c);
    EXPECT_DOUBLE_EQ(p.job_fraction(), 1.0);
    EXPECT_NEAR(*p.job_eta(t0 + 1s), 0.0, 1e-9);
}

// With other processes building the job's tables, the tables not yet begun are shared among them.
TEST(JobsProgress, TheEtaSharesTheTablesLeftWithTheOtherProcesses) {
    const Material a = Material::parse("KQvK"), b = Material::parse("KRvK"), c = Material::parse("KBvK");
    JobProgress p({{a, 1000}, {b, 1000}, {c, 2000}});
    const auto t0 = JobProgress::Clock::time_point{};
    p.table_started(a, t0);
    p.table_finished(t0 + 1s);  // 1000 entries/s: 3 s left
    p.set_processes(3);
    p.table_started(b, t0 + 1s);
    EXPECT_NEAR(*p.job_eta(t0 + 1s), 1.0 + 2.0 / 3, 1e-9);  // b here, c shared by three
    EXPECT_NE(p.status(t0 + 1s).find("(ETA 1.7 s, shared with 2 other processes)"), std::string::npos)
        << p.status(t0 + 1s);
    p.set_processes(2);
    EXPECT_NE(p.status(t0 + 1s).find("shared with 1 other process)"), std::string::npos) << p.status(t0 + 1s);
    p.set_processes(1);
    EXPECT_NEAR(*p.job_eta(t0 + 1s), 3.0, 1e-9);
    EXPECT_EQ(p.status(t0 + 1s).find("shared"), std::string::npos);
}

TEST(JobsProgress, HistoryGivesAnEtaFromTheStart) {
    const Material kqkr = Material::parse("KQvKR");
    JobProgress p({{kqkr, 3000}});
    p.add_history(Material::parse("KRvKR"), 1000, 1.0);
    EXPECT_NEAR(*p.job_eta(), 3.0, 1e-9);
}

// A kind not timed yet takes the projection's prior, as the printed plan did, until a table of its
// kind is measured; other kinds' rates do not replace it.
TEST(JobsProgress, APriorStandsUntilItsKindIsTimed) {
    const Material kqkr = Material::parse("KQvKR"), krkb = Material::parse("KRvKB");
    JobProgress p({{kqkr, 3000}, {krkb, 3000}});
    p.add_history(Material::parse("KQvK"), 1000, 10.0);  // 3 men: another kind
    p.set_prior(kqkr, 7.0);
    p.set_prior(krkb, 9.0);
    EXPECT_NEAR(*p.job_eta(), 7.0 + 9.0, 1e-9);
    const auto t0 = JobProgress::Clock::time_point{};
    p.table_started(kqkr, t0);
    p.table_finished(t0 + 2s);  // 4-man pawnless: 1500 entries/s
    EXPECT_NEAR(*p.expected_seconds(krkb, 3000), 2.0, 1e-9);
}

TEST(JobsProgress, FormatsDurations) {
    EXPECT_EQ(format_duration(2.25), "2.2 s");
    EXPECT_EQ(format_duration(45), "45 s");
    EXPECT_EQ(format_duration(725), "12 min 05 s");
    EXPECT_EQ(format_duration(3 * 3600 + 7 * 60 + 10), "3 h 07 min");
}

TEST(JobsProgress, PassesText) {
    Control::PhaseSeconds phases{};
    phases[size_t(Control::Phase::FirstPass)] = 35;
    phases[size_t(Control::Phase::Sweeps)] = 52.4;
    phases[size_t(Control::Phase::FinalValues)] = 1.5;
    phases[size_t(Control::Phase::Assembly)] = 0.0004;  // under a millisecond: left out
    EXPECT_EQ(passes_text(phases), "the solve's passes: first pass 35 s, sweeps 52 s, final values 1.5 s");
    EXPECT_EQ(passes_text(Control::PhaseSeconds{0.5, 0, 0.4}), "");  // under a second in all
}

TEST(JobsLog, LineStreamSplitsLines) {
    std::vector<std::string> lines;
    {
        LineStream s([&](const std::string& l) { lines.push_back(l); });
        s << "KQvKR: won in " << 1 << ": 90280 entries\n"
          << "second\nthi";
        s << "rd";
    }
    ASSERT_EQ(lines.size(), 3u);
    EXPECT_EQ(lines[0], "KQvKR: won in 1: 90280 entries");
    EXPECT_EQ(lines[1], "second");
    EXPECT_EQ(lines[2], "third");  // the unterminated rest on destruction
}

TEST(JobsLog, TimestampedLinesAreAppended) {
    const auto path = std::filesystem::temp_directory_path() / ("retro_jobs_log_" + std::to_string(getpid()));
    {
        JobLog log(path);
        log.line("first");
    }
    {
        JobLog log(path);
        log.line("second");
    }
    std::ifstream in(path);
    std::string l1, l2;
    std::getline(in, l1);
    std::getline(in, l2);
    EXPECT_EQ(l1.size(), 19 + 1 + 5) << l1;  // "YYYY-MM-DD HH:MM:SS first"
    EXPECT_TRUE(l1.ends_with(" first")) << l1;
    EXPECT_TRUE(l2.ends_with(" second")) << l2;
    std::filesystem::remove(path);
    EXPECT_THROW(JobLog("/nonexistent-dir/x.log"), std::runtime_error);
}

TEST(JobsSignals, FirstSignalOnlySetsTheFlag) {
    StopSignals signals;
    EXPECT_FALSE(StopSignals::flag().load());
    std::raise(SIGTERM);
    EXPECT_TRUE(StopSignals::flag().load());
    EXPECT_EQ(StopSignals::signal_number(), SIGTERM);
}

TEST(JobsSignals, EndOnSignalSaysItsLastWordsThenEndsByTheSignal) {
    // The child runs the test anew rather than from a fork: it starts a thread, which a fork of a
    // process under ThreadSanitizer may not.
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(
        {
            const EndOnSignal end([](int sig) { std::cerr << "last words on signal " << sig << std::endl; });
            std::raise(SIGTERM);
            for (;;) std::this_thread::sleep_for(std::chrono::milliseconds(10));
        },
        testing::KilledBySignal(SIGTERM), "last words on signal " + std::to_string(SIGTERM));
}

TEST(JobsProgress, PercentLinesSayHowFarAtMostEveryThirtySecondsAndNotAtTheEnd) {
    std::vector<std::string> lines;
    auto last_line = std::chrono::steady_clock::now() - 31s;
    const auto report =
        percent_lines("KQvKR: checked", last_line, [&](const std::string& line) { lines.push_back(line); });
    report(25, 100);  // 31 s after the step's last line
    report(50, 100);  // just after that line: too soon
    last_line -= 31s;
    report(200, 200);  // the end: the caller says so in its own words
    report(150, 200);
    EXPECT_EQ(lines, (std::vector<std::string>{"KQvKR: checked 25.0% of the entries",
                                               "KQvKR: checked 75.0% of the entries"}));
}

// A step on its own says the time left at its rate since the first call (a resumed one starts part way);
// here the calls come within microseconds, so the rest is a moment.
TEST(JobsProgress, PercentLinesOfAStepOnItsOwnSayTheTimeLeft) {
    std::vector<std::string> lines;
    auto last_line = std::chrono::steady_clock::now() - 31s;
    const auto report = percent_lines(
        "KQvKR.rtb: checked", last_line, [&](const std::string& line) { lines.push_back(line); },
        TimeLeft::Say);
    report(40, 100);  // resumed at 40%: no rate yet
    last_line -= 31s;
    report(50, 100);
    EXPECT_EQ(lines, (std::vector<std::string>{"KQvKR.rtb: checked 40.0% of the entries",
                                               "KQvKR.rtb: checked 50.0% of the entries, about 0.0 s left"}));
}
