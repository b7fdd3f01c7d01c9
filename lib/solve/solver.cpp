#include "solve/solver.hpp"

#include <malloc.h>
#include <tbb/blocked_range.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <map>
#include <ostream>

#include "index/pawn_slices.hpp"
#include "parallel/parallel_for.hpp"
#include "solve/huge_pages.hpp"
#include "solve/scheme_solver.hpp"
#include "store/store_error.hpp"

namespace retro {

namespace {

// A pawn table reports its progress about this many times, whatever its number of slices. The slices
// of a table with fewer slices than that report each ply too, as a whole table does, when they are
// solved alone (not in waves): KRPvKR's 24 slices of 13.9 M entries do.
constexpr uint64_t SLICE_LINES = 100;

SolvePoint point(int slice, int ply) { return (SolvePoint(slice) << 32) + ply; }

// A whole table of draws, on huge pages where the kernel gives them, for slices to be merged into.
std::unique_ptr<Table> drawn_table(const Material& m) {
    Table::Bytes bytes;
    for (auto& side : bytes) assign_on_huge_pages(side, IndexScheme(m).size(), Table::DRAW_BYTE);
    return std::make_unique<Table>(m, std::move(bytes), Table::LongValues{});
}

// The whole table's index of a slice's entries taken in increasing order: table_index once a run.
class TableIndexRuns {
public:
    explicit TableIndexRuns(const IndexScheme& slice)
        : slice_(slice), run_(slice.table_run()), stride_(slice.table_run_stride()) {}
    uint64_t operator()(uint64_t i) {
        const uint64_t start = i - i % run_;
        if (start != start_) {
            start_ = start;
            base_ = slice_.table_index(start);
        }
        return base_ + (i - start) * stride_;
    }

private:
    const IndexScheme& slice_;
    const uint64_t run_, stride_;
    uint64_t start_ = ~uint64_t(0), base_ = 0;
};

// Sets the whole table's bits of a slice's entries (`scheme`) that its survey sets.
void merge(const IndexScheme& scheme, const WriteSurvey& slice, WriteSurvey& table) {
    for (Color side : {WHITE, BLACK})
        for (auto [from, to] :
             {std::pair{&slice.legal, &table.legal}, std::pair{&slice.settled, &table.settled}}) {
            const auto& words = from->words[side];
            auto& out = to->words[side];
            par::parallel_for(tbb::blocked_range<size_t>(0, words.size(), 1 << 8), [&](const auto& r) {
                // Neighbouring entries of a slice mostly stay neighbours in the table: their bits are
                // gathered word by word, and a word that other tasks may share is written atomically.
                TableIndexRuns table_index(scheme);
                uint64_t word = 0, gathered = 0;
                const auto flush = [&] {
                    if (gathered)
                        std::atomic_ref<uint64_t>(out[word]).fetch_or(gathered, std::memory_order_relaxed);
                };
                for (size_t w = r.begin(); w < r.end(); ++w)
                    for (uint64_t bits = words[w]; bits; bits &= bits - 1) {
                        const uint64_t i = table_index(w * 64 + uint64_t(std::countr_zero(bits)));
                        if (i >> 6 != word) {
                            flush();
                            word = i >> 6;
                            gathered = 0;
                        }
                        gathered |= EntryBits::bit(i);
                    }
                flush();
            });
        }
}

// Writes a slice's values (a Table over its own index) into the whole table's entries, every one of
// them still a draw.
void merge(const Table& slice, Table& table) {
    for (Color side : {WHITE, BLACK}) {
        const auto& bytes = slice.bytes(side);
        auto& out = table.bytes_to_fill(side);
        par::parallel_for(tbb::blocked_range<uint64_t>(0, bytes.size(), 1 << 14), [&](const auto& r) {
            TableIndexRuns table_index(slice.scheme);
            for (uint64_t i = r.begin(); i < r.end(); ++i)
                if (bytes[i] != Table::DRAW_BYTE) out[table_index(i)] = bytes[i];
        });
        if (slice.long_values(side).empty()) continue;
        std::vector<Table::LongValue> long_values;
        for (const auto& v : slice.long_values(side))
            long_values.push_back({slice.scheme.table_index(v.index), v.value});
        table.add_long_values(side, long_values);
    }
}

// One slice solved, with its survey when solved from the start.
struct SolvedSlice {
    Table values;
    std::optional<WriteSurvey> survey;
};

class TableSolver {
public:
    TableSolver(const Material& m, const TableSource& tables, const SolveOptions& options)
        : material_(m),
          tables_(tables),
          options_(options),
          in_wave_(options),
          start_(std::chrono::steady_clock::now()),
          configs_(m.has_pawns() ? pawn_configs(m) : std::vector<PawnConfig>{}) {
        in_wave_.control.lines = nullptr;
        in_wave_.checkpoint.clear();
        for (int k = 0; k < int(configs_.size()); ++k) slice_number_[configs_[size_t(k)]] = k;
    }

    SolvedTable run() {
        auto resumed = resume();
        if (!material_.has_pawns()) {
            const IndexScheme scheme(material_);
            const ExitProbe exits(scheme, tables_);
            auto values = solve_scheme(setup(scheme, exits, 0, material_.name(), true, false),
                                       resumed ? std::move(resumed->state) : std::nullopt, std::move(log_));
            SolvedTable solved{
                std::make_unique<Table>(material_, std::move(values.bytes), std::move(values.long_values)),
                nullptr, std::move(values.survey)};
            if (solved.survey) count_legal_values(*solved.whole, *solved.survey);
            return solved;
        }
        return solve_slices(resumed);
    }

private:
    std::filesystem::path log_path() const {
        return options_.checkpoint.empty() ? std::filesystem::path() : layer_log_path(options_.checkpoint);
    }

    // The checkpoint found, when it is intact and of this table (with its layer log opened in log_
    // and its slice store in store_).
    std::optional<Checkpoint> resume() {
        const auto& path = options_.checkpoint;
        std::error_code ec;
        if (path.empty() || !std::filesystem::exists(path, ec)) return std::nullopt;
        auto saved = read_checkpoint(path, material_);
        std::string fault;
        if (!saved)
            fault = "is damaged, of another table or of an older version";
        else if (saved->state && saved->state->window != options_.window)
            fault = "was taken with another window";
        else
            try {
                if (saved->state)
                    log_ = std::make_unique<LayerLog>(log_path(), saved->state->log_length,
                                                      saved->state->log_checksum);
                if (material_.has_pawns())
                    store_ = std::make_unique<SliceStore>(slice_store_path(path), material_,
                                                          saved->solved.length, saved->solved.checksum);
            } catch (const SolveError& e) {
                fault = std::string("has no usable layer log (") + e.what() + ")";
            } catch (const StoreError& e) {
                fault = std::string("has no usable slice store (") + e.what() + ")";
            }
        if (!fault.empty()) {
            log_.reset();
            store_.reset();
            const auto damaged = set_aside_checkpoint(path);
            found(std::nullopt, "warning: " + path.string() + " " + fault + "; " +
                                    (damaged.empty() ? "removed" : "set aside as " + damaged.string()) +
                                    ", solving from the start");
            return std::nullopt;
        }
        const int ply = saved->state ? saved->state->next_ply : 0;
        found(point(saved->slice, ply),
              "resuming from " + path.string() + " at " +
                  (material_.has_pawns() ? "slice " + std::to_string(saved->slice + 1) + ", " : "") + "ply " +
                  std::to_string(ply));
        return saved;
    }

    void found(std::optional<SolvePoint> resumed_at, const std::string& message) const {
        if (options_.checkpoint_found)
            options_.checkpoint_found(resumed_at, message);
        else if (options_.control.lines)
            *options_.control.lines << material_.name() << ": " << message << "\n";
    }

    // Writes the checkpoint of slice `slice` (its sweeps' state, or none when it has not begun) and of
    // the slices solved before it, which the slice store holds.
    void checkpoint(int slice, const SolverState* state) const {
        StoredSlices solved;
        if (store_) {
            store_->sync();
            solved = {store_->length(), store_->checksum()};
        }
        write_checkpoint(options_.checkpoint, material_, slice, state, solved);
        if (options_.checkpoint_written)
            options_.checkpoint_written(point(slice, state ? state->next_ply : 0));
    }

    // How the sweeps of a scheme report and checkpoint: a pawnless table or a slice alone, or a small
    // slice solved beside the others of its wave (no lines, no checkpoints, an anonymous layer log).
    SchemeSolve setup(const IndexScheme& scheme, const ExitProbe& exits, int slice, const std::string& label,
                      bool report_plies, bool in_wave) const {
        if (in_wave) return {scheme, exits, in_wave_, label, false, start_, {}, {}};
        return {scheme,
                exits,
                options_,
                label,
                report_plies,
                start_,
                [this, slice](const SolverState* state) {
                    // A pawnless table's first passes leave nothing to keep; a slice's leave the slices
                    // before it.
                    if (state || material_.has_pawns()) checkpoint(slice, state);
                },
                log_path()};
    }

    // The slices in order, each solved before those its pushes reach. The slices of one wave (equal
    // advance) cannot reach one another: small ones are solved side by side, a thread each.
    SolvedTable solve_slices(std::optional<Checkpoint>& resumed) {
        const auto& configs = configs_;
        const int first = resumed ? resumed->slice : 0;
        // The store keeps the slices on disk for checkpoints, and is their only copy when they are
        // to stay there.
        if (!store_ && (options_.slices_on_disk || !options_.checkpoint.empty()))
            store_ = std::make_unique<SliceStore>(
                options_.checkpoint.empty() ? std::filesystem::path() : slice_store_path(options_.checkpoint),
                material_);
        // Held in memory unless they are to stay on disk: every slice solved, for the pushes.
        if (!options_.slices_on_disk)
            for (int k = 0; k < first; ++k) {
                solved_.push_back(store_->read(k));
                surveys_.emplace_back();  // the store keeps none
            }
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
            const bool resumed_here = k == first && resumed && resumed->state;
            const int end = resumed_here ? k + 1 : wave_end(configs, k);
            std::vector<SolvedSlice> solved;
            if (end - k == 1) {
                std::optional<SolverState> state;
                if (resumed_here) state = std::move(resumed->state);
                const IndexScheme scheme(material_, configs[size_t(k)]);
                solved.push_back(solve_slice(scheme, k,
                                             few_slices && !solved_in_waves(material_, options_.waves_below),
                                             false, std::move(state)));
            } else {
                solved = solve_wave(configs, k, end);
            }
            options_.control.tell(Control::Count::SlicesSolved, end, slices);
            for (int j = k; j < end; ++j) {
                SolvedSlice& slice = solved[size_t(j - k)];
                if (store_) store_->append(j, slice.values);
                if (!options_.slices_on_disk) {
                    solved_.push_back(std::make_shared<const Table>(std::move(slice.values)));
                    surveys_.push_back(std::move(slice.survey));
                }
                if (options_.control.lines && ((j + 1) % line_every == 0 || j + 1 == slices))
                    *options_.control.lines << label(j, slices) << " done, " << elapsed() << " s\n";
            }
            if (end - k > 1 && end < slices) checkpoint_batch_if_due(end);
            k = end;
        }
        // Every slice solved: a stop while the table is written resumes with the writing, and the layer
        // log of the last slice is done with.
        if (!options_.checkpoint.empty() && first < slices) {
            checkpoint(slices, nullptr);
            std::filesystem::remove(log_path());
        }
        if (options_.slices_on_disk) return {nullptr, std::move(store_), std::nullopt};
        return assembled();
    }

    // The slices solved as one table. Every slice has entries all over the table, so the whole table
    // is resident after the first merge: with a store, the slices in memory are freed first and read
    // back one at a time (the peak is the table and one slice, not twice the table).
    SolvedTable assembled() {
        if (store_) solved_.clear();
        std::optional<WriteSurvey> survey = merged_surveys();
        std::unique_ptr<Table> table;
        if (store_) {
            // Small slices live on the heap, whose freed pages stay resident: KBPvKP's 1128 slices
            // held 481 MiB beside the whole table until handed back.
            malloc_trim(0);
            table = whole_table(*store_);
        } else {
            table = drawn_table(material_);
            for (auto& slice : solved_) {
                merge(*slice, *table);
                slice.reset();
            }
        }
        if (survey) count_legal_values(*table, *survey);
        return {std::move(table), nullptr, std::move(survey)};
    }

    // The whole table's survey from its slices' (freed as they are merged), when every slice has one.
    std::optional<WriteSurvey> merged_surveys() {
        std::optional<WriteSurvey> survey;
        if (options_.survey_exits &&
            std::ranges::all_of(surveys_, [](const auto& s) { return s.has_value(); })) {
            survey = empty_survey(IndexScheme(material_).size());
            for (size_t k = 0; k < surveys_.size(); ++k) {
                merge(IndexScheme(material_, configs_[k]), *surveys_[k], *survey);
                surveys_[k].reset();
            }
        }
        surveys_.clear();
        return survey;
    }

    std::string label(int k, int slices) const {
        return material_.name() + " slice " + std::to_string(k + 1) + " of " + std::to_string(slices);
    }

    // The end of the slices to solve side by side from k: a batch of k's wave when its slices are
    // small, else k alone (a large slice's loops are parallel themselves).
    int wave_end(const std::vector<PawnConfig>& configs, int k) const {
        if (!solved_in_waves(material_, options_.waves_below)) return k + 1;
        return wave_batch_end(configs, k, tbb::this_task_arena::max_concurrency());
    }

    // After a batch of a wave, whose slices checkpoint nothing themselves: a checkpoint when due.
    void checkpoint_batch_if_due(int end) {
        if (options_.checkpoint.empty()) return;
        const std::chrono::duration<double> since = std::chrono::steady_clock::now() - last_batch_checkpoint_;
        if (since.count() < options_.checkpoint_seconds) return;
        checkpoint(end, nullptr);
        last_batch_checkpoint_ = std::chrono::steady_clock::now();
    }

    // Solves slice k (`scheme`), alone (from its resumed state, when given) or in its wave.
    SolvedSlice solve_slice(const IndexScheme& scheme, int k, bool report_plies, bool in_wave,
                            std::optional<SolverState> state) {
        const SolveOptions& options = in_wave ? in_wave_ : options_;
        const ExitProbe exits(scheme, tables_, push_targets(scheme.slice_config()),
                              options.promotions_in_part
                                  ? read_promotions(scheme, tables_, options.control.stop)
                                  : PromotionTargets{});
        const std::string name = label(k, int(configs_.size()));
        auto values = solve_scheme(setup(scheme, exits, k, name, report_plies, in_wave), std::move(state),
                                   in_wave ? nullptr : std::move(log_));
        return {Table(scheme, std::move(values.bytes), std::move(values.long_values)),
                std::move(values.survey)};
    }

    // Solves the small slices [k, end) of one wave side by side, each by one thread, without
    // checkpoints of their own: a stop drops the wave, which starts over when resumed.
    std::vector<SolvedSlice> solve_wave(const std::vector<PawnConfig>& configs, int k, int end) {
        std::vector<std::optional<SolvedSlice>> solved(size_t(end - k));
        try {
            par::parallel_for(k, end, [&](int j) {
                const IndexScheme scheme(material_, configs[size_t(j)]);
                solved[size_t(j - k)].emplace(solve_slice(scheme, j, false, true, std::nullopt));
            });
        } catch (const Stopped& e) {
            if (e.work() != Stopped::Work::Solving) throw;
            if (!options_.checkpoint.empty()) checkpoint(k, nullptr);
            throw Stopped(Stopped::Work::Solving,
                          material_.name() + ": stopped before slice " + std::to_string(k + 1));
        }
        std::vector<SolvedSlice> out;
        for (auto& t : solved) out.push_back(std::move(*t));
        return out;
    }

    // The slices that the pushes of slice c reach: held in memory, or read back from the store.
    PushTargets push_targets(const PawnConfig& c) const {
        PushTargets targets;
        for (const SliceReached& r : slices_reached(material_, c)) {
            if (!(r.material == material_)) continue;
            const int k = slice_number_.at(r.config);
            targets.push_back(options_.slices_on_disk ? store_->read(k, r.sides) : solved_[size_t(k)]);
        }
        return targets;
    }

    double elapsed() const {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    }

    const Material material_;
    const TableSource& tables_;
    const SolveOptions& options_;
    SolveOptions in_wave_;  // for the slices solved side by side: no lines, no checkpoints
    const std::chrono::steady_clock::time_point start_;
    std::chrono::steady_clock::time_point last_batch_checkpoint_ = start_;
    const std::vector<PawnConfig> configs_;  // a pawn table's slices, in the order they are solved
    std::map<PawnConfig, int> slice_number_;
    std::unique_ptr<LayerLog> log_;                     // of a resumed checkpoint
    std::unique_ptr<SliceStore> store_;                 // a pawn table's solved slices on disk
    std::vector<std::shared_ptr<const Table>> solved_;  // or in memory, in the order of configs_
    std::vector<std::optional<WriteSurvey>> surveys_;   // theirs, for the whole table's writer
};

}  // namespace

std::filesystem::path checkpoint_path(const std::filesystem::path& dir, const Material& m) {
    return dir / (m.name() + ".checkpoint");
}

std::filesystem::path layer_log_path(const std::filesystem::path& checkpoint) {
    return std::filesystem::path(checkpoint).replace_extension(".layers");
}

std::filesystem::path slice_store_path(const std::filesystem::path& checkpoint) {
    return std::filesystem::path(checkpoint).replace_extension(".slices");
}

SolvedTable solve_table(const Material& m, const TableSource& subtables, const SolveOptions& options) {
    return TableSolver(m, subtables, options).run();
}

std::unique_ptr<Table> whole_table(const SliceStore& slices) {
    auto table = drawn_table(slices.material());
    for (int k = 0; k < int(slices.configs().size()); ++k) merge(*slices.read(k), *table);
    return table;
}

std::unique_ptr<Table> solve(const Material& m, const TableSource& subtables, const SolveOptions& options) {
    SolvedTable solved = solve_table(m, subtables, options);
    return solved.whole ? std::move(solved.whole) : whole_table(*solved.slices);
}

}  // namespace retro
