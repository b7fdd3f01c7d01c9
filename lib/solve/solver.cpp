#include "solve/solver.hpp"

#include <tbb/blocked_range.h>

#include <algorithm>
#include <chrono>
#include <ostream>

#include "index/pawn_slices.hpp"
#include "parallel/parallel_for.hpp"
#include "solve/huge_pages.hpp"
#include "solve/scheme_solver.hpp"

namespace retro {

namespace {

// A pawn table reports its progress about this many times, whatever its number of slices.
constexpr uint64_t SLICE_LINES = 100;
// The slices of a table with fewer slices than that report each ply too, as a whole table does,
// when they are this large (a few chunks of the sweeps): KRPvKR's 24 slices of 13.9 M entries do,
// KQPvKP's 1128 of 224 K do not.
constexpr uint64_t LARGE_SLICE = uint64_t(1) << 17;

SolvePoint point(int slice, int ply) { return (SolvePoint(slice) << 32) + ply; }

class TableSolver {
public:
    TableSolver(const Material& m, const TableSource& tables, const SolveOptions& options)
        : material_(m), tables_(tables), options_(options), start_(std::chrono::steady_clock::now()) {}

    std::unique_ptr<Table> run() {
        auto resumed = resume();
        if (!material_.has_pawns()) {
            const IndexScheme scheme(material_);
            const ExitProbe exits(scheme, tables_);
            auto values = solve_scheme(setup(scheme, exits, 0, material_.name(), true),
                                       resumed ? std::move(resumed->state) : std::nullopt, std::move(log_));
            return std::make_unique<Table>(material_, std::move(values.bytes), std::move(values.long_values));
        }
        return solve_slices(resumed);
    }

private:
    std::filesystem::path log_path() const {
        return options_.checkpoint.empty() ? std::filesystem::path() : layer_log_path(options_.checkpoint);
    }

    // The checkpoint found, when it is intact and of this table (with its layer log opened in log_).
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
        else if (saved->state)
            try {
                log_ = std::make_unique<LayerLog>(log_path(), saved->state->log_length,
                                                  saved->state->log_checksum);
            } catch (const SolveError& e) {
                fault = std::string("has no usable layer log (") + e.what() + ")";
            }
        if (!fault.empty()) {
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
    // the values solved before it.
    void checkpoint(int slice, const SolverState* state, const Table* solved) const {
        write_checkpoint(options_.checkpoint, material_, slice, state, solved);
        if (options_.checkpoint_written)
            options_.checkpoint_written(point(slice, state ? state->next_ply : 0));
    }

    SchemeSolve setup(const IndexScheme& scheme, const ExitProbe& exits, int slice, const std::string& label,
                      bool report_plies, const Table* solved = nullptr) const {
        return {scheme,
                exits,
                options_,
                label,
                report_plies,
                start_,
                [this, slice, solved](const SolverState* state) {
                    // A pawnless table's first passes leave nothing to keep; a slice's leave the slices
                    // before it.
                    if (state || solved) checkpoint(slice, state, solved);
                },
                log_path()};
    }

    // The slices in order, each solved into `table` before the next begins, which may reach it.
    std::unique_ptr<Table> solve_slices(std::optional<Checkpoint>& resumed) {
        const auto configs = pawn_configs(material_);
        const int first = resumed ? resumed->slice : 0;
        std::unique_ptr<Table> table = resumed && resumed->solved ? std::move(resumed->solved) : all_draws();
        const uint64_t line_every = std::max<uint64_t>(1, configs.size() / SLICE_LINES);
        // A slice's placements have the table's slots, so one probe serves every slice.
        const IndexScheme whole(material_);
        const ExitProbe exits(whole, tables_, table.get());
        const bool few_slices = configs.size() <= SLICE_LINES;
        for (int k = first; k < int(configs.size()); ++k) {
            if (k > first && options_.stop && options_.stop->load()) {
                if (!options_.checkpoint.empty()) checkpoint(k, nullptr, table.get());
                throw SolveInterrupted(material_.name() + ": stopped before slice " + std::to_string(k + 1));
            }
            const IndexScheme scheme(material_, configs[k]);
            const bool plies_reported = few_slices && scheme.size() >= LARGE_SLICE;
            const std::string label = material_.name() + " slice " + std::to_string(k + 1) + " of " +
                                      std::to_string(configs.size());
            std::optional<SolverState> state;
            if (k == first && resumed) state = std::move(resumed->state);
            auto values = solve_scheme(setup(scheme, exits, k, label, plies_reported, table.get()),
                                       std::move(state), std::move(log_));
            merge(scheme, values, *table);
            if (options_.progress && ((k + 1) % line_every == 0 || k + 1 == int(configs.size())))
                *options_.progress << label << " done, " << elapsed() << " s\n";
        }
        return table;
    }

    // The table before its first slice: every entry a draw, on huge pages (the pushes read it at random).
    std::unique_ptr<Table> all_draws() const {
        Table::Bytes bytes;
        for (auto& side : bytes) assign_on_huge_pages(side, IndexScheme(material_).size(), Table::DRAW_BYTE);
        return std::make_unique<Table>(material_, std::move(bytes), Table::LongValues{});
    }

    // Writes a slice's values into the table's entries (every one of them still a draw).
    static void merge(const IndexScheme& slice, const SchemeValues& values, Table& table) {
        for (Color side : {WHITE, BLACK}) {
            const auto& bytes = values.bytes[side];
            auto& out = table.bytes_to_fill(side);
            par::parallel_for(tbb::blocked_range<uint64_t>(0, bytes.size(), 1 << 14), [&](const auto& r) {
                for (uint64_t i = r.begin(); i < r.end(); ++i)
                    if (bytes[i] != Table::DRAW_BYTE) out[slice.table_index(i)] = bytes[i];
            });
            if (values.long_values[side].empty()) continue;
            std::vector<Table::LongValue> long_values;
            for (const auto& v : values.long_values[side])
                long_values.push_back({slice.table_index(v.index), v.value});
            table.add_long_values(side, long_values);
        }
    }

    double elapsed() const {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    }

    const Material material_;
    const TableSource& tables_;
    const SolveOptions& options_;
    const std::chrono::steady_clock::time_point start_;
    std::unique_ptr<LayerLog> log_;  // of a resumed checkpoint
};

}  // namespace

std::filesystem::path checkpoint_path(const std::filesystem::path& dir, const Material& m) {
    return dir / (m.name() + ".checkpoint");
}

std::filesystem::path layer_log_path(const std::filesystem::path& checkpoint) {
    return std::filesystem::path(checkpoint).replace_extension(".layers");
}

uint64_t solver_memory_estimate(const Material& m) {
    const uint64_t entries = IndexScheme(m).size();  // one byte per entry and side to move
    return m.has_pawns() ? 2 * (entries + slice_entries(m)) : 2 * entries;
}

std::unique_ptr<Table> solve(const Material& m, const TableSource& subtables, const SolveOptions& options) {
    return TableSolver(m, subtables, options).run();
}

}  // namespace retro
