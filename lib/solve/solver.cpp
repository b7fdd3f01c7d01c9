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

template <class T>
T load(const T& v) {
    return std::atomic_ref<const T>(v).load(std::memory_order_relaxed);
}
template <class T>
void store(T& v, T x) {
    std::atomic_ref<T>(v).store(x, std::memory_order_relaxed);
}

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

// One decoded index entry: its placement (for cheap neighbour indices) and position (for moves).
struct Entry {
    uint64_t index;
    bool diagonal;  // both kings on the a1-h8 diagonal: moves may re-orient the board
    Placement placement;
    Position pos;
    int slot_on(Square s, int men) const {
        for (int i = 0;; ++i)
            if (i == men || placement.square[i] == s) return i;
    }
};

// Distinct neighbour indices of one entry. Moves of pieces other than kings keep the orientation,
// so their indices differ; a king move or a diagonal-symmetric placement is re-oriented and may
// meet another move's index, so only those are checked against the rest.
struct IndexList {
    std::array<uint64_t, 256> items;
    int size = 0;
    int reoriented = 0;  // items[0, reoriented) came from re-oriented moves
    void add(uint64_t x, bool was_reoriented) {
        if (was_reoriented) {
            for (int i = 0; i < size; ++i)
                if (items[i] == x) return;
            items[size++] = items[reoriented];
            items[reoriented++] = x;
        } else {
            for (int i = 0; i < reoriented; ++i)
                if (items[i] == x) return;
            items[size++] = x;
        }
    }
};

class Solver {
public:
    Solver(const Material& m, const Tablebase& tb, const SolveOptions& options)
        : table_(std::make_unique<Table>(m)), subtables_(m, tb), options_(options) {
        const uint64_t n = scheme().size();
        if (counters_mode())
            for (auto& c : counters_) c.assign(n, 0);
        else
            for (auto& c : candidates_) c = Bitmap(n);
    }

    std::unique_ptr<Table> run() {
        const auto start = std::chrono::steady_clock::now();
        initial_pass();
        report("initial pass", start);
        for (int n = 0; n <= max_value_.load(); ++n) {
            if (n % 2 == 0)
                mark_wins_before_losses(Dtm(n));
            else if (counters_mode())
                count_down_before_wins(Dtm(n));
            else
                find_losses_before_wins(Dtm(n));
            report("ply " + std::to_string(n + 1), start);
        }
        for (auto& values : table_->values)
            for (Dtm& v : values)
                if (v == NOT_LOST) v = DTM_DRAW;
        return std::move(table_);
    }

private:
    const IndexScheme& scheme() const { return table_->scheme; }
    bool counters_mode() const { return options_.loss_test == LossTest::Counters; }

    template <class F>
    void for_each_entry(F&& f) {
        tbb::parallel_for(tbb::blocked_range<uint64_t>(0, scheme().size(), GRAIN), [&](const auto& r) {
            for (uint64_t i = r.begin(); i < r.end(); ++i) f(i);
        });
    }

    void raise_max(int v) {
        if (v > DTM_MAX) throw SolveError(table_->material().name() + ": a mate longer than 253 plies");
        int cur = max_value_.load(std::memory_order_relaxed);
        while (v > cur && !max_value_.compare_exchange_weak(cur, v)) {
        }
    }

    bool load_entry(Color side, uint64_t i, Entry& e) const {
        e.index = i;
        if (!scheme().decode(i, e.placement)) return false;
        e.diagonal = scheme().kings_on_diagonal(e.placement);
        e.pos = scheme().to_position(e.placement);
        e.pos.set_side_to_move(side);
        return true;
    }

    // Adds the index reached when the man on `from` moves to `to`.
    void add_moved(IndexList& list, const Entry& e, Square from, Square to) const {
        const int slot = e.slot_on(from, scheme().men());
        list.add(scheme().encode_moved(e.index, e.placement, slot, to), slot < 2 || e.diagonal);
    }

    IndexList predecessors(const Entry& e) const {
        MoveList unmoves;
        generate_unmoves(e.pos, unmoves);
        IndexList out;
        for (const Move& m : unmoves) add_moved(out, e, m.to, m.from);
        return out;
    }

    // The longest win for the opponent among the moves that leave the table (-1 if none), or
    // DTM_DRAW when one of them does not lose.
    int longest_exit_win(const Position& pos, const MoveList& moves) const {
        int longest = -1;
        for (const Move& m : moves) {
            if (!leaves_table(m)) continue;
            const Dtm v = subtables_.probe(make_move(pos, m));
            if (!is_win(v)) return DTM_DRAW;
            longest = std::max<int>(longest, v);
        }
        return longest;
    }

    // Mates, stalemates, and the moves that leave the table: a capture or promotion into a lost
    // sub-table position is a win bound, into a drawn one makes the position never lost. Counts
    // the distinct quiet successors for the loss test.
    void initial_pass() {
        for (Color side : {WHITE, BLACK}) {
            auto& values = table_->values[side];
            for_each_entry([&](uint64_t i) {
                Entry e;
                if (!load_entry(side, i, e) || !e.pos.illegality().empty()) return;
                MoveList moves;
                generate_legal_moves(e.pos, moves);
                if (moves.size == 0) {
                    if (e.pos.in_check(side)) values[i] = 0;
                    return;
                }
                Dtm best = DTM_DRAW;
                bool drawn_exit = false;
                IndexList quiet;
                for (const Move& m : moves) {
                    if (!leaves_table(m)) {
                        if (counters_mode()) add_moved(quiet, e, m.from, m.to);
                        continue;
                    }
                    const Dtm v = subtables_.probe(make_move(e.pos, m));
                    if (is_loss(v))
                        best = std::min<Dtm>(best, v + 1);
                    else if (is_draw(v))
                        drawn_exit = true;
                }
                if (best != DTM_DRAW) {
                    values[i] = best;
                    raise_max(best);
                } else if (drawn_exit) {
                    values[i] = NOT_LOST;
                } else {
                    settle_if_only_exits(side, e, moves);
                }
                if (counters_mode()) counters_[side][i] = uint8_t(quiet.size);
            });
        }
    }

    static bool has_quiet_move(const MoveList& moves) {
        for (const Move& m : moves)
            if (!leaves_table(m)) return true;
        return false;
    }

    // Every move leaves the table and loses: lost now, no quiet successor will ever report.
    void settle_if_only_exits(Color side, const Entry& e, const MoveList& moves) {
        if (has_quiet_move(moves)) return;
        const int longest = longest_exit_win(e.pos, moves);
        if (longest == DTM_DRAW) return;
        table_->values[side][e.index] = Dtm(longest + 1);
        raise_max(longest + 1);
    }

    template <class F>
    void for_each_with_value(Color side, Dtm n, F&& f) {
        const auto& values = table_->values[side];
        for_each_entry([&](uint64_t i) {
            if (values[i] != n) return;
            Entry e;
            load_entry(side, i, e);
            f(e);
        });
    }

    // Ply n even: every predecessor of a position lost in n plies wins in n + 1.
    void mark_wins_before_losses(Dtm n) {
        for (Color side : {WHITE, BLACK}) {
            auto& theirs = table_->values[~side];
            for_each_with_value(side, n, [&](const Entry& e) {
                const IndexList preds = predecessors(e);
                for (int k = 0; k < preds.size; ++k) {
                    Dtm& v = theirs[preds.items[k]];
                    const Dtm old = load(v);
                    if (old == DTM_DRAW || old == NOT_LOST || (is_win(old) && old > n + 1)) store(v, Dtm(n + 1));
                }
            });
        }
        raise_max(n + 1);
    }

    // The loss distance once every quiet move is known to reach a win of at most n plies.
    Dtm loss_after_all_moves_lose(Color side, uint64_t i, Dtm n) const {
        Entry e;
        load_entry(side, i, e);
        MoveList moves;
        generate_legal_moves(e.pos, moves);
        return Dtm(std::max<int>(n, longest_exit_win(e.pos, moves)) + 1);
    }

    // Ply n odd, counters: each predecessor of a position won in n plies has one move fewer that
    // may avoid losing; at zero it is lost.
    void count_down_before_wins(Dtm n) {
        for (Color side : {WHITE, BLACK}) {
            auto& theirs = table_->values[~side];
            auto& counters = counters_[~side];
            for_each_with_value(side, n, [&](const Entry& e) {
                const IndexList preds = predecessors(e);
                for (int k = 0; k < preds.size; ++k) {
                    const uint64_t p = preds.items[k];
                    if (load(theirs[p]) != DTM_DRAW) continue;
                    if (std::atomic_ref<uint8_t>(counters[p]).fetch_sub(1, std::memory_order_relaxed) != 1) continue;
                    const Dtm loss = loss_after_all_moves_lose(~side, p, n);
                    raise_max(loss);
                    store(theirs[p], loss);
                }
            });
        }
    }

    // Ply n odd, forward test: predecessors of positions won in n plies become candidates; a
    // candidate whose every move reaches a settled win for the opponent is lost.
    void find_losses_before_wins(Dtm n) {
        for (Color side : {WHITE, BLACK}) {
            const auto& theirs = table_->values[~side];
            Bitmap& candidates = candidates_[~side];
            candidates.clear();
            for_each_with_value(side, n, [&](const Entry& e) {
                const IndexList preds = predecessors(e);
                for (int k = 0; k < preds.size; ++k)
                    if (load(theirs[preds.items[k]]) == DTM_DRAW) candidates.set_atomic(preds.items[k]);
            });
        }
        for (Color side : {WHITE, BLACK}) {
            const Bitmap& candidates = candidates_[side];
            tbb::parallel_for(tbb::blocked_range<uint64_t>(0, candidates.word_count(), GRAIN / 64), [&](const auto& r) {
                candidates.for_each_set(r.begin(), r.end(), [&](uint64_t i) {
                    const Dtm loss = forward_loss_test(side, i, n);
                    if (loss == DTM_DRAW) return;
                    raise_max(loss);
                    store(table_->values[side][i], loss);
                });
            });
        }
    }

    // The loss distance of entry i if every quiet move reaches a settled win for the opponent.
    Dtm forward_loss_test(Color side, uint64_t i, Dtm n) const {
        Entry e;
        load_entry(side, i, e);
        MoveList moves;
        generate_legal_moves(e.pos, moves);
        const auto& theirs = table_->values[~side];
        for (const Move& m : moves) {
            if (leaves_table(m)) continue;
            const Dtm v = load(theirs[scheme().encode_moved(e.index, e.placement, e.slot_on(m.from, scheme().men()), m.to)]);
            if (!is_win(v) || v > n) return DTM_DRAW;
        }
        return Dtm(std::max<int>(n, longest_exit_win(e.pos, moves)) + 1);
    }

    void report(const std::string& what, std::chrono::steady_clock::time_point start) const {
        if (!options_.progress) return;
        const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        *options_.progress << table_->material().name() << ": " << what << " done, " << secs << " s\n";
    }

    std::unique_ptr<Table> table_;
    SubTables subtables_;
    SolveOptions options_;
    std::vector<uint8_t> counters_[2];
    Bitmap candidates_[2];
    std::atomic<int> max_value_{0};
};

}  // namespace

uint64_t solver_memory_estimate(const Material& m, LossTest test) {
    const uint64_t n = IndexScheme(m).size();
    const uint64_t values = 2 * n;  // a byte per entry and side to move
    return values + (test == LossTest::Counters ? 2 * n : 2 * ((n + 63) / 64 * 8));
}

std::unique_ptr<Table> solve(const Material& m, const Tablebase& subtables, const SolveOptions& options) {
    return Solver(m, subtables, options).run();
}

}  // namespace retro
