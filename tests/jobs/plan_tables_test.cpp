// tbgen --dry-run's table by table lines: each table of the job's most men, alone and with its
// closure, against the memory limit.
#include "jobs/plan_tables.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "jobs/estimates.hpp"

using namespace retro;
namespace fs = std::filesystem;

namespace {

const fs::path NOWHERE = fs::temp_directory_path() / "retro_jobs_plan_tables_none";

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

}  // namespace

TEST(JobsPlanTables, KNNNNNvKFitsThisMachineWithItsClosure) {
    const uint64_t limit = parse_bytes("23.2G");
    const JobPlan plan = make_plan({Material::parse("KNNNNNvK")}, NOWHERE,
                                   JobSettings{.memory_limit = limit, .cache = {}, .threads = 1});
    const std::vector<std::string> lines = plan_table_lines(plan);
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_EQ(lines[0].substr(0, 34), "KNNNNNvK  2.99e9 entries a side   ") << lines[0];
    EXPECT_TRUE(contains(lines[0],
                         "peak 7.92 GiB, whole  file 627 MiB  closure: 5 tables to build, peak 7.92 "
                         "GiB, files 685 MiB  fits"))
        << lines[0];
    EXPECT_EQ(lines[1],
              "1 7-man table to build; closures within the limit of 23.2 GiB: 1 (the largest, KNNNNNvK, 7.92 "
              "GiB); beyond it: 0");

    const JobPlan small =
        make_plan({Material::parse("KNNNNNvK")}, NOWHERE,
                  JobSettings{.memory_limit = parse_bytes("4G"), .cache = {}, .threads = 1});
    EXPECT_TRUE(plan_table_lines(small)[0].ends_with("  needs more")) << plan_table_lines(small)[0];
}

// KPPPPPvK's promotions reach 125 other 7-man tables, the largest first; it goes the lean way.
TEST(JobsPlanTables, APawnTableGoesLeanYetItsClosureNeedsMore) {
    const JobPlan plan =
        make_plan({Material::parse("KPPPPPvK")}, NOWHERE,
                  JobSettings{.memory_limit = parse_bytes("23.2G"), .cache = {}, .threads = 1});
    const std::vector<std::string> lines = plan_table_lines(plan);
    ASSERT_EQ(lines.size(), 127u);
    EXPECT_TRUE(lines[0].starts_with("KQRBBNvK  2.08e11 entries a side  peak 549 GiB, whole")) << lines[0];
    const auto pawns = std::find_if(lines.begin(), lines.end(),
                                    [](const std::string& line) { return line.starts_with("KPPPPPvK "); });
    ASSERT_NE(pawns, lines.end());
    EXPECT_TRUE(contains(*pawns,
                         " entries a side   peak 7.55 GiB, lean (promotions in part)  file 767 MiB  "
                         "closure: 251 tables to build, peak 549 GiB"))
        << *pawns;
    EXPECT_TRUE(pawns->ends_with("  needs more")) << *pawns;
    EXPECT_EQ(lines.back(),
              "126 7-man tables to build; closures within the limit of 23.2 GiB: 4 (the largest, KBBBBBvK, "
              "7.92 GiB); beyond it: 122 (the largest, KQRBBNvK, 549 GiB)");
}

TEST(JobsPlanTables, OnlyTheTablesOfTheMostMenWithoutALimit) {
    const JobPlan plan =
        make_plan({Material::parse("KQvKR")}, NOWHERE, JobSettings{.memory_limit = 0, .cache = {}});
    const std::vector<std::string> lines = plan_table_lines(plan);
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_TRUE(lines[0].starts_with("KQvKR     1.78e6 entries a side   peak ")) << lines[0];
    EXPECT_TRUE(contains(lines[0], "closure: 3 tables to build")) << lines[0];
    EXPECT_FALSE(contains(lines[0], "fits")) << lines[0];
    EXPECT_EQ(lines[1], "1 4-man table to build; no memory limit");
}
