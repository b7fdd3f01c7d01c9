// The benchmark's arithmetic and output: thread lists, medians, speedup, efficiency, the passes' times,
// CSV, plot script.
#include "jobs/bench.hpp"

#include <gtest/gtest.h>

using namespace retro;

TEST(JobsBench, ThreadLists) {
    EXPECT_EQ(parse_thread_list("1,2,4,8,16"), (std::vector<int>{1, 2, 4, 8, 16}));
    EXPECT_EQ(parse_thread_list("4,1-3,2"), (std::vector<int>{1, 2, 3, 4}));
    EXPECT_THROW(parse_thread_list("0"), std::invalid_argument);
    EXPECT_THROW(parse_thread_list("two"), std::invalid_argument);
    EXPECT_THROW(parse_thread_list("4-2"), std::invalid_argument);
    EXPECT_THROW(parse_thread_list(""), std::invalid_argument);
    EXPECT_EQ(default_thread_list(1), (std::vector<int>{1}));
    EXPECT_EQ(default_thread_list(2), (std::vector<int>{1, 2}));
    EXPECT_EQ(default_thread_list(16).size(), 16u);
    EXPECT_EQ(default_thread_list(64), (std::vector<int>{1, 2, 4, 8, 16, 32, 64}));
    EXPECT_EQ(default_thread_list(24), (std::vector<int>{1, 2, 4, 8, 16, 24}));
}

TEST(JobsBench, Median) {
    EXPECT_DOUBLE_EQ(median({3, 1, 2}), 2);
    EXPECT_DOUBLE_EQ(median({4, 1, 2, 3}), 2.5);
    EXPECT_DOUBLE_EQ(median({}), 0);
}

TEST(JobsBench, SpeedupAndEfficiencyFromMedians) {
    const std::vector<BenchRun> runs = {{1, 10.0, 10}, {2, 5.5, 11},  {1, 9.0, 9},
                                        {2, 6.0, 12},  {1, 30.0, 10}, {2, 5.0, 10},
                                        {4, 3.0, 12},  {4, 3.0, 12},  {4, 3.0, 12}};
    const auto rows = summarize(runs, 1000);
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_EQ(rows[0].threads, 1);
    EXPECT_EQ(rows[0].runs, 3);
    EXPECT_DOUBLE_EQ(rows[0].median_seconds, 10.0);  // the 30 s outlier does not count
    EXPECT_DOUBLE_EQ(rows[0].min_seconds, 9.0);
    EXPECT_DOUBLE_EQ(rows[0].max_seconds, 30.0);
    EXPECT_DOUBLE_EQ(rows[0].speedup, 1.0);
    EXPECT_DOUBLE_EQ(rows[1].speedup, 10.0 / 5.5);
    EXPECT_DOUBLE_EQ(rows[1].efficiency, 10.0 / 5.5 / 2);
    EXPECT_DOUBLE_EQ(rows[1].cpu_seconds, 11);
    EXPECT_DOUBLE_EQ(rows[2].positions_per_second, 1000 / 3.0);
    // Without a 1-thread row, the smallest count is the base.
    const auto from_two = summarize({{2, 4.0, 8}, {4, 2.5, 10}}, 100);
    EXPECT_DOUBLE_EQ(from_two[1].speedup, 1.6);
    EXPECT_DOUBLE_EQ(from_two[1].efficiency, 0.8);
}

TEST(JobsBench, TableCsvAndPlotScript) {
    const auto rows = summarize({{1, 2.0, 2}, {2, 1.0, 2}}, 4000000);
    const std::string csv = bench_csv(rows);
    EXPECT_EQ(csv.substr(0, csv.find('\n')),
              "threads,runs,median_s,min_s,max_s,cpu_s,speedup,efficiency,positions_per_s,first_pass_s,"
              "sweeps_s,final_values_s,waves_s,assembly_s");
    EXPECT_NE(csv.find("\n2,1,1.000000,1.000000,1.000000,2.000000,2.0000,1.0000,4000000,0.000000,0.000000,"
                       "0.000000,0.000000,0.000000\n"),
              std::string::npos)
        << csv;
    const std::string table = format_bench_table(rows);
    EXPECT_NE(table.find("100%"), std::string::npos) << table;
    EXPECT_EQ(std::count(table.begin(), table.end(), '\n'), 3);
    const std::string svg = gnuplot_script("r.csv", "r.svg", "it's", 2);
    EXPECT_NE(svg.find("set terminal svg"), std::string::npos);
    EXPECT_NE(svg.find("'it''s'"), std::string::npos);    // quoted for gnuplot
    EXPECT_NE(svg.find("using 1:7"), std::string::npos);  // speedup column
    EXPECT_NE(svg.find("using 1:8"), std::string::npos);  // efficiency column
    EXPECT_NE(gnuplot_script("r.csv", "r.png", "t", 2).find("set terminal png"), std::string::npos);
    EXPECT_TRUE(find_program("sh"));
    EXPECT_FALSE(find_program("no-such-program-retro"));
}

TEST(JobsBench, WhereTheTimeGoes) {
    using Phase = Control::Phase;
    const auto phases = [](double first, double sweeps) {
        Control::PhaseSeconds p{};
        p[size_t(Phase::FirstPass)] = first;
        p[size_t(Phase::Sweeps)] = sweeps;
        p[size_t(Phase::FinalValues)] = 0.5;
        return p;
    };
    // The medians of each pass, of the runs of one count: first pass 4, sweeps 5.
    const auto rows = summarize({{1, 10.0, 10, phases(4, 5)},
                                 {1, 11.0, 11, phases(3, 6)},
                                 {1, 9.0, 9, phases(5, 4)},
                                 {2, 6.0, 12, phases(2, 3.2)}},
                                100);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_DOUBLE_EQ(rows[0].phase_seconds[size_t(Phase::FirstPass)], 4);
    EXPECT_DOUBLE_EQ(rows[0].phase_seconds[size_t(Phase::Sweeps)], 5);
    const std::string table = format_phase_table(rows);
    EXPECT_NE(table.find("first pass"), std::string::npos) << table;
    EXPECT_NE(table.find("final values"), std::string::npos) << table;
    EXPECT_EQ(table.find("waves"), std::string::npos) << table;  // no run took them
    // 1 thread: other = 10 - 4 - 5 - 0.5; speedups: first pass 4 / 2, sweeps 5 / 3.2, whole 10 / 6.
    EXPECT_NE(
        table.find("      1       4.000 ( 40%)       5.000 ( 50%)       0.500 (  5%)       0.500 (  5%)\n"),
        std::string::npos)
        << table;
    EXPECT_NE(
        table.find("      2               2.00               1.56               1.00               1.67\n"),
        std::string::npos)
        << table;
    EXPECT_EQ(format_phase_table(summarize({{1, 1.0, 1}}, 10)), "");  // no pass told
}
