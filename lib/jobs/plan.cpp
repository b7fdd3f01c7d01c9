#include "jobs/plan.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cassert>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <limits>
#include <map>
#include <set>

#include "index/dependencies.hpp"
#include "index/index_scheme.hpp"
#include "jobs/completion_chain.hpp"
#include "jobs/estimates.hpp"
#include "jobs/progress.hpp"
#include "solve/checkpoint.hpp"
#include "solve/solver.hpp"
#include "store/table_file.hpp"

namespace retro {

namespace {

// Every multiset of `count` pieces from QRBNP, as strings in KQRBNP order.
void piece_sets(int count, int first, std::string& prefix, std::vector<std::string>& out) {
    static const char pieces[] = "QRBNP";
    if (count == 0) {
        out.push_back(prefix);
        return;
    }
    for (int i = first; i < 5; ++i) {
        prefix.push_back(pieces[i]);
        piece_sets(count - 1, i, prefix, out);
        prefix.pop_back();
    }
}

}  // namespace

std::vector<Material> materials_up_to(int men) {
    if (men < 3 || men > MAX_MEN)
        throw JobError("tables of 3 to " + std::to_string(MAX_MEN) + " men only, not " + std::to_string(men));
    std::vector<Material> out;
    for (int n = 3; n <= men; ++n) {
        std::set<Material> seen;
        for (int white = 0; white <= n - 2; ++white) {
            std::vector<std::string> ws, bs;
            std::string prefix;
            piece_sets(white, 0, prefix, ws);
            piece_sets(n - 2 - white, 0, prefix, bs);
            for (const auto& w : ws)
                for (const auto& b : bs) seen.insert(Material::parse("K" + w + "vK" + b).canonical());
        }
        out.insert(out.end(), seen.begin(), seen.end());
    }
    return out;
}

std::optional<FileStamp> file_stamp(const std::filesystem::path& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return std::nullopt;
    return FileStamp{uint64_t(st.st_dev), uint64_t(st.st_ino), uint64_t(st.st_size),
                     int64_t(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec};
}

int JobPlan::to_build() const {
    return int(std::count_if(tables.begin(), tables.end(), [](const auto& t) { return !t.complete; }));
}

uint64_t JobPlan::entries_to_build() const {
    uint64_t n = 0;
    for (const auto& [m, entries] : work()) n += entries;
    return n;
}

std::vector<std::pair<Material, uint64_t>> JobPlan::work() const {
    std::vector<std::pair<Material, uint64_t>> out;
    for (const auto& t : tables)
        if (!t.complete) out.emplace_back(t.material, 2 * t.entries);
    return out;
}

const PlannedTable& JobPlan::table(const Material& m) const {
    const auto it =
        std::find_if(tables.begin(), tables.end(), [&](const auto& t) { return t.material == m; });
    assert(it != tables.end());
    return *it;
}

std::optional<Material> JobPlan::peak_memory_table() const {
    std::optional<Material> best;
    uint64_t peak = 0;
    for (const auto& t : tables) {
        if (t.complete) continue;
        const uint64_t bytes = t.memory.peak();
        if (!best || bytes > peak) best = t.material, peak = bytes;
    }
    return best;
}

uint64_t JobPlan::peak_memory() const {
    const auto m = peak_memory_table();
    return m ? memory(*m).peak() : 0;
}

uint64_t JobPlan::disk_needed(FileSize size) const {
    // The last table that reads m whole: m's exact copy goes once it is done.
    std::map<Material, size_t> last_reader;
    for (size_t i = 0; i < tables.size(); ++i)
        if (!tables[i].complete)
            for (const Material& sub : direct_subtables(tables[i].material)) last_reader[sub] = i;
    uint64_t written = 0, copies = 0, chain_copies = 0, peak = 0;
    std::multimap<size_t, uint64_t> copies_until;  // the job's copies, by their last reader
    std::set<Material> chains;                     // their copies stay until the job ends
    for (size_t i = 0; i < tables.size(); ++i) {
        const PlannedTable& t = tables[i];
        if (t.complete) continue;
        const Material& m = t.material;
        for (auto spent = copies_until.begin(); spent != copies_until.end() && spent->first < i;) {
            copies -= spent->second;
            spent = copies_until.erase(spent);
        }
        for (const SubtableSides& sub : completion_chain(
                 m, t.memory.promotions_in_part,
                 [this](const Material&sub, SideSet) { return completed_when_read.contains(sub); }))
            if (chains.insert(sub.material).second)
                chain_copies += exact_copy_bytes_estimate(sub.material, size);
        const uint64_t file = table_file_bytes_estimate(m, size);
        const uint64_t copy = t.settles && t.read_whole_later ? exact_copy_bytes_estimate(m, size) : 0;
        const uint64_t checkpoint = checkpoint_bytes_estimate(m, settings.ranks);
        // Solving, the old checkpoint beside the new; writing, the file beside the checkpoint; done,
        // the file and its copy.
        const uint64_t own = std::max({2 * checkpoint, checkpoint + file, file + copy});
        peak = std::max(peak, written + copies + chain_copies + own);
        written += file;
        if (copy) {
            copies += copy;
            copies_until.emplace(last_reader.at(m), copy);
        }
    }
    return peak;
}

uint64_t JobPlan::disk_total(FileSize size) const {
    uint64_t files = 0;
    for (const auto& t : tables) files += table_file_bytes_estimate(t.material, size);
    return files;
}

namespace {

// Decides how each table of the plan is held and written, in three steps as each depends on the one
// before: its memory plan, then which tables the ones to build read (in part or at all), then whether
// its file settles values by exits.
void plan_ways(JobPlan& plan) {
    const JobResources& r = plan.resources;
    const auto completed = [&plan](const Material& sub) { return plan.completed_when_read.contains(sub); };
    std::map<Material, PlannedTable*> by_material;
    for (PlannedTable& t : plan.tables) {
        t.memory = memory_plan(t.material, r.cache, r.memory_limit ? r.memory_limit : UINT64_MAX,
                               plan.settings.write.settle_exits, r.codecs, completed, r.threads,
                               plan.settings.ranks);
        by_material[t.material] = &t;
    }
    for (const PlannedTable& t : plan.tables) {
        if (t.complete) continue;
        for (const Material& sub : direct_subtables(t.material)) {
            PlannedTable& read = *by_material.at(sub);
            read.read_whole_later = true;
            if (t.memory.promotions_in_part && sub.total() == t.material.total()) read.read_in_part = true;
        }
    }
    for (PlannedTable& t : plan.tables) t.settles = plan.settings.write.settle_exits && !t.read_in_part;
}

}  // namespace

JobPlan make_plan(const std::vector<Material>& targets, const std::filesystem::path& dir,
                  const JobSettings& settings) {
    JobPlan plan;
    plan.dir = dir;
    plan.settings = settings;
    const auto start = std::chrono::steady_clock::now();
    for (const Material& m : build_order(targets)) {
        PlannedTable t;
        t.material = m;
        t.entries = IndexScheme(m).size();
        const auto stamp = file_stamp(table_path(dir, m));
        t.complete = table_file_valid(table_path(dir, m));
        if (!t.complete) t.damaged_file = stamp;
        std::error_code ec;
        t.has_checkpoint = !t.complete && std::filesystem::exists(checkpoint_path(dir, m), ec);
        if (t.has_checkpoint) t.checkpoint_ranks = checkpoint_ranks(checkpoint_path(dir, m), m);
        if (t.complete && table_file_needs_subtables(table_path(dir, m))) {
            plan.settled_complete.insert(m);
            if (!exact_copy_current(dir, m)) plan.completed_when_read.insert(m);
        }
        plan.tables.push_back(t);
    }
    plan.check_seconds = seconds_since(start);
    plan.resources = job_resources(settings);
    plan.free_disk = free_disk_bytes(dir);
    plan_ways(plan);
    return plan;
}

std::optional<std::string> refusal(const JobPlan& plan, uint64_t memory_limit,
                                   std::optional<uint64_t> free_disk) {
    for (const PlannedTable& t : plan.tables) {
        const std::optional<int> ranks = t.checkpoint_ranks;
        if (t.complete || !ranks || *ranks == plan.settings.ranks) continue;
        const std::string name = t.material.name();
        return checkpoint_path(plan.dir, t.material).string() + " was written by " +
               (*ranks == 1 ? "one process" : std::to_string(*ranks) + " ranks") +
               ", and only as many resume it: " +
               (*ranks == 1 ? "run tbgen without mpirun" : "run under mpirun -np " + std::to_string(*ranks)) +
               " to finish " + name + ", or remove " + name + ".checkpoint and the files beside it (" + name +
               ".*.checkpoint, " + name + ".*layers, " + name + ".*slices) to solve it from the start";
    }
    const uint64_t memory = plan.peak_memory();
    if (memory_limit && memory > memory_limit) {
        const Material m = *plan.peak_memory_table();
        return "this job needs about " + format_bytes(memory) + " of memory at its peak (" + m.name() + ": " +
               plan.memory(m).text() + "), more than the limit of " + format_bytes(memory_limit) +
               "; free memory, raise --memory-limit if you know better, lower --cache, or build fewer tables";
    }
    const uint64_t disk = plan.disk_needed(FileSize::Expected);
    if (free_disk && disk > *free_disk)
        return "this job needs about " + format_bytes(disk) + " of disk in " + plan.dir.string() +
               " at its peak but only " + format_bytes(*free_disk) +
               " is free; free some space, choose another -o directory, or pass " +
               "--no-disk-check if its tables compress better than most";
    return std::nullopt;
}

std::optional<std::string> refusal(const JobPlan& plan) {
    return refusal(plan, plan.resources.memory_limit,
                   plan.settings.disk_check == DiskCheck::Refuse ? plan.free_disk : std::nullopt);
}

std::optional<std::string> memory_fit(const JobPlan& plan, uint64_t limit) {
    struct Group {
        int count = 0;
        std::optional<Material> largest;
        uint64_t bytes = 0;
        void add(const Material& m, uint64_t b) {
            ++count;
            if (!largest || b > bytes) largest = m, bytes = b;
        }
        std::string largest_text() const { return largest->name() + ", " + format_bytes(bytes); }
    };
    Group fit[2], over[2];  // [has pawns]
    for (const auto& t : plan.tables) {
        if (t.complete) continue;
        const uint64_t bytes = t.memory.peak();
        (bytes <= limit ? fit : over)[t.material.has_pawns()].add(t.material, bytes);
    }
    const int over_count = over[0].count + over[1].count;
    if (limit == 0 || over_count == 0) return std::nullopt;
    auto group_text = [](const Group& g, const std::string& kind) {
        return std::to_string(g.count) + " " + kind + " (the largest, " + g.largest_text() + ")";
    };
    std::string text = std::to_string(fit[0].count + fit[1].count) + " of " +
                       std::to_string(plan.to_build()) + " tables to build fit the limit of " +
                       format_bytes(limit) + ": ";
    if (over[0].count == 0 && fit[0].count > 0)
        text += "every table without pawns (the largest, " + fit[0].largest_text() + ")";
    else if (fit[0].count > 0)
        text += group_text(fit[0], "without pawns");
    if (fit[1].count > 0) text += std::string(fit[0].count ? " and " : "") + group_text(fit[1], "with pawns");
    if (fit[0].count + fit[1].count == 0) text += "none";
    text += "; " + std::to_string(over_count) + " do not: ";
    if (over[0].count) text += group_text(over[0], "without pawns") + (over[1].count ? ", " : "");
    if (over[1].count) text += group_text(over[1], "with pawns");
    return text;
}

double schedule_seconds(const JobPlan& plan, const std::function<double(const PlannedTable&)>& seconds,
                        int workers) {
    assert(workers > 0);
    std::map<Material, double> done_at;  // when each table is complete; absent: not started
    for (const auto& t : plan.tables)
        if (t.complete) done_at[t.material] = 0;
    // Each machine's table in progress: when it ends, or nothing when the machine is idle.
    auto busy_until = std::vector<std::optional<double>>(size_t(workers));
    double now = 0, end = 0;
    auto ready = [&](const Material& m) {
        for (const Material& s : direct_subtables(m)) {
            const auto it = done_at.find(s);
            if (it == done_at.end() || it->second > now) return false;
        }
        return true;
    };
    for (;;) {
        for (auto& machine : busy_until) {
            if (machine && *machine <= now) machine.reset();
            if (machine) continue;
            for (const auto& t : plan.tables) {
                if (done_at.contains(t.material) || !ready(t.material)) continue;
                machine = now + seconds(t);
                done_at[t.material] = *machine;
                end = std::max(end, *machine);
                break;
            }
        }
        // On to the next table to end: it may make others ready.
        double next = std::numeric_limits<double>::infinity();
        for (const auto& machine : busy_until)
            if (machine && *machine > now) next = std::min(next, *machine);
        if (next == std::numeric_limits<double>::infinity()) break;  // nothing runs: all are done
        now = next;
    }
    return end;
}

void check_writable_dir(const std::filesystem::path& dir) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) throw JobError("cannot create the output directory " + dir.string() + ": " + ec.message());
    if (!std::filesystem::is_directory(dir)) throw JobError(dir.string() + " is not a directory");
    const std::filesystem::path probe = write_test_path(dir, ::getpid());
    const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        throw JobError("the output directory " + dir.string() + " is not writable: " + std::strerror(errno));
    const char block[4096] = {};
    bool ok = ::write(fd, block, sizeof block) == ssize_t(sizeof block) && ::fsync(fd) == 0;
    const int error = errno;
    ok = ::close(fd) == 0 && ok;
    ::unlink(probe.c_str());
    if (!ok)
        throw JobError("cannot write to the output directory " + dir.string() + ": " + std::strerror(error));
}

}  // namespace retro
