// A job's settings: the defaults tbgen and retrograde.generate share, and the plan made with them.
#include "jobs/settings.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include "jobs/estimates.hpp"
#include "jobs/heap.hpp"
#include "jobs/plan.hpp"
#include "jobs/plan_report.hpp"
#include "jobs/threads.hpp"

using namespace retro;
namespace fs = std::filesystem;

namespace {

const fs::path NOWHERE = fs::temp_directory_path() / ("retro_jobs_settings_" + std::to_string(getpid()));

bool contains(const std::vector<std::string>& lines, const std::string& part) {
    return std::any_of(lines.begin(), lines.end(),
                       [&](const std::string& line) { return line.find(part) != std::string::npos; });
}

}  // namespace

TEST(JobsSettings, TheCacheIsHalfTheMemoryLimitByDefault) {
    const JobResources given = job_resources({.memory_limit = parse_bytes("8G"), .cache = {}});
    EXPECT_EQ(given.memory_limit, parse_bytes("8G"));
    EXPECT_EQ(given.cache, parse_bytes("4G"));
    const JobResources available = job_resources({});  // MemAvailable
    ASSERT_TRUE(available_memory_bytes());
    EXPECT_GT(available.memory_limit, 0u);
    EXPECT_EQ(available.cache, available.memory_limit / 2);
    const JobResources none = job_resources({.memory_limit = 0, .cache = {}});
    EXPECT_EQ(none.memory_limit, 0u);
    EXPECT_EQ(none.cache, UINT64_MAX);
    // A cache asked for is kept, even beyond the limit (the limit then decides the way).
    const JobResources cache = job_resources({.memory_limit = parse_bytes("1G"), .cache = parse_bytes("3G")});
    EXPECT_EQ(cache.cache, parse_bytes("3G"));
}

TEST(JobsSettings, ThreadsAndCodecsFollowTheThreadsAsked) {
    const JobSettings defaults;
    EXPECT_EQ(defaults.write.codec, Codec::Zstd);
    EXPECT_TRUE(defaults.write.settle_exits);
    EXPECT_EQ(defaults.disk_check, DiskCheck::Refuse);
    EXPECT_EQ(job_resources(defaults).threads, thread_count(0));
    EXPECT_EQ(job_resources(defaults).codecs,
              codec_bytes(defaults.write, thread_count(0)) + kept_heap_bytes(thread_count(0)));
    const JobResources three = job_resources({.memory_limit = {}, .cache = {}, .threads = 3});
    EXPECT_EQ(three.threads, 3);
    EXPECT_EQ(three.codecs, codec_bytes(defaults.write, 3) + 4 * KEPT_HEAP_BYTES);
}

// make_plan applies the settings once: each table's memory plan and ways are those of its settings.
TEST(JobsSettings, ThePlanHoldsEachTablesWayForItsSettings) {
    const Material krpkr = Material::parse("KRPvKR");
    const JobSettings lean{.memory_limit = parse_bytes("8G"), .cache = parse_bytes("20M"), .threads = 2};
    const JobPlan plan = make_plan({krpkr}, NOWHERE, lean);
    EXPECT_EQ(plan.resources.cache, parse_bytes("20M"));
    const auto completed = [&plan](const Material& sub) { return plan.completed_when_read.contains(sub); };
    for (const PlannedTable& t : plan.tables) {
        const MemoryPlan expected =
            memory_plan(t.material, plan.resources.cache, plan.resources.memory_limit, true,
                        plan.resources.codecs, completed, plan.resources.threads);
        EXPECT_EQ(t.memory.peak(), expected.peak()) << t.material.name();
        EXPECT_EQ(t.memory.promotions_in_part, expected.promotions_in_part) << t.material.name();
        EXPECT_EQ(t.settles, !t.read_in_part) << t.material.name();
    }
    EXPECT_TRUE(plan.memory(krpkr).promotions_in_part);
    EXPECT_TRUE(plan.settles(krpkr));  // from its slices' surveys
    // Its promotions are built by the job, self-contained: read in part without probes.
    EXPECT_EQ(plan.memory(krpkr).probe_cache, 0u);
    EXPECT_TRUE(plan.read_in_part(Material::parse("KQRvKR")));
    EXPECT_FALSE(plan.settles(Material::parse("KQRvKR")));
    EXPECT_TRUE(plan.read_whole_later(Material::parse("KRvKR")));
    EXPECT_FALSE(plan.read_whole_later(krpkr));

    const std::vector<std::string> lines = plan_report(plan);
    EXPECT_TRUE(contains(lines, "limit 8.00 GiB (--memory-limit); cache 20.0 MiB (--cache)"));
    EXPECT_TRUE(contains(lines, " in part to stay within the cache")) << lines.size();
    const std::vector<std::string> by_default =
        plan_report(make_plan({krpkr}, NOWHERE, {.memory_limit = 0, .cache = {}}));
    EXPECT_TRUE(contains(by_default, "no limit; no cache limit"));
    EXPECT_FALSE(contains(by_default, " in part to stay within the cache"));
}

TEST(JobsSettings, FreeDiskIsThatOfTheNearestFolderThatExists) {
    EXPECT_TRUE(free_disk_bytes(NOWHERE / "a" / "b"));
    EXPECT_TRUE(make_plan({Material::parse("KQvK")}, NOWHERE).free_disk);
    EXPECT_FALSE(fs::exists(NOWHERE));  // planning creates nothing
}
