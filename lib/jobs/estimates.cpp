#include "jobs/estimates.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <stdexcept>

#include "index/dependencies.hpp"
#include "index/index_scheme.hpp"
#include "index/pawn_slices.hpp"
#include "index/rank_split.hpp"
#include "jobs/completion_chain.hpp"
#include "solve/estimates.hpp"
#include "solve/ranked_sweep.hpp"
#include "solve/solver.hpp"
#include "store/block_cache.hpp"

namespace retro {

uint64_t table_memory_bytes(const Material& m) { return 2 * IndexScheme(m).size(); }

namespace {

// Which of the tables a material's exits reach: those with as many men (the promotions that capture
// nothing), those with fewer, or all.
enum class Reached { SameMen, FewerMen, All };

// A byte per entry of each side to move of the tables that the exits of `movers` in m reach.
uint64_t subtables_bytes(const Material& m, Reached which, SideSet movers = BOTH_SIDES) {
    uint64_t bytes = 0;
    for (const auto& [sub, sides] : direct_subtable_sides(m, movers))
        if (which == Reached::All || (sub.total() == m.total()) == (which == Reached::SameMen))
            bytes += table_memory_bytes(sub) / 2 * uint64_t(std::popcount(unsigned(sides)));
    return bytes;
}

// What completing sub-table `sub`, read for `sides` to move, holds besides it: the tables its exits
// reach from those sides, and a side's new values while they replace the old
// (probe/successors.hpp). Kept once computed: the tables of a plan share their sub-tables, and each
// table's ways are tried in turn (memory_plan).
uint64_t completion_bytes(const Material& sub, SideSet sides) {
    static std::mutex mutex;
    static std::map<std::pair<Material, SideSet>, uint64_t> known;
    std::lock_guard lock(mutex);
    const auto [it, first] = known.try_emplace({sub, sides}, 0);
    if (first) it->second = subtables_bytes(sub, Reached::All, sides) + table_memory_bytes(sub) / 2;
    return it->second;
}

// The most that completing one table of m's completion chain (jobs/completion_chain.hpp) holds: the
// table for the sides read and its completion; of the tables `completed_when_read` names (every one
// when empty).
uint64_t completing_bytes(const Material& m, bool promotions_in_part,
                          const std::function<bool(const Material&)>& completed_when_read) {
    uint64_t most = 0;
    const auto chain = completion_chain(m, promotions_in_part, [&](const Material& sub, SideSet) {
        return !completed_when_read || completed_when_read(sub);
    });
    for (const auto& [sub, sides] : chain)
        most = std::max(most, table_memory_bytes(sub) / 2 * uint64_t(std::popcount(unsigned(sides))) +
                                  completion_bytes(sub, sides));
    return most;
}

// MemoryPlan::probe_cache of m's promotions read in part, of the tables `completed_when_read` names
// (every one when empty).
uint64_t probe_cache_bytes(const Material& m,
                           const std::function<bool(const Material&)>& completed_when_read) {
    uint64_t probed = 0;
    for (const Material& sub : direct_subtables(m))
        if (sub.total() == m.total() && (!completed_when_read || completed_when_read(sub)))
            probed += table_memory_bytes(sub);
    return std::min<uint64_t>(probed, BlockCache::DEFAULT_BYTES);
}

std::string bytes_text(const char* what, uint64_t bytes) {
    return std::string(what) + " " + format_bytes(bytes);
}

// The update batches of a round of a ply's sweep on ranks (MemoryPlan::exchange), 8 bytes an update:
// the budget a rank receives at most, and its share of it that it sends (but no more updates than a
// rank has entries).
uint64_t exchange_bytes(const IndexScheme& scheme, int ranks) {
    const uint64_t received = std::min(exchange_budget(scheme, ranks, SolveOptions{}.exchange_round_updates),
                                       largest_rank_entries(scheme, ranks));
    return (received + exchange_share(received, ranks)) * sizeof(uint64_t);
}

}  // namespace

MemoryPlan memory_plan(const Material& m, uint64_t cache, uint64_t limit, bool settles, uint64_t codecs,
                       const std::function<bool(const Material&)>& completed_when_read, int threads,
                       int ranks) {
    MemoryPlan plan;
    plan.codecs = codecs;
    const uint64_t table = table_memory_bytes(m);
    // A table in memory that exits settle has a survey (solve/exit_settled.hpp), which the solver
    // finds as it goes and the writer takes.
    const uint64_t entries = IndexScheme(m).size();
    const uint64_t survey = settles ? survey_bytes(entries) : 0;
    plan.captures = subtables_bytes(m, Reached::FewerMen);
    plan.completing = completing_bytes(m, false, completed_when_read);
    if (!m.has_pawns() && ranks > 1) {
        // Each rank's state and survey of its king pairs. Rank 0 gathers the table and the survey
        // (solve/ranked_table.hpp), the survey a quarter at a time (one kind of bits, one side): the
        // last quarter received and placed beside the three placed before it.
        const uint64_t held = largest_rank_entries(IndexScheme(m), ranks);
        plan.ranks = ranks;
        plan.state = sweep_state_bytes(held) + (settles ? survey_bytes(held) : 0);
        plan.exchange = exchange_bytes(IndexScheme(m), ranks);
        plan.writing = table + survey + survey / 4;
        return plan;
    }
    if (!m.has_pawns()) {
        plan.state = sweep_state_bytes(entries) + survey;
        plan.writing = table + survey;
        return plan;
    }
    const uint64_t slice = slice_entries(m);  // per side: both images
    const uint64_t whole_promotions = subtables_bytes(m, Reached::SameMen);
    // On several ranks a slice is split over them by king pair, or solved by one rank beside the
    // others of its wave when small, then held whole at every rank for the pushes of the slices after
    // it (solve/solver.cpp). Each rank finds the survey of what it solves and sends it to rank 0,
    // which gathers the table's as one process does, and writes the table.
    uint64_t rank_share = 0;
    if (ranks > 1) {
        plan.ranks = ranks;
        rank_share = solved_in_waves(m) ? slice * slices_at_once(m, threads) : 0;
        for (const PawnConfig& c : pawn_configs(m)) {
            const IndexScheme scheme(m, c);
            rank_share = std::max(rank_share, largest_rank_entries(scheme, ranks));
            plan.exchange = std::max(plan.exchange, exchange_bytes(scheme, ranks));
        }
    }
    const struct {
        bool on_disk, in_part;
    } ways[] = {{false, false}, {true, false}, {false, true}, {true, true}};  // the fastest first
    // A slice's survey is a quarter of its values' bytes.
    const auto with_survey = [settles](uint64_t values) { return values + (settles ? values / 4 : 0); };
    for (const auto& way : ways) {
        plan.slices_on_disk = way.on_disk;
        plan.promotions_in_part = way.in_part;
        // The slices in progress find their surveys. Held in memory, the solved slices' are merged into
        // the table's as they come (rank 0 every rank's, on ranks); the slice store keeps them on disk.
        if (ranks > 1) {
            plan.state = sweep_state_bytes(rank_share) + (settles ? survey_bytes(rank_share) : 0);
            plan.gathered_survey = way.on_disk ? 0 : survey;
        } else {
            plan.state = sweep_state_bytes(slice) * slices_at_once(m, threads) +
                         (way.on_disk && settles ? survey_bytes(slice) * slices_at_once(m, threads) : survey);
        }
        // With the slices on disk, a slice reads back those its pushes reach, and a batch of a wave
        // holds its solved slices until it ends (on ranks, every rank's share of the batch, and a split
        // slice put together whole), with their surveys.
        plan.own = way.on_disk
                       ? pushed_slices_bytes(m, threads) +
                             with_survey(wave_batch_bytes(m, threads * ranks) + (ranks > 1 ? 2 * slice : 0))
                       : table;
        plan.promotions = way.in_part ? promotions_in_part_bytes(m, threads) : whole_promotions;
        plan.completing = completing_bytes(m, way.in_part, completed_when_read);
        plan.probe_cache = way.in_part ? probe_cache_bytes(m, completed_when_read) : 0;
        // Read back from the store: the slices kept, and those the blocks in flight and the digit
        // order's sampled block still use once dropped, with their surveys.
        plan.writing = way.on_disk ? with_survey(writer_slice_cache_bytes(m) + 2 * slice) : table + survey;
        if (plan.own_and_promotions() <= cache && plan.peak() <= limit) break;
    }
    return plan;
}

uint64_t in_memory_solve_bytes(const Material& m, int threads) {
    uint64_t subtables = 0;
    for (const Material& sub : direct_subtables(m)) subtables += table_memory_bytes(sub);
    if (!m.has_pawns()) return PROCESS_BYTES + subtables + sweep_state_bytes(IndexScheme(m).size());
    const uint64_t table = table_memory_bytes(m);
    const uint64_t solving = sweep_state_bytes(slice_entries(m)) * slices_at_once(m, threads) + table;
    return PROCESS_BYTES + subtables + std::max(solving, 2 * table);
}

std::string MemoryPlan::text() const {
    std::string s = (ranks > 1 ? "per rank of " + std::to_string(ranks) + ": " : std::string()) + "solving " +
                    format_bytes(solving()) + " (" + bytes_text("process", PROCESS_BYTES) +
                    (codecs ? ", " + bytes_text("codecs", codecs) : std::string()) + ", " +
                    bytes_text("state", state);
    if (own) s += ", " + bytes_text(slices_on_disk ? "own slices read back" : "own values", own);
    if (promotions)
        s += (own && slices_on_disk && promotions_in_part ? " or " : ", ") +
             bytes_text(promotions_in_part ? "promotions in part" : "promotions", promotions);
    if (exchange) s += ", " + bytes_text("updates exchanged", exchange);
    if (gathered_survey) s += ", " + bytes_text("survey at rank 0", gathered_survey);
    s += ", " + bytes_text("captures", captures);
    if (probe_cache) s += ", " + bytes_text("probe cache", probe_cache);
    s += std::string("), writing ") + (ranks > 1 ? "(rank 0) " : "") + format_bytes(written()) +
         ", reading sub-tables " + format_bytes(reading());
    return s;
}

uint64_t checkpoint_bytes_estimate(const Material& m, int ranks) { return checkpoint_bytes(m, ranks); }

std::optional<uint64_t> available_memory_bytes() {
    std::ifstream in("/proc/meminfo");
    std::string key;
    uint64_t kib = 0;
    std::string unit;
    while (in >> key >> kib) {
        std::getline(in, unit);
        if (key == "MemAvailable:") return kib * 1024;
    }
    return std::nullopt;
}

uint64_t parse_bytes(const std::string& text) {
    std::size_t end = 0;
    double value = 0;
    try {
        value = std::stod(text, &end);
    } catch (const std::exception&) {
        throw std::invalid_argument("'" + text + "' is not a size (examples: 8G, 512M, 1.5T)");
    }
    std::string unit = text.substr(end);
    while (!unit.empty() && unit.front() == ' ') unit.erase(0, 1);
    for (char& c : unit) c = char(std::toupper(static_cast<unsigned char>(c)));
    if (unit.size() > 1 && (unit.ends_with("IB") || unit.ends_with("B")))
        unit.erase(unit.size() - (unit.ends_with("IB") ? 2 : 1));
    int shift = -1;
    if (unit.empty() || unit == "B") shift = 0;
    if (unit == "K") shift = 10;
    if (unit == "M") shift = 20;
    if (unit == "G") shift = 30;
    if (unit == "T") shift = 40;
    if (shift < 0 || value < 0 || !std::isfinite(value))
        throw std::invalid_argument("'" + text + "' is not a size (examples: 8G, 512M, 1.5T)");
    return uint64_t(std::llround(std::ldexp(value, shift)));
}

std::string format_bytes(uint64_t bytes) {
    static const char* const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = double(bytes);
    int u = 0;
    while (v >= 1024 && u < 4) v /= 1024, ++u;
    char buf[32];
    if (u == 0)
        std::snprintf(buf, sizeof buf, "%llu B", static_cast<unsigned long long>(bytes));
    else
        std::snprintf(buf, sizeof buf, v < 10 ? "%.2f %s" : v < 100 ? "%.1f %s" : "%.0f %s", v, units[u]);
    return buf;
}

}  // namespace retro
