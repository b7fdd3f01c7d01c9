#include "solve/resume.hpp"

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

}  // namespace

std::optional<ResumedSolve> resume_solve(const Material& m, const SolveOptions& options) {
    const auto& path = options.checkpoint;
    std::error_code ec;
    if (path.empty() || !std::filesystem::exists(path, ec)) return std::nullopt;
    auto saved = read_checkpoint(path, m);
    ResumedSolve resumed;
    std::string fault;
    if (!saved)
        fault = "is damaged, of another table or of an older version";
    else if (saved->state && saved->state->window != options.window)
        fault = "was taken with another window";
    else
        try {
            if (saved->state)
                resumed.log = std::make_unique<LayerLog>(layer_log_path(path), saved->state->log_length,
                                                         saved->state->log_checksum);
            if (m.has_pawns())
                resumed.store = std::make_unique<SliceStore>(slice_store_path(path), m, saved->solved.length,
                                                             saved->solved.checksum);
        } catch (const SolveError& e) {
            fault = std::string("has no usable layer log (") + e.what() + ")";
        } catch (const StoreError& e) {
            fault = std::string("has no usable slice store (") + e.what() + ")";
        }
    if (!fault.empty()) {
        resumed.log.reset();
        resumed.store.reset();
        const auto damaged = set_aside_checkpoint(path);
        tell(m, options, std::nullopt,
             "warning: " + path.string() + " " + fault + "; " +
                 (damaged.empty() ? "removed" : "set aside as " + damaged.string()) +
                 ", solving from the start");
        return std::nullopt;
    }
    const int ply = saved->state ? saved->state->next_ply : 0;
    tell(m, options, solve_point(saved->slice, ply),
         "resuming from " + path.string() + " at " +
             (m.has_pawns() ? "slice " + std::to_string(saved->slice + 1) + ", " : "") + "ply " +
             std::to_string(ply));
    resumed.saved = std::move(*saved);
    return resumed;
}

}  // namespace retro
