#include "solve/solver.hpp"

#include <tbb/blocked_range.h>

#include <algorithm>
#include <chrono>
#include <ostream>

#include "index/pawn_slices.hpp"
#include "parallel/parallel_for.hpp"
#include "solve/huge_pages.hpp"
#include "solve/scheme_solver.hpp"
#include "store/store_error.hpp"

namespace retro {

namespace {

// A pawn table reports its progress about this many times, whatever its number of slices.
constexpr uint64_t SLICE_LINES = 100;
// The slices of a table with fewer slices than that report each ply too, as a whole table does,
// when they are this large (a few chunks of the sweeps): KRPvKR's 24 slices of 13.9 M entries do,
// KQPvKP's 1128 of 224 K do not.
constexpr uint64_t LARGE_SLICE = uint64_t(1) << 17;

SolvePoint point(int slice, int ply) { return (SolvePoint(slice) << 32) + ply; }

// Writes a slice's values (a Table over its own index) into the whole table's entries, every one of
// them still a draw.
void merge(const Table& slice, Table& table) {
    for (Color side : {WHITE, BLACK}) {
        const auto& bytes = slice.bytes(side);
        auto& out = table.bytes_to_fill(side);
        par::parallel_for(tbb::blocked_range<uint64_t>(0, bytes.size(), 1 << 14), [&](const auto& r) {
            for (uint64_t i = r.begin(); i < r.end(); ++i)
                if (bytes[i] != Table::DRAW_BYTE) out[slice.scheme.table_index(i)] = bytes[i];
        });
        if (slice.long_values(side).empty()) continue;
        std::vector<Table::LongValue> long_values;
        for (const auto& v : slice.long_values(side))
            long_values.push_back({slice.scheme.table_index(v.index), v.value});
        table.add_long_values(side, long_values);
    }
}

class TableSolver {
public:
    TableSolver(const Material& m, const TableSource& tables, const SolveOptions& options)
        : material_(m), tables_(tables), options_(options), start_(std::chrono::steady_clock::now()) {}

    SolvedTable run() {
        auto resumed = resume();
        if (!material_.has_pawns()) {
            const IndexScheme scheme(material_);
            const ExitProbe exits(scheme, tables_);
            auto values = solve_scheme(setup(scheme, exits, 0, material_.name(), true),
                                       resumed ? std::move(resumed->state) : std::nullopt, std::move(log_));
            return {
                std::make_unique<Table>(material_, std::move(values.bytes), std::move(values.long_values)),
                nullptr};
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
        else if (options_.progress)
            *options_.progress << material_.name() << ": " << message << "\n";
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

    SchemeSolve setup(const IndexScheme& scheme, const ExitProbe& exits, int slice, const std::string& label,
                      bool report_plies) const {
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

    // The slices in order, each solved before the next begins, which may reach it by a push.
    SolvedTable solve_slices(std::optional<Checkpoint>& resumed) {
        const auto configs = pawn_configs(material_);
        const int first = resumed ? resumed->slice : 0;
        // The store keeps the slices on disk for checkpoints, and is their only copy when they are
        // to stay there.
        if (!store_ && (options_.slices_on_disk || !options_.checkpoint.empty()))
            store_ = std::make_unique<SliceStore>(
                options_.checkpoint.empty() ? std::filesystem::path() : slice_store_path(options_.checkpoint),
                material_);
        std::unique_ptr<Table> table;
        if (!options_.slices_on_disk) {
            table = all_draws();
            for (int k = 0; k < first; ++k) merge(*store_->read(k), *table);
        }
        const uint64_t line_every = std::max<uint64_t>(1, configs.size() / SLICE_LINES);
        const bool few_slices = configs.size() <= SLICE_LINES;
        for (int k = first; k < int(configs.size()); ++k) {
            if (k > first && options_.stop && options_.stop->load()) {
                if (!options_.checkpoint.empty()) checkpoint(k, nullptr);
                throw SolveInterrupted(material_.name() + ": stopped before slice " + std::to_string(k + 1));
            }
            const IndexScheme scheme(material_, configs[k]);
            const bool plies_reported = few_slices && scheme.size() >= LARGE_SLICE;
            const std::string label = material_.name() + " slice " + std::to_string(k + 1) + " of " +
                                      std::to_string(configs.size());
            std::optional<SolverState> state;
            if (k == first && resumed) state = std::move(resumed->state);
            Table solved = [&] {
                const ExitProbe exits(scheme, tables_, push_targets(configs[k], table.get()),
                                      options_.promotions_in_part
                                          ? read_promotions(scheme, tables_, options_.stop)
                                          : PromotionTargets{});
                auto values = solve_scheme(setup(scheme, exits, k, label, plies_reported), std::move(state),
                                           std::move(log_));
                return Table(scheme, std::move(values.bytes), std::move(values.long_values));
            }();
            if (store_) store_->append(k, solved);
            if (table) merge(solved, *table);
            if (options_.progress && ((k + 1) % line_every == 0 || k + 1 == int(configs.size())))
                *options_.progress << label << " done, " << elapsed() << " s\n";
        }
        // Every slice solved: a stop while the table is written resumes with the writing, and the layer
        // log of the last slice is done with.
        if (!options_.checkpoint.empty() && first < int(configs.size())) {
            checkpoint(int(configs.size()), nullptr);
            std::filesystem::remove(log_path());
        }
        return {std::move(table), options_.slices_on_disk ? std::move(store_) : nullptr};
    }

    // The slices that the pushes of slice c reach: the whole table, or those slices read back.
    PushTargets push_targets(const PawnConfig& c, const Table* whole) const {
        if (whole) return {whole, {}};
        PushTargets targets;
        const auto configs = store_->configs();
        for (const SliceReached& r : slices_reached(material_, c)) {
            if (!(r.material == material_)) continue;
            const int k = int(std::find(configs.begin(), configs.end(), r.config) - configs.begin());
            targets.slices.push_back(store_->read(k, r.sides));
        }
        return targets;
    }

    // The table before its first slice: every entry a draw, on huge pages (the pushes read it at random).
    std::unique_ptr<Table> all_draws() const {
        Table::Bytes bytes;
        for (auto& side : bytes) assign_on_huge_pages(side, IndexScheme(material_).size(), Table::DRAW_BYTE);
        return std::make_unique<Table>(material_, std::move(bytes), Table::LongValues{});
    }

    double elapsed() const {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    }

    const Material material_;
    const TableSource& tables_;
    const SolveOptions& options_;
    const std::chrono::steady_clock::time_point start_;
    std::unique_ptr<LayerLog> log_;      // of a resumed checkpoint
    std::unique_ptr<SliceStore> store_;  // a pawn table's solved slices on disk
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

uint64_t solver_memory_estimate(const Material& m) {
    const uint64_t entries = IndexScheme(m).size();  // one byte per entry and side to move
    return m.has_pawns() ? 2 * (entries + slice_entries(m)) : 2 * entries;
}

SolvedTable solve_table(const Material& m, const TableSource& subtables, const SolveOptions& options) {
    return TableSolver(m, subtables, options).run();
}

std::unique_ptr<Table> whole_table(const SliceStore& slices) {
    auto table = std::make_unique<Table>(slices.material());
    for (int k = 0; k < int(slices.configs().size()); ++k) merge(*slices.read(k), *table);
    return table;
}

std::unique_ptr<Table> solve(const Material& m, const TableSource& subtables, const SolveOptions& options) {
    SolvedTable solved = solve_table(m, subtables, options);
    return solved.whole ? std::move(solved.whole) : whole_table(*solved.slices);
}

}  // namespace retro
