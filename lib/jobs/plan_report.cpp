#include "jobs/plan_report.hpp"

#include "jobs/progress.hpp"
#include "jobs/projection.hpp"

namespace retro {

namespace {

// "N tables in DIR: C complete (skipped), B to build", with the checkpoints and the time the check took.
std::string tables_line(const JobPlan& plan) {
    int checkpoints = 0;
    for (const auto& t : plan.tables) checkpoints += t.has_checkpoint;
    return std::to_string(plan.tables.size()) + " tables in " + plan.dir.string() + ": " +
           std::to_string(plan.tables.size() - size_t(plan.to_build())) + " complete (skipped), " +
           std::to_string(plan.to_build()) + " to build" +
           (checkpoints
                ? ", " + std::to_string(checkpoints) + " of them with a checkpoint (resumed if intact)"
                : std::string()) +
           (plan.check_seconds >= 1
                ? " (checking the existing files took " + format_duration(plan.check_seconds) + ")"
                : std::string());
}

// The memory limit and the cache, and where each comes from.
std::string limits_text(const JobPlan& plan) {
    const JobResources& r = plan.resources;
    const bool limit_given = plan.settings.memory_limit.has_value(),
               cache_given = plan.settings.cache.has_value();
    const std::string limit = r.memory_limit == 0 ? "no limit"
                              : limit_given ? "limit " + format_bytes(r.memory_limit) + " (--memory-limit)"
                                            : "limit " + format_bytes(r.memory_limit) + " (MemAvailable)";
    const std::string cache = r.cache == UINT64_MAX ? "no cache limit"
                                                    : "cache " + format_bytes(r.cache) +
                                                          (cache_given ? " (--cache)" : " (half the limit)");
    return limit + "; " + cache;
}

}  // namespace

std::vector<std::string> plan_report(const JobPlan& plan) {
    std::vector<std::string> lines{tables_line(plan)};
    if (plan.to_build() > 0 && plan.to_build() <= 12) {
        std::string order = "to build, in this order:";
        for (const auto& t : plan.tables)
            if (!t.complete) order.append(" ").append(t.material.name());
        lines.push_back(order);
    }
    if (plan.to_build() > 0) {
        const Material peak = *plan.peak_memory_table();
        lines.push_back("estimated peak memory: " + format_bytes(plan.peak_memory()) + " while solving " +
                        peak.name() + " (" + plan.memory(peak).text() + "); " + limits_text(plan));
        int lean = 0;
        for (const auto& t : plan.tables)
            lean += !t.complete && (t.memory.slices_on_disk || t.memory.promotions_in_part);
        if (lean)
            lines.push_back(std::to_string(lean) +
                            (lean == 1
                                 ? " pawn table keeps its solved slices on disk or reads its promotions"
                                 : " pawn tables keep their solved slices on disk or read their promotions") +
                            " in part to stay within the cache (slower; the tables read in part are written "
                            "self-contained)");
        lines.push_back("estimated disk: about " + format_bytes(plan.disk_needed(FileSize::Expected)) +
                        " more at the peak with checkpoints and exact copies, at most " +
                        format_bytes(plan.disk_needed(FileSize::Bound)) + "; the job's files about " +
                        format_bytes(plan.disk_total(FileSize::Expected)) +
                        (plan.free_disk ? "; " + format_bytes(*plan.free_disk) + " free" : std::string()));
    }
    for (std::string& line : projection_lines(plan)) lines.push_back(std::move(line));
    if (const auto fit = memory_fit(plan, plan.resources.memory_limit)) lines.push_back(*fit);
    return lines;
}

}  // namespace retro
