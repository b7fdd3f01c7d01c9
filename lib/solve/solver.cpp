#include "solve/solver.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <atomic>
#include <chrono>
#include <ostream>

#include "bitmap/bitmap.hpp"
#include "chess/movegen.hpp"
#include "chess/unmovegen.hpp"
#include "solve/dependencies.hpp"

namespace retro {

namespace {

// Solver-only mark: a capture or promotion reaches a draw, so this position is never lost.
constexpr Dtm NOT_LOST = 254;
static_assert(NOT_LOST > DTM_MAX && NOT_LOST != DTM_DRAW);

constexpr uint64_t GRAIN = 1 << 14;

Dtm load(const Dtm& v) { return std::atomic_ref<const Dtm>(v).load(std::memory_order_relaxed); }
void store(Dtm& v, Dtm x) { std::atomic_ref<Dtm>(v).store(x, std::memory_order_relaxed); }

// The sub-tables of one material, looked up without locks from many threads.
class SubTables {
public:
    SubTables(const Material& m, const Tablebase& tb) {
        for (const Material& sub : direct_subtables(m)) {
            auto t = tb.find(sub);
            if (!t) throw SolveError(m.name() + " needs the table " + sub.name() + ", which is missing");
            tables_.push_back(std::move(t));
        }
    }
    Dtm probe(const Position& pos) const {
        const Material m = Material::of(pos);
        if (m.total() == 2) return DTM_DRAW;
        const Material canonical = m.canonical();
        for (const auto& t : tables_)
            if (t->material() == canonical) return probe_table(*t, pos);
        throw SolveError("internal: no sub-table " + canonical.name());
    }

private:
    std::vector<std::shared_ptr<const Table>> tables_;
};

bool leaves_table(const Move& m) { return m.capture || m.en_passant || m.promotion != NO_PIECE_TYPE; }

class Solver {
public:
    Solver(const Material& m, const Tablebase& tb, const SolveOptions& options)
        : table_(std::make_unique<Table>(m)), subtables_(m, tb), options_(options),
          candidates_{Bitmap(table_->scheme.size()), Bitmap(table_->scheme.size())} {}

    std::unique_ptr<Table> run() {
        const auto start = std::chrono::steady_clock::now();
        initial_pass();
        report("initial", start);
        for (int n = 0; n <= max_value_.load(); ++n) {
            if (n % 2 == 0)
                mark_wins_before_losses(Dtm(n));
            else
                find_losses_before_wins(Dtm(n));
            report("layer " + std::to_string(n + 1), start);
        }
        for (auto& values : table_->values)
            for (Dtm& v : values)
                if (v == NOT_LOST) v = DTM_DRAW;
        return std::move(table_);
    }

private:
    const IndexScheme& scheme() const { return table_->scheme; }

    template <class F>
    void for_each_entry(F&& f) {
        tbb::parallel_for(tbb::blocked_range<uint64_t>(0, scheme().size(), GRAIN), [&](const auto& r) {
            for (uint64_t i = r.begin(); i < r.end(); ++i) f(i);
        });
    }

    void raise_max(int v) {
        int cur = max_value_.load(std::memory_order_relaxed);
        while (v > cur && !max_value_.compare_exchange_weak(cur, v)) {
        }
    }

    // Mates, stalemates, and the moves that leave the table: a capture or promotion into a lost
    // sub-table position is a win bound, into a drawn one makes the position never lost.
    void initial_pass() {
        for (Color side : {WHITE, BLACK}) {
            auto& values = table_->values[side];
            for_each_entry([&](uint64_t i) {
                Position pos;
                if (!scheme().decode(i, pos)) return;
                pos.set_side_to_move(side);
                if (!pos.illegality().empty()) return;
                MoveList moves;
                generate_legal_moves(pos, moves);
                if (moves.size == 0) {
                    if (pos.in_check(side)) values[i] = 0;
                    return;
                }
                Dtm best = DTM_DRAW;
                bool drawn_exit = false;
                for (const Move& m : moves) {
                    if (!leaves_table(m)) continue;
                    const Dtm v = subtables_.probe(make_move(pos, m));
                    if (is_loss(v))
                        best = std::min<Dtm>(best, v + 1);
                    else if (is_draw(v))
                        drawn_exit = true;
                }
                values[i] = best != DTM_DRAW ? best : drawn_exit ? NOT_LOST : DTM_DRAW;
                if (best != DTM_DRAW) raise_max(best);
            });
        }
    }

    // Calls f(predecessor index) for every position of the other side that moves into entry i.
    template <class F>
    void for_each_predecessor(Color side, uint64_t i, F&& f) const {
        Position pos;
        scheme().decode(i, pos);
        pos.set_side_to_move(side);
        MoveList unmoves;
        generate_unmoves(pos, unmoves);
        for (const Move& m : unmoves) f(scheme().encode(predecessor(pos, m)));
    }

    template <class F>
    void for_each_with_value(Color side, Dtm n, F&& f) {
        const auto& values = table_->values[side];
        for_each_entry([&](uint64_t i) {
            if (values[i] == n) f(i);
        });
    }

    // Layer n even: every predecessor of a position lost in n plies wins in n + 1.
    void mark_wins_before_losses(Dtm n) {
        for (Color side : {WHITE, BLACK}) {
            auto& theirs = table_->values[~side];
            for_each_with_value(side, n, [&](uint64_t i) {
                for_each_predecessor(side, i, [&](uint64_t p) {
                    const Dtm v = load(theirs[p]);
                    if (v == DTM_DRAW || v == NOT_LOST || (is_win(v) && v > n + 1)) store(theirs[p], Dtm(n + 1));
                });
            });
        }
        raise_max(n + 1);
    }

    // Layer n odd: predecessors of positions won in n plies whose every move reaches a win for the
    // opponent are lost; their distance is one more than the longest of those wins.
    void find_losses_before_wins(Dtm n) {
        for (Color side : {WHITE, BLACK}) {
            const auto& theirs = table_->values[~side];
            Bitmap& candidates = candidates_[~side];
            candidates.clear();
            for_each_with_value(side, n, [&](uint64_t i) {
                for_each_predecessor(side, i, [&](uint64_t p) {
                    if (load(theirs[p]) == DTM_DRAW) candidates.set_atomic(p);
                });
            });
        }
        for (Color side : {WHITE, BLACK}) {
            const Bitmap& candidates = candidates_[side];
            tbb::parallel_for(tbb::blocked_range<uint64_t>(0, candidates.word_count(), GRAIN / 64), [&](const auto& r) {
                candidates.for_each_set(r.begin(), r.end(), [&](uint64_t i) {
                    const Dtm loss = loss_distance(side, i, n);
                    if (loss != DTM_DRAW) {
                        if (loss > DTM_MAX)
                            throw SolveError(table_->material().name() + ": a mate longer than 253 plies");
                        store(table_->values[side][i], loss);
                        raise_max(loss);
                    }
                });
            });
        }
    }

    // The loss distance of entry i if every move reaches a settled win for the opponent, else DRAW.
    Dtm loss_distance(Color side, uint64_t i, Dtm n) const {
        Position pos;
        scheme().decode(i, pos);
        pos.set_side_to_move(side);
        MoveList moves;
        generate_legal_moves(pos, moves);
        const auto& theirs = table_->values[~side];
        int longest = 0;
        for (int pass = 0; pass < 2; ++pass)  // quiet moves first: they fail cheaply and most often
            for (const Move& m : moves) {
                if (leaves_table(m) != (pass == 1)) continue;
                const Position next = make_move(pos, m);
                const Dtm v = pass == 0 ? load(theirs[scheme().encode(next)]) : subtables_.probe(next);
                if (!is_win(v) || (pass == 0 && v > n)) return DTM_DRAW;
                longest = std::max<int>(longest, v);
            }
        return moves.size ? Dtm(std::min(longest + 1, int(NOT_LOST))) : DTM_DRAW;
    }

    void report(const std::string& what, std::chrono::steady_clock::time_point start) const {
        if (!options_.progress) return;
        const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        *options_.progress << table_->material().name() << ": " << what << " done, " << secs << " s\n";
    }

    std::unique_ptr<Table> table_;
    SubTables subtables_;
    SolveOptions options_;
    Bitmap candidates_[2];
    std::atomic<int> max_value_{0};
};

}  // namespace

uint64_t solver_memory_estimate(const Material& m) {
    const uint64_t n = IndexScheme(m).size();
    return 2 * n + 2 * ((n + 63) / 64 * 8);  // a byte per entry and side, a candidate bit per entry and side
}

std::unique_ptr<Table> solve(const Material& m, const Tablebase& subtables, const SolveOptions& options) {
    return Solver(m, subtables, options).run();
}

}  // namespace retro
