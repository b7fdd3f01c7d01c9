#include "solve/solver.hpp"

#include <tbb/task_arena.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <ostream>

#include "index/pawn_slices.hpp"
#include "index/rank_split.hpp"
#include "parallel/parallel_for.hpp"
#include "solve/ranked_sweep.hpp"
#include "solve/ranked_table.hpp"
#include "solve/resume.hpp"
#include "solve/scheme_solver.hpp"
#include "solve/solved_slices.hpp"

namespace retro {

namespace {

// A slice solved alone (its loops parallel, with checkpoints), or beside the others of its wave.
enum class SliceRun { Alone, InWave };

// A pawn table reports its progress at most about this many times, whatever its number of slices (a
// wave of slices solved side by side reports once). The slices of a table with fewer slices than that
// report each ply too, as a whole table does, when they are solved alone (not in waves): KRPvKR's 24
// slices of 13.9 M entries do.
constexpr uint64_t SLICE_LINES = 100;

// Solves a table: a pawnless one as one scheme, a pawn table slice by slice, in waves of small
// slices side by side; resumes from a checkpoint and writes them.
class TableSolver {
public:
    TableSolver(const Material& m, const SubtableSource& tables, const SolveOptions& options)
        : material_(m),
          tables_(tables),
          options_(options),
          in_wave_(options),
          start_(std::chrono::steady_clock::now()),
          configs_(m.has_pawns() ? pawn_configs(m) : std::vector<PawnConfig>{}) {
        in_wave_.control.lines = nullptr;
        in_wave_.control.timed = nullptr;  // a wave is timed whole
        in_wave_.checkpoint.clear();
        in_wave_.ranks = nullptr;  // one rank solves each slice of a wave
        for (int k = 0; k < int(configs_.size()); ++k) slice_number_[configs_[size_t(k)]] = k;
    }

    SolvedTable run() {
        auto resumed = resume_solve(material_, options_);
        if (resumed) log_ = std::move(resumed->log);
        SolvedTable solved = material_.has_pawns() ? solve_slices(resumed) : solve_whole(resumed);
        if (options_.ranks) {
            const std::string traffic = traffic_text(*options_.ranks, traffic_);
            if (options_.control.lines)
                *options_.control.lines << material_.name() << ": " << traffic << "\n";
        }
        return solved;
    }

private:
    SolvedTable solve_whole(std::optional<ResumedSolve>& resumed) {
        const IndexScheme scheme(material_);
        const ExitProbe exits(scheme, tables_);
        if (options_.ranks) count_on_ranks(scheme, Held::SplitByKingPair, nullptr);
        auto values =
            solve_scheme(setup(scheme, exits, 0, material_.name(), PlyLines::Report, SliceRun::Alone),
                         resumed ? std::move(resumed->saved.state) : std::nullopt, std::move(log_));
        SolvedTable solved = options_.ranks
                                 ? gather_table(material_, std::move(values), *options_.ranks)
                                 : SolvedTable{std::make_unique<Table>(material_, std::move(values.bytes),
                                                                       std::move(values.long_values)),
                                               nullptr, std::move(values.survey)};
        if (solved.survey) count_legal_values(*solved.whole, *solved.survey);
        return solved;
    }

    // How much of a scheme solved on several ranks this rank held.
    enum class Held { SplitByKingPair, Whole, None };

    // Counts a scheme solved on ranks for the table's traffic line: its entries, those this rank
    // held, and the values it sends the others (`sent`, when it hands them a slice), with its survey,
    // which goes to rank 0 alone.
    void count_on_ranks(const IndexScheme& scheme, Held held, const SolvedScheme* sent) {
        Ranks& ranks = *options_.ranks;
        traffic_.entries += scheme.size();
        if (held == Held::SplitByKingPair)
            traffic_.held += king_pair_ranges(scheme, ranks.size())[size_t(ranks.rank())].size();
        if (held == Held::Whole) traffic_.held += scheme.size();
        if (!sent) return;
        uint64_t bytes = 0, survey_words = 0;
        for (int side = 0; side < 2; ++side) {
            bytes += sent->bytes[side].size() + sent->long_values[side].size() * sizeof(Table::LongValue);
            if (sent->survey && !ranks.leads())
                survey_words +=
                    sent->survey->legal.words[side].size() + sent->survey->settled.words[side].size();
        }
        traffic_.slice_bytes += bytes * uint64_t(ranks.size() - 1) + survey_words * sizeof(uint64_t);
    }

    std::filesystem::path log_path() const {
        return options_.checkpoint.empty() ? std::filesystem::path() : layer_log_path(options_.checkpoint);
    }

    // Writes the checkpoint of slice `slice` (its sweeps' state, or none when it has not begun) and of
    // the slices solved before it, which the slice store holds. Ranks each write theirs under the next
    // name, and rename it once every rank has: a rank lost meanwhile leaves a point all hold.
    void checkpoint(int slice, const SweepState* state) {
        const StoredSlices solved = solved_ ? solved_->stored() : StoredSlices{};
        if (!options_.ranks) {
            write_checkpoint(options_.checkpoint, material_, slice, state, solved);
        } else {
            const auto next = next_checkpoint_path(options_.checkpoint);
            write_checkpoint(next, material_, slice, state, solved,
                             {options_.ranks->rank(), options_.ranks->size()});
            options_.ranks->barrier();
            std::filesystem::rename(next, options_.checkpoint);
        }
        if (options_.checkpoint_written)
            options_.checkpoint_written(solve_point(slice, state ? state->next_ply : 0));
    }

    // How the sweeps of a scheme report and checkpoint: a pawnless table or a slice alone, or a small
    // slice solved beside the others of its wave (no lines, no checkpoints, an anonymous layer log).
    SchemeSetup setup(const IndexScheme& scheme, const ExitProbe& exits, int slice, const std::string& label,
                      PlyLines ply_lines, SliceRun run) {
        if (run == SliceRun::InWave) return {scheme, exits, in_wave_, label, PlyLines::Omit, start_, {}, {}};
        return {scheme,
                exits,
                options_,
                label,
                ply_lines,
                start_,
                [this, slice](const SweepState* state) {
                    // A pawnless table's first pass leaves nothing to keep; a slice's leaves the slices
                    // before it.
                    if (state || material_.has_pawns()) checkpoint(slice, state);
                },
                log_path(),
                &traffic_};
    }

    // The slices in order, each solved before those its pushes reach. The slices of one wave (equal
    // advance) cannot reach one another: small ones are solved side by side, a thread each.
    SolvedTable solve_slices(std::optional<ResumedSolve>& resumed) {
        const auto& configs = configs_;
        const int first = resumed ? resumed->saved.slice : 0;
        solved_.emplace(material_, configs_, options_, resumed ? std::move(resumed->store) : nullptr, first);
        const int slices = int(configs.size());
        const int line_every = std::max(1, slices / int(SLICE_LINES));
        const bool few_slices = slices <= int(SLICE_LINES);
        options_.control.tell(Control::Count::SlicesSolved, first, slices);
        for (int k = first; k < slices;) {
            if (k > first && options_.control.stop_requested()) {
                if (!options_.checkpoint.empty()) checkpoint(k, nullptr);
                throw Stopped(Stopped::Work::Solving,
                              material_.name() + ": stopped before slice " + std::to_string(k + 1));
            }
            const bool resumed_here = k == first && resumed && resumed->saved.state;
            const int end = resumed_here ? k + 1 : wave_end(configs, k);
            std::vector<SolvedSlice> solved;
            if (end - k == 1) {
                std::optional<SweepState> state;
                if (resumed_here) state = std::move(resumed->saved.state);
                const IndexScheme scheme(material_, configs[size_t(k)]);
                const bool lines = few_slices && !solved_in_waves(material_, options_.waves_below);
                solved.push_back(
                    solve_slice(scheme, k, lines ? PlyLines::Report : PlyLines::Omit, std::move(state)));
            } else {
                solved =
                    options_.control.time(Control::Phase::Waves, [&] { return solve_wave(configs, k, end); });
            }
            options_.control.tell(Control::Count::SlicesSolved, end, slices);
            // The slices of a wave end together: one line for the wave when a line falls in it.
            bool line_due = false;
            for (int j = k; j < end; ++j) {
                solved_->add(j, std::move(solved[size_t(j - k)]));
                line_due = line_due || (j + 1) % line_every == 0 || j + 1 == slices;
            }
            if (options_.control.lines && line_due)
                *options_.control.lines << label(end - 1, slices) << " done, " << elapsed() << " s\n";
            // A slice solved alone hands the layer log to the next, which starts it anew: the checkpoint
            // must name that slice, not the state whose log is lost.
            if (end - k == 1 && end < slices && !options_.checkpoint.empty()) checkpoint(end, nullptr);
            if (end - k > 1 && end < slices) checkpoint_batch_if_due(end);
            k = end;
        }
        // Every slice solved: a stop while the table is written resumes with the writing, and the layer
        // log of the last slice is done with.
        if (!options_.checkpoint.empty() && first < slices) {
            checkpoint(slices, nullptr);
            std::filesystem::remove(log_path());
        }
        if (options_.ranks && !options_.ranks->leads()) return {};  // rank 0 writes the table
        return options_.control.time(Control::Phase::Assembly, [&] { return solved_->finish(); });
    }

    std::string label(int k, int slices) const {
        return material_.name() + " slice " + std::to_string(k + 1) + " of " + std::to_string(slices);
    }

    // The end of the slices to solve side by side from k: a batch of k's wave when its slices are
    // small (dealt to the ranks, when there are several), else k alone (a large slice's loops are
    // parallel themselves, and it is split over the ranks).
    int wave_end(const std::vector<PawnConfig>& configs, int k) const {
        if (!solved_in_waves(material_, options_.waves_below)) return k + 1;
        const int ranks = options_.ranks ? options_.ranks->size() : 1;
        return wave_batch_end(configs, k, tbb::this_task_arena::max_concurrency() * ranks);
    }

    // After a batch of a wave, whose slices checkpoint nothing themselves: a checkpoint when due.
    void checkpoint_batch_if_due(int end) {
        if (options_.checkpoint.empty()) return;
        const std::chrono::duration<double> since = std::chrono::steady_clock::now() - last_batch_checkpoint_;
        if (!due_everywhere(since.count() >= options_.checkpoint_seconds, options_.ranks)) return;
        checkpoint(end, nullptr);
        last_batch_checkpoint_ = std::chrono::steady_clock::now();
    }

    // Solves slice k (`scheme`) alone, from its resumed state when given. Split over the ranks, the
    // slice is then put together at every rank, as one process holds it: for later slices' pushes,
    // and for the file.
    SolvedSlice solve_slice(const IndexScheme& scheme, int k, PlyLines ply_lines,
                            std::optional<SweepState> state) {
        SolvedScheme values = slice_values(scheme, k, ply_lines, SliceRun::Alone, std::move(state));
        if (options_.ranks) {
            count_on_ranks(scheme, Held::SplitByKingPair, &values);
            values = gather_everywhere(scheme, std::move(values), *options_.ranks);
        }
        return as_slice(scheme, std::move(values));
    }

    // The values of slice k: of this rank's king pairs when it is solved alone by several ranks.
    SolvedScheme slice_values(const IndexScheme& scheme, int k, PlyLines ply_lines, SliceRun run,
                              std::optional<SweepState> state) {
        const bool in_wave = run == SliceRun::InWave;
        const SolveOptions& options = in_wave ? in_wave_ : options_;
        const ExitProbe exits(scheme, tables_, push_targets(scheme.slice_config()),
                              options.promotions_in_part
                                  ? read_promotions(scheme, tables_, options.control.stop)
                                  : PromotionTargets{});
        const std::string name = label(k, int(configs_.size()));
        return solve_scheme(setup(scheme, exits, k, name, ply_lines, run), std::move(state),
                            in_wave ? nullptr : std::move(log_));
    }

    static SolvedSlice as_slice(const IndexScheme& scheme, SolvedScheme&& values) {
        return {Table(scheme, std::move(values.bytes), std::move(values.long_values)),
                std::move(values.survey)};
    }

    // Solves the small slices [k, end) of one wave side by side, each by one thread, without
    // checkpoints of their own: a stop drops the wave, which starts over when resumed. Of several
    // ranks, each solves the slices dealt to it (slice j to rank (j - k) mod ranks), then hands them
    // to the others.
    std::vector<SolvedSlice> solve_wave(const std::vector<PawnConfig>& configs, int k, int end) {
        const int ranks = options_.ranks ? options_.ranks->size() : 1,
                  rank = options_.ranks ? options_.ranks->rank() : 0;
        const auto dealt_to = [&](int j) { return (j - k) % ranks; };
        std::vector<SolvedScheme> values(size_t(end - k));
        try {
            par::parallel_for(k, end, [&](int j) {
                if (dealt_to(j) != rank) return;
                const IndexScheme scheme(material_, configs[size_t(j)]);
                values[size_t(j - k)] =
                    slice_values(scheme, j, PlyLines::Omit, SliceRun::InWave, std::nullopt);
            });
        } catch (const Stopped& e) {
            if (e.work() != Stopped::Work::Solving) throw;
            if (!options_.checkpoint.empty()) checkpoint(k, nullptr);
            throw Stopped(Stopped::Work::Solving,
                          material_.name() + ": stopped before slice " + std::to_string(k + 1));
        }
        std::vector<SolvedSlice> out;
        for (int j = k; j < end; ++j) {
            SolvedScheme& v = values[size_t(j - k)];
            const IndexScheme scheme(material_, configs[size_t(j)]);
            if (options_.ranks) {
                const bool own = dealt_to(j) == rank;
                count_on_ranks(scheme, own ? Held::Whole : Held::None, own ? &v : nullptr);
                v = shared_from(scheme, std::move(v), dealt_to(j), *options_.ranks);
            }
            out.push_back(as_slice(scheme, std::move(v)));
        }
        return out;
    }

    // The slices that the pushes of slice c reach, all solved before it.
    PushTargets push_targets(const PawnConfig& c) const {
        PushTargets targets;
        for (const SliceReached& r : slices_reached(material_, c))
            if (r.material == material_)
                targets.push_back(solved_->reached(slice_number_.at(r.config), r.sides));
        return targets;
    }

    double elapsed() const {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    }

    const Material material_;
    const SubtableSource& tables_;
    const SolveOptions& options_;
    SolveOptions in_wave_;  // for the slices solved side by side: no lines, no checkpoints, one rank
    const std::chrono::steady_clock::time_point start_;
    std::chrono::steady_clock::time_point last_batch_checkpoint_ = start_;
    const std::vector<PawnConfig> configs_;  // a pawn table's slices, in the order they are solved
    std::map<PawnConfig, int> slice_number_;
    std::unique_ptr<LayerLog> log_;       // of a resumed checkpoint
    std::optional<SolvedSlices> solved_;  // a pawn table's
    RankTraffic traffic_;                 // of a table solved by several ranks
};

}  // namespace

SolvedTable solve_table(const Material& m, const SubtableSource& subtables, const SolveOptions& options) {
    return TableSolver(m, subtables, options).run();
}

std::unique_ptr<Table> solve_in_memory(const Material& m, const SubtableSource& subtables,
                                       const SolveOptions& options) {
    SolvedTable solved = solve_table(m, subtables, options);
    return solved.whole ? std::move(solved.whole) : whole_table(*solved.slices);
}

}  // namespace retro
