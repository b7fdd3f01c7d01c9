#include "jobs/projection.hpp"

#include <algorithm>
#include <cstdio>

#include "jobs/progress.hpp"
#include "store/table_paths.hpp"

namespace retro {

int Projection::timed_count() const {
    return int(std::ranges::count_if(tables, [](const Table& t) { return t.timed; }));
}

double Projection::seconds_of(const Material& m) const {
    const auto it = std::ranges::find_if(tables, [&](const Table& t) { return t.material == m; });
    return it == tables.end() ? 0 : it->seconds;
}

Projection project(const JobPlan& plan, const std::function<CostModel()>& model) {
    Projection p;
    const auto work = plan.work();
    JobProgress rates(work);
    p.times_lines = rates.add_history_file(times_file_path(plan.dir));
    for (const PlannedTable& t : plan.tables) {
        if (t.complete) continue;
        Projection::Table table{t.material, 2 * t.entries};
        table.timed = rates.has_rate(t.material);
        if (table.timed) {
            table.seconds = *rates.expected_seconds(t.material, table.entries);
        } else {
            if (!p.model) p.model = model();
            table.seconds =
                p.model->seconds(table_kind(t.material, t.memory), t.material.total(), table.entries);
        }
        p.seconds += table.seconds;
        p.tables.push_back(table);
    }
    return p;
}

namespace {

std::string count_text(size_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

// Where the rates come from: "at the rates of 44 tables built here (DIR/tbgen.times)", "by the cost
// model (...)", or both with how many tables each.
std::string sources_text(const JobPlan& plan, const Projection& p) {
    const int timed = p.timed_count(), modelled = int(p.tables.size()) - timed;
    const std::string measured = "at the rates of " + count_text(size_t(p.times_lines), "table", "tables") +
                                 " built here (" + times_file_path(plan.dir).string() + ")";
    std::string by_model;
    if (p.model) {
        char speed[32];
        std::snprintf(speed, sizeof speed, "%.2f", p.model->speed());
        by_model = "by the cost model (per-entry rates measured on a reference machine, this machine " +
                   std::string(speed) + " times its calibration time, " +
                   count_text(size_t(p.model->threads()), "thread", "threads") + ")";
    }
    if (modelled == 0) return " " + measured;
    if (timed == 0) return " " + by_model;
    return ": " + std::to_string(timed) + " " + measured + ", " + std::to_string(modelled) + " " + by_model;
}

// The largest tables still to build and their times: "KQRBvKQ 3 h 10 min, ...".
std::string largest_text(const Projection& p, size_t count) {
    auto tables = p.tables;
    std::ranges::stable_sort(tables, [](const auto& a, const auto& b) { return a.entries > b.entries; });
    tables.resize(std::min(tables.size(), count));
    std::string text;
    for (const auto& t : tables)
        text += (text.empty() ? "" : ", ") + t.material.name() + " " + format_duration(t.seconds);
    return text;
}

}  // namespace

std::vector<std::string> projection_lines(const JobPlan& plan, const std::function<CostModel()>& model) {
    const Projection p = project(plan, model);
    if (p.tables.empty()) return {};
    std::string line = "projected time: about " + format_duration(p.seconds) + " for " +
                       count_text(p.tables.size(), "table", "tables") + sources_text(plan, p);
    const auto table_seconds = [&](const PlannedTable& t) { return p.seconds_of(t.material); };
    std::string machines, shares;
    for (int n : {2, 4, 8}) {
        machines += (n == 2 ? "" : " / ") + std::to_string(n);
        shares += (n == 2 ? "" : " / ") + format_duration(schedule_seconds(plan, table_seconds, n));
    }
    line += "; on " + machines + " machines like this one: about " + shares;
    constexpr size_t LARGEST = 5;
    return {line, "projected time of the largest tables: " + largest_text(p, LARGEST)};
}

namespace {

CostModel plan_model(const JobPlan& plan) { return machine_cost_model(plan.resources.threads); }

}  // namespace

Projection project(const JobPlan& plan) {
    return project(plan, [&] { return plan_model(plan); });
}

std::vector<std::string> projection_lines(const JobPlan& plan) {
    return projection_lines(plan, [&] { return plan_model(plan); });
}

}  // namespace retro
