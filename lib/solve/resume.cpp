#include "solve/resume.hpp"

#include <algorithm>
#include <ostream>

#include "store/store_error.hpp"

namespace retro {

namespace {

void tell(const Material& m, const SolveOptions& options, std::optional<SolvePoint> resumed_at,
          const std::string& message) {
    if (options.checkpoint_found)
        options.checkpoint_found(resumed_at, message);
    else if (options.control.lines)
        *options.control.lines << m.name() << ": " << message << "\n";
}

SolvePoint point_of(const Checkpoint& c) { return solve_point(c.slice, c.state ? c.state->next_ply : 0); }

// What this process found of its part: a checkpoint, and a next one (written before the ranks
// renamed theirs). Either may be missing or refused.
struct Found {
    std::optional<Checkpoint> current, next;
    bool any_file = false;  // even a refused one
};

Found find_checkpoints(const Material& m, const SolveOptions& options, RankPart part) {
    Found f;
    std::error_code ec;
    const auto path = options.checkpoint, next = next_checkpoint_path(path);
    const auto read = [&](const std::filesystem::path& p) -> std::optional<Checkpoint> {
        if (!std::filesystem::exists(p, ec)) return std::nullopt;
        f.any_file = true;
        auto c = read_checkpoint(p, m, part);
        if (c && c->state && c->state->window != options.window) return std::nullopt;
        return c;
    };
    f.current = read(path);
    f.next = read(next);
    return f;
}

// The point every rank can resume at: ranks write their next checkpoints, and only once all are on
// disk rename them, so the latest point all ranks hold is the last one they all wrote.
std::optional<SolvePoint> agreed_point(const Found& f, Ranks* ranks) {
    std::vector<SolvePoint> held;
    for (const auto* c : {&f.current, &f.next})
        if (*c) held.push_back(point_of(**c));
    if (!ranks) return held.empty() ? std::nullopt : std::optional(std::ranges::max(held));
    // A point is offered to the others as point + 1, 0 for none.
    const auto offered = [](std::optional<SolvePoint> p) { return p ? uint64_t(*p) + 1 : 0; };
    const std::optional<SolvePoint> latest =
                                        held.empty() ? std::nullopt : std::optional(std::ranges::max(held)),
                                    earliest =
                                        held.empty() ? std::nullopt : std::optional(std::ranges::min(held));
    for (const uint64_t candidate : {ranks->max(offered(latest)), ranks->max(offered(earliest))}) {
        if (candidate == 0) return std::nullopt;
        const SolvePoint p = SolvePoint(candidate - 1);
        if (ranks->sum(std::ranges::count(held, p) > 0) == uint64_t(ranks->size())) return p;
    }
    return std::nullopt;
}

// Moves this process's checkpoint files out of the way; returns what became of its own.
std::string set_aside(const std::filesystem::path& path) {
    std::error_code ec;
    std::filesystem::remove(next_checkpoint_path(path), ec);
    if (!std::filesystem::exists(path, ec)) return "removed";
    const auto damaged = set_aside_checkpoint(path);
    return damaged.empty() ? "removed" : "set aside as " + damaged.string();
}

}  // namespace

std::optional<ResumedSolve> resume_solve(const Material& m, const SolveOptions& options) {
    const auto& path = options.checkpoint;
    Ranks* const ranks = options.ranks;
    const RankPart part = ranks ? RankPart{ranks->rank(), ranks->size()} : RankPart{};
    if (path.empty()) return std::nullopt;
    Found found = find_checkpoints(m, options, part);
    // Every rank goes on together: to the agreement when any found a file.
    if (!(ranks ? ranks->max(found.any_file) : found.any_file)) return std::nullopt;
    const std::optional<SolvePoint> point = agreed_point(found, ranks);
    ResumedSolve resumed;
    std::string fault;
    if (!point) {
        fault = ranks ? "has no point every rank holds (damaged, of another table or of an older version)"
                      : "is damaged, of another table, of an older version or taken with another window";
    } else {
        const bool current = found.current && point_of(*found.current) == *point;
        resumed.saved = std::move(current ? *found.current : *found.next);
        try {
            if (resumed.saved.state)
                resumed.log = std::make_unique<LayerLog>(
                    layer_log_path(path), resumed.saved.state->log_length, resumed.saved.state->log_checksum);
            if (m.has_pawns())
                resumed.store = std::make_unique<SliceStore>(
                    slice_store_path(path), m, resumed.saved.solved.length, resumed.saved.solved.checksum);
        } catch (const SolveError& e) {
            fault = std::string("has no usable layer log (") + e.what() + ")";
        } catch (const StoreError& e) {
            fault = std::string("has no usable slice store (") + e.what() + ")";
        }
        if (ranks && ranks->sum(fault.empty()) != uint64_t(ranks->size()) && fault.empty())
            fault = "cannot be resumed by every rank (another rank's files are not usable)";
        // The point agreed on becomes this rank's checkpoint; a later one not every rank wrote goes.
        std::error_code ec;
        if (fault.empty() && !current) std::filesystem::rename(next_checkpoint_path(path), path, ec);
        if (fault.empty()) std::filesystem::remove(next_checkpoint_path(path), ec);
    }
    if (!fault.empty()) {
        resumed.log.reset();
        resumed.store.reset();
        const std::string became = set_aside(path);
        tell(m, options, std::nullopt,
             "warning: " + path.string() + " " + fault + "; " + became + ", solving from the start");
        return std::nullopt;
    }
    const int ply = resumed.saved.state ? resumed.saved.state->next_ply : 0;
    tell(m, options, *point,
         "resuming from " + path.string() + " at " +
             (m.has_pawns() ? "slice " + std::to_string(resumed.saved.slice + 1) + ", " : "") + "ply " +
             std::to_string(ply) + (ranks ? " on " + std::to_string(ranks->size()) + " ranks" : ""));
    return resumed;
}

}  // namespace retro
