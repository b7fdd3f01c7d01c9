// The projected time of a job: the rates of tbgen.times for the kinds timed there, the cost model for
// the others, and the lines the plan prints.
#include "jobs/projection.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "index/index_scheme.hpp"
#include "jobs/progress.hpp"

using namespace retro;
namespace fs = std::filesystem;

namespace {

const ReferenceRate RATES[] = {
    {TableKind::Pawnless, 3, {1e-6, 1e-7}},
    {TableKind::Pawnless, 4, {2e-6, 4e-7}},
    {TableKind::PawnsInMemory, 4, {3e-6, 1e-6}},
    {TableKind::PawnsLean, 4, {5e-6, 1e-6}},
};

double entries(const char* name) { return double(2 * IndexScheme(Material::parse(name)).size()); }

class JobsProjection : public ::testing::Test {
protected:
    void SetUp() override {
        dir_ = fs::temp_directory_path() / ("retro_jobs_projection_" + std::to_string(getpid()));
        fs::remove_all(dir_);
        fs::create_directories(dir_);
    }
    void TearDown() override { fs::remove_all(dir_); }

    // KQvK, KRvK, then KQvKR.
    JobPlan plan() const {
        return make_plan({Material::parse("KQvKR")}, dir_,
                         {.memory_limit = 0, .cache = std::nullopt, .threads = 2});
    }
    // This machine 1.5 times as slow as the reference, 2 threads; counts how often it is asked for.
    std::function<CostModel()> model() {
        return [this] {
            ++models_;
            return CostModel(RATES, 2, 1.5, 2);
        };
    }

    fs::path dir_;
    int models_ = 0;
};

}  // namespace

TEST_F(JobsProjection, ModelsEveryTableInANewDirectory) {
    const JobPlan p = plan();
    const Projection projection = project(p, model());
    const double three = 1.1e-6 * 1.5 / 2, four = 2.4e-6 * 1.5 / 2;  // seconds per entry here
    ASSERT_EQ(projection.tables.size(), 3u);
    EXPECT_DOUBLE_EQ(projection.tables[2].seconds, entries("KQvKR") * four);
    EXPECT_DOUBLE_EQ(projection.seconds,
                     (entries("KQvK") + entries("KRvK")) * three + entries("KQvKR") * four);
    EXPECT_EQ(projection.timed_count(), 0);
    EXPECT_EQ(models_, 1);

    const auto lines = projection_lines(p, model());
    ASSERT_EQ(lines.size(), 2u);
    const std::string each =
        format_duration(std::max(entries("KQvK"), entries("KRvK")) * three + entries("KQvKR") * four);
    EXPECT_EQ(lines[0],
              "projected time: about " + format_duration(projection.seconds) +
                  " for 3 tables by the cost model (per-entry rates measured on a reference machine, "
                  "this machine 1.50 times its calibration time, 2 threads); on 2 / 4 / 8 machines "
                  "like this one: about " +
                  each + " / " + each + " / " + each);
    EXPECT_EQ(lines[1], "projected time of the largest tables: KQvKR " +
                            format_duration(entries("KQvKR") * four) + ", KQvK " +
                            format_duration(entries("KQvK") * three) + ", KRvK " +
                            format_duration(entries("KRvK") * three));
}

TEST_F(JobsProjection, TheRatesOfTbgenTimesComeFirst) {
    const JobPlan p = plan();
    const std::string times = (dir_ / "tbgen.times").string();
    // The 3-man pawnless tables are timed here (100,000 entries per second): the model does KQvKR.
    std::ofstream(times) << "KRvK 100000 1\nnot a line\n";
    // On several machines: KQvK and KRvK side by side, then KQvKR.
    const double sub_tables = std::max(entries("KQvK"), entries("KRvK"));
    Projection projection = project(p, model());
    EXPECT_EQ(projection.times_lines, 1);
    EXPECT_EQ(projection.timed_count(), 2);
    EXPECT_DOUBLE_EQ(projection.seconds,
                     (entries("KQvK") + entries("KRvK")) / 1e5 + entries("KQvKR") * 2.4e-6 * 0.75);
    const std::string line = projection_lines(p, model())[0];
    EXPECT_EQ(
        line.substr(line.find(" for 3 tables")),
        " for 3 tables: 2 at the rates of 1 table built here (" + times +
            "), 1 by the cost model (per-entry rates measured on a reference machine, this machine 1.50 "
            "times its calibration time, 2 threads); on 2 / 4 / 8 machines like this one: about " +
            format_duration(sub_tables / 1e5 + entries("KQvKR") * 1.8e-6) + " / " +
            format_duration(sub_tables / 1e5 + entries("KQvKR") * 1.8e-6) + " / " +
            format_duration(sub_tables / 1e5 + entries("KQvKR") * 1.8e-6));

    // Every kind timed: the model is not asked for (nor calibrated).
    models_ = 0;
    std::ofstream(times, std::ios::app) << "KRvKR 600000 3\n";
    projection = project(p, model());
    EXPECT_EQ(models_, 0);
    EXPECT_FALSE(projection.model);
    EXPECT_DOUBLE_EQ(projection.seconds, (entries("KQvK") + entries("KRvK")) / 1e5 + entries("KQvKR") / 2e5);
    EXPECT_EQ(projection_lines(p, model())[0],
              "projected time: about " + format_duration(projection.seconds) +
                  " for 3 tables at the rates of 2 tables built here (" + times +
                  "); on 2 / 4 / 8 machines like "
                  "this one: about " +
                  format_duration(sub_tables / 1e5 + entries("KQvKR") / 2e5) + " / " +
                  format_duration(sub_tables / 1e5 + entries("KQvKR") / 2e5) + " / " +
                  format_duration(sub_tables / 1e5 + entries("KQvKR") / 2e5));
}

TEST_F(JobsProjection, NothingToBuildNothingToProject) {
    JobPlan p = plan();
    for (auto& t : p.tables) t.complete = true;
    EXPECT_TRUE(projection_lines(p, model()).empty());
    EXPECT_EQ(models_, 0);
}
