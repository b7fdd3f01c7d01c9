#include "solve/scheme_solver.hpp"

#include <cassert>
#include <chrono>
#include <ostream>

#include "solve/far_codes.hpp"
#include "solve/final_values.hpp"
#include "solve/first_pass.hpp"
#include "solve/layer_sweep.hpp"
#include "solve/ranked_sweep.hpp"
#include "solve/scheme_context.hpp"

namespace retro {

namespace {

// Runs the passes in order, reports them, and checkpoints or stops between plies.
class SchemeSolver {
public:
    SchemeSolver(const SchemeSetup& setup, std::optional<SweepState> resumed, std::unique_ptr<LayerLog> log)
        : c_(setup, std::move(resumed)), log_(std::move(log)) {}

    SolvedScheme run() {
        assert(!ranks_ || c_.setup.traffic);
        last_checkpoint_ = std::chrono::steady_clock::now();
        const Control& control = c_.options.control;
        if (c_.state.codes[WHITE].empty()) {
            log_ = std::make_unique<LayerLog>(c_.setup.log_path, 0, 0);
            control.time(Control::Phase::FirstPass, [&] {
                first_pass(c_);
                abandon_first_pass_if_stopped();
            });
            report("captures, promotions, pushes, mates and stalemates");
            if (ranks_) agree_on_longest(c_, *ranks_);
            after_ply(0);
        }
        control.time(Control::Phase::Sweeps, [&] {
            for (int n = c_.state.next_ply; n <= c_.max_value.load(); ++n) {
                if (n % c_.window.refresh() == 0) refresh_far(c_, n);
                report_ply(n, ranks_ ? sweep_ply_on_ranks(c_, *log_, n, *ranks_, *c_.setup.traffic)
                                     : sweep_ply(c_, *log_, n));
                after_ply(n + 1);
            }
        });
        SolvedScheme values =
            control.time(Control::Phase::FinalValues, [&] { return final_values(c_, *log_); });
        report("reading back the layer log's " + std::to_string(log_->length()) + " bytes");
        return values;
    }

private:
    // Between plies: checkpoint when due or when asked to stop, then stop if asked.
    void after_ply(int next_ply) {
        c_.state.next_ply = next_ply;
        const bool stop = c_.stop_requested();
        const auto now = std::chrono::steady_clock::now();
        const bool due = !c_.options.checkpoint.empty() &&
                         due_everywhere(std::chrono::duration<double>(now - last_checkpoint_).count() >=
                                            c_.options.checkpoint_seconds,
                                        ranks_);
        if (!c_.options.checkpoint.empty() && (stop || due)) {
            log_->sync();
            c_.state.max_value = c_.max_value.load();
            c_.state.window = c_.window.size();
            c_.state.log_length = log_->length();
            c_.state.log_checksum = log_->checksum();
            c_.setup.write_checkpoint(&c_.state);
            last_checkpoint_ = std::chrono::steady_clock::now();
            report("checkpoint at ply " + std::to_string(next_ply));
        }
        if (stop)
            throw Stopped(Stopped::Work::Solving,
                          c_.setup.label + ": stopped at ply " + std::to_string(next_ply));
    }

    // The first pass keeps no checkpoint of its own (it takes a minute or two at most): a stop there
    // drops its work, and it starts over when resumed.
    void abandon_first_pass_if_stopped() {
        if (!c_.stop_requested()) return;
        log_.reset();  // no checkpoint names it
        if (!c_.setup.log_path.empty()) std::filesystem::remove(c_.setup.log_path);
        if (!c_.options.checkpoint.empty()) c_.setup.write_checkpoint(nullptr);
        throw Stopped(Stopped::Work::Solving,
                      c_.setup.label + ": stopped in its first pass, which starts over when resumed");
    }

    void report(const std::string& what) const {
        if (!c_.options.control.lines || c_.setup.ply_lines == PlyLines::Omit) return;
        *c_.options.control.lines << c_.setup.label << ": " << what << " done, " << elapsed() << " s\n";
    }
    void report_ply(int n, uint64_t found) const {
        if (!c_.options.control.lines || c_.setup.ply_lines == PlyLines::Omit) return;
        *c_.options.control.lines << c_.setup.label << ": " << (n % 2 ? "won" : "lost") << " in " << n << ": "
                                  << found << " entries, " << elapsed() << " s\n";
    }
    double elapsed() const {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - c_.setup.start).count();
    }

    SchemeContext c_;
    Ranks* const ranks_ = c_.options.ranks;
    std::unique_ptr<LayerLog> log_;
    std::chrono::steady_clock::time_point last_checkpoint_;
};

}  // namespace

SolvedScheme solve_scheme(const SchemeSetup& s, std::optional<SweepState> resumed,
                          std::unique_ptr<LayerLog> log) {
    return SchemeSolver(s, std::move(resumed), std::move(log)).run();
}

}  // namespace retro
