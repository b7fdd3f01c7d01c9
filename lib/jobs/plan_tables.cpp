#include "jobs/plan_tables.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>

#include "index/dependencies.hpp"
#include "jobs/estimates.hpp"
#include "store/estimates.hpp"

namespace retro {

namespace {

// What a table's closure (the table and every table it needs) takes: the largest peak of its tables
// still to build, each built alone, and the files of them all.
struct Closure {
    int to_build = 0;
    uint64_t peak = 0;
    uint64_t files = 0;
};

// The closure of every table of the plan. The plan's order puts each table after those it needs, so
// a table's closure is itself and the closures of its direct sub-tables: a bit set per table.
std::vector<Closure> closures(const JobPlan& plan) {
    const size_t n = plan.tables.size(), words = (n + 63) / 64;
    std::map<Material, size_t> position;
    for (size_t i = 0; i < n; ++i) position[plan.tables[i].material] = i;
    std::vector<uint64_t> file(n);
    for (size_t i = 0; i < n; ++i)
        file[i] = table_file_bytes_estimate(plan.tables[i].material, FileSize::Expected);
    std::vector<std::vector<uint64_t>> member(n, std::vector<uint64_t>(words));
    std::vector<Closure> out(n);
    for (size_t i = 0; i < n; ++i) {
        std::vector<uint64_t>& bits = member[i];
        bits[i / 64] |= uint64_t(1) << (i % 64);
        for (const Material& sub : direct_subtables(plan.tables[i].material)) {
            const std::vector<uint64_t>& of_sub = member[position.at(sub)];
            for (size_t w = 0; w < words; ++w) bits[w] |= of_sub[w];
        }
        for (size_t j = 0; j < n; ++j) {
            if (!(bits[j / 64] >> (j % 64) & 1)) continue;
            out[i].files += file[j];
            if (plan.tables[j].complete) continue;
            ++out[i].to_build;
            out[i].peak = std::max(out[i].peak, plan.tables[j].memory.peak());
        }
    }
    return out;
}

// How a table is held while it is solved: whole, or a pawn table the lean way (MemoryPlan).
std::string way_text(const MemoryPlan& m) {
    if (m.ranks > 1) return "by king pair over " + std::to_string(m.ranks) + " ranks";
    if (!m.slices_on_disk && !m.promotions_in_part) return "whole";
    if (m.slices_on_disk && m.promotions_in_part) return "lean (slices on disk, promotions in part)";
    return m.slices_on_disk ? "lean (slices on disk)" : "lean (promotions in part)";
}

// "2.99e9"; below 10^4 the number itself.
std::string entries_text(uint64_t n) {
    if (n < 10000) return std::to_string(n);
    const int exponent = int(std::floor(std::log10(double(n))));
    char text[32];
    std::snprintf(text, sizeof text, "%.2fe%d", double(n) / std::pow(10.0, exponent), exponent);
    return text;
}

std::string padded(std::string s, size_t width) {
    if (s.size() < width) s.resize(width, ' ');
    return s;
}

}  // namespace

std::vector<std::string> plan_table_lines(const JobPlan& plan) {
    int most = 0;
    for (const PlannedTable& t : plan.tables)
        if (!t.complete) most = std::max(most, t.material.total());
    if (most == 0) return {};
    std::vector<size_t> listed;
    for (size_t i = 0; i < plan.tables.size(); ++i)
        if (!plan.tables[i].complete && plan.tables[i].material.total() == most) listed.push_back(i);
    std::stable_sort(listed.begin(), listed.end(), [&](size_t a, size_t b) {
        return plan.tables[a].memory.peak() > plan.tables[b].memory.peak();
    });

    const std::vector<Closure> closure = closures(plan);
    const uint64_t limit = plan.resources.memory_limit;
    std::vector<std::string> lines;
    int fit = 0;
    std::optional<size_t> largest_fit, largest_over;  // by the closure's peak
    for (const size_t i : listed) {
        const PlannedTable& t = plan.tables[i];
        const Closure& c = closure[i];
        std::string line =
            padded(t.material.name(), 10) + padded(entries_text(t.entries) + " entries a side", 24) +
            "peak " + format_bytes(t.memory.peak()) +
            (t.memory.ranks > 1 ? " at rank 0, which writes; " + format_bytes(t.memory.peak_not_writing()) +
                                      " at each other rank"
                                : std::string()) +
            ", " + way_text(t.memory) + "  file " +
            format_bytes(table_file_bytes_estimate(t.material, FileSize::Expected)) +
            "  closure: " + std::to_string(c.to_build) + " tables to build, peak " + format_bytes(c.peak) +
            ", files " + format_bytes(c.files);
        if (limit) {
            const bool fits = c.peak <= limit;
            line += fits ? "  fits" : "  needs more";
            fit += fits;
            std::optional<size_t>& largest = fits ? largest_fit : largest_over;
            if (!largest || c.peak > closure[*largest].peak) largest = i;
        }
        lines.push_back(line);
    }
    const auto largest_text = [&](size_t i) {
        return plan.tables[i].material.name() + ", " + format_bytes(closure[i].peak);
    };
    std::string count = std::to_string(listed.size()) + " " + std::to_string(most) + "-man " +
                        (listed.size() == 1 ? "table" : "tables") + " to build";
    if (limit) {
        count += "; closures within the limit of " + format_bytes(limit) + ": " + std::to_string(fit);
        if (largest_fit) count += " (the largest, " + largest_text(*largest_fit) + ")";
        count += "; beyond it: " + std::to_string(int(listed.size()) - fit);
        if (largest_over) count += " (the largest, " + largest_text(*largest_over) + ")";
    } else {
        count += "; no memory limit";
    }
    lines.push_back(count);
    return lines;
}

}  // namespace retro
