#include "solve/solver.hpp"

#include <tbb/blocked_range.h>
#include <tbb/combinable.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <ostream>

#include "chess/movegen.hpp"
#include "chess/unmovegen.hpp"
#include "index/index_cursor.hpp"
#include "parallel/parallel_for.hpp"
#include "solve/checkpoint.hpp"
#include "solve/exits.hpp"
#include "solve/huge_pages.hpp"

namespace retro {

namespace {

// Counter mark: a capture or promotion reaches a draw, so this position is never lost and needs no
// count of its moves (every value byte is taken by distances and the draw).
constexpr uint8_t NEVER_LOST = 255;

constexpr uint64_t GRAIN = 1 << 14;

template <class T>
T load(const T& v) {
    return std::atomic_ref<const T>(v).load(std::memory_order_relaxed);
}
template <class T>
void store(T& v, T x) {
    std::atomic_ref<T>(v).store(x, std::memory_order_relaxed);
}

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

// Distinct neighbour indices of one entry. Moves that keep the orientation reach distinct indices;
// only a re-oriented one (a king move that needs a symmetry, or any move with both kings on the
// diagonal) may meet another move's index, so only those are checked against the rest.
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
        : scheme_(m), exits_(scheme_, tb), options_(options) {}

    std::unique_ptr<Table> run() {
        start_ = last_checkpoint_ = std::chrono::steady_clock::now();
        if (!resume()) {
            for (Color side : {WHITE, BLACK}) {
                assign_on_huge_pages(state_.values[side], scheme().size(), DTM_DRAW);
                assign_on_huge_pages(state_.counters[side], scheme().size(), uint8_t(0));
            }
            initial_pass();
            abandon_if_stopped("its first pass");
            report("captures, mates and stalemates");
            promotion_pass();
            abandon_if_stopped("its promotion pass");
            report("promotions");
            after_ply(0);
        }
        for (int n = state_.next_ply; n <= max_value_.load(); ++n) {
            if (n % 2 == 0)
                mark_wins_before_losses(Dtm(n));
            else
                count_down_before_wins(Dtm(n));
            after_ply(n + 1);
        }
        return std::make_unique<Table>(scheme().material(), std::move(state_.values));
    }

private:
    const IndexScheme& scheme() const { return scheme_; }

    bool resume() {
        if (options_.checkpoint.empty()) return false;
        auto saved = read_checkpoint(options_.checkpoint, scheme().material());
        if (!saved) return false;
        state_ = std::move(*saved);
        max_value_ = state_.max_value;
        report("resumed from " + options_.checkpoint.string() + " at ply " + std::to_string(state_.next_ply));
        return true;
    }

    // Between plies: checkpoint when due or when asked to stop, then stop if asked.
    void after_ply(int next_ply) {
        state_.next_ply = next_ply;
        const bool stop = stop_requested();
        const auto now = std::chrono::steady_clock::now();
        const bool due =
            std::chrono::duration<double>(now - last_checkpoint_).count() >= options_.checkpoint_seconds;
        if (!options_.checkpoint.empty() && (stop || due)) {
            state_.max_value = max_value_.load();
            write_checkpoint(options_.checkpoint, scheme().material(), state_);
            last_checkpoint_ = std::chrono::steady_clock::now();
            report("checkpoint at ply " + std::to_string(next_ply));
        }
        if (stop)
            throw SolveInterrupted(scheme().material().name() + ": stopped at ply " +
                                   std::to_string(next_ply));
    }

    bool stop_requested() const { return options_.stop && options_.stop->load(std::memory_order_relaxed); }

    // The first passes keep no checkpoint (they take a minute or two at most): a stop there drops
    // their work, and the table starts over when resumed.
    void abandon_if_stopped(const std::string& pass) const {
        if (stop_requested())
            throw SolveInterrupted(scheme().material().name() + ": stopped in " + pass +
                                   ", which starts over when resumed");
    }

    void raise_max(int v) {
        if (v > options_.longest_mate)
            throw SolveError(scheme().material().name() + ": a mate longer than " +
                             std::to_string(options_.longest_mate) + " plies");
        int cur = max_value_.load(std::memory_order_relaxed);
        while (v > cur && !max_value_.compare_exchange_weak(cur, v)) {
        }
    }

    bool load_entry(Color side, uint64_t i, Entry& e) const {
        if (!scheme().decode(i, e.placement)) return false;
        fill_entry(side, i, e);
        return true;
    }
    void fill_entry(Color side, uint64_t i, Entry& e) const {
        e.index = i;
        e.diagonal = scheme().kings_on_diagonal(e.placement);
        e.pos = scheme().to_position(e.placement);
        e.pos.set_side_to_move(side);
    }

    // Calls f(entry) for every entry of `side` that is a legal position and `wanted` by its
    // placement, walking blocks of consecutive entries with a cursor. Once a stop is requested the
    // remaining blocks are skipped (see abandon_if_stopped).
    template <class F, class Filter>
    void for_each_legal_entry(Color side, F&& f, Filter&& wanted) {
        par::parallel_for(tbb::blocked_range<uint64_t>(0, scheme().size(), GRAIN), [&](const auto& r) {
            if (stop_requested()) return;
            Entry e;
            for (IndexCursor cursor(scheme(), r.begin()); cursor.index() < r.end(); cursor.next()) {
                if (!cursor.valid() || !wanted(cursor.placement())) continue;
                e.placement = cursor.placement();
                fill_entry(side, cursor.index(), e);
                if (!e.pos.in_check(~side)) f(e);  // else the side not to move is in check: illegal
            }
        });
    }

    // Adds the index reached when the man on `from` moves to `to`.
    void add_moved(IndexList& list, const Entry& e, Square from, Square to) const {
        bool reoriented;
        const uint64_t idx =
            scheme().encode_moved(e.index, e.placement, e.slot_on(from, scheme().men()), to, &reoriented);
        list.add(idx, reoriented);
    }

    // How many distinct entries the quiet moves reach. Moves of men other than kings keep the
    // orientation and reach distinct entries; only king moves need their indices compared, and
    // all moves when a king move re-orients onto the same king pair or the kings share the diagonal.
    int distinct_successors(const Entry& e, const MoveList& quiet) const {
        const Bitboard kings = e.pos.pieces(KING);
        bool compare_all = e.diagonal;
        for (const Move& m : quiet)
            if (!compare_all && (kings & square_bb(m.from)))
                compare_all = scheme().king_move_returns_to_pair(e.placement, e.slot_on(m.from, 2), m.to);
        IndexList compared;
        int others = 0;
        for (const Move& m : quiet) {
            if (compare_all || (kings & square_bb(m.from)))
                add_moved(compared, e, m.from, m.to);
            else
                ++others;
        }
        return compared.size + others;
    }

    IndexList predecessors(const Entry& e) const {
        MoveList unmoves;
        generate_unmoves(e.pos, unmoves);
        IndexList out;
        for (const Move& m : unmoves) add_moved(out, e, m.to, m.from);
        return out;
    }

    // Folds the value of one move that leaves the table into a win bound or a never-lost mark.
    static void fold_exit(Dtm reached, Dtm& best_win, bool& drawn) {
        if (is_loss(reached))
            best_win = std::min<Dtm>(best_win, reached + 1);
        else if (is_draw(reached))
            drawn = true;
    }
    void apply_exits(Dtm& value, uint8_t& counter, Dtm best_win, bool drawn) {
        if (best_win != DTM_DRAW && (!is_win(value) || best_win < value)) {
            value = best_win;
            raise_max(best_win);
        } else if (drawn && value == DTM_DRAW) {
            counter = NEVER_LOST;
        }
    }

    // The longest win for the opponent among the moves that leave the table (-1 if none), or
    // DTM_DRAW when one of them does not lose.
    int longest_exit_win(const Entry& e, const MoveList& moves) const {
        int longest = -1;
        for (const Move& m : moves) {
            if (!leaves_table(m)) continue;
            const Dtm v = exits_.value_after(e.placement, e.pos.side_to_move(), m);
            if (!is_win(v)) return DTM_DRAW;
            longest = std::max<int>(longest, v);
        }
        return longest;
    }

    // A position whose every move leaves the table and loses is lost at once: no quiet successor
    // will ever report to it.
    void settle_if_only_losing_exits(Color side, const Entry& e, const MoveList& moves) {
        if (moves.size == 0) return;  // stalemate
        const int longest = longest_exit_win(e, moves);
        if (longest == DTM_DRAW) return;
        state_.values[side][e.index] = Dtm(longest + 1);
        raise_max(longest + 1);
    }

    static bool promotes(const Move& m) { return m.promotion != NO_PIECE_TYPE; }

    // Mates and stalemates; captures into sub-tables (a capture into a lost position is a win
    // bound, into a drawn one makes the position never lost); the counter of distinct quiet
    // successors for the loss test; double pushes that grant en passant.
    void initial_pass() {
        for (Color side : {WHITE, BLACK}) {
            auto& values = state_.values[side];
            tbb::combinable<std::vector<EnPassantEdge>> edges;
            for_each_legal_entry(
                side,
                [&](const Entry& e) {
                    const uint64_t i = e.index;
                    MoveSummary moves;
                    int quiet = summarize_legal_moves(e.pos, moves) ? quick_quiet_count(e, moves) : -1;
                    if (quiet < 0) {
                        moves = MoveSummary{};
                        quiet = listed_quiet_count(e, moves);
                    }
                    if (quiet + moves.exits.size + moves.double_pushes.size == 0) {
                        if (e.pos.in_check(side)) values[i] = 0;  // else stalemate: a draw
                        return;
                    }
                    Dtm best_win = DTM_DRAW;
                    bool drawn = false, any_promotion = false;
                    for (const Move& m : moves.exits) {
                        if (promotes(m))
                            any_promotion = true;  // the promotion pass takes these
                        else
                            fold_exit(exits_.value_after(e.placement, side, m), best_win, drawn);
                    }
                    for (const Move& m : moves.double_pushes) {
                        const Position next = make_move(e.pos, m);
                        if (next.ep_square() != NO_SQUARE) {  // an en passant edge rather than a successor
                            const Dtm capture = best_en_passant(next);
                            // The pusher's count-down may come at the capture's ply: the plies must reach it.
                            if (is_win(capture)) raise_max(capture);
                            edges.local().push_back({i, scheme().encode(next), capture});
                        }
                        ++quiet;
                    }
                    state_.counters[side][i] = uint8_t(quiet);
                    apply_exits(values[i], state_.counters[side][i], best_win, drawn);
                    if (quiet == 0 && values[i] == DTM_DRAW && !any_promotion)
                        settle_if_only_losing_exits(side, e, moves.exits);
                },
                [](const Placement&) { return true; });
            edges.combine_each([&](const auto& v) {
                state_.edges[side].insert(state_.edges[side].end(), v.begin(), v.end());
            });
        }
    }

    // The distinct entries the quiet moves of a summary reach, or -1 when the moves must be listed
    // to tell (both kings on the diagonal, or a king move re-oriented onto the same king pair).
    int quick_quiet_count(const Entry& e, const MoveSummary& moves) const {
        if (e.diagonal) return -1;
        for (const Move& m : moves.king_moves)
            if (scheme().king_move_returns_to_pair(e.placement, e.slot_on(m.from, 2), m.to)) return -1;
        // Two king moves meet only through a symmetry that fixes the other king: the transpose or
        // anti-transpose, with that king on their diagonal.
        const Square other = e.pos.king(~e.pos.side_to_move());
        if (file_of(other) != rank_of(other) && file_of(other) != 7 - rank_of(other))
            return moves.quiet_piece_moves + moves.king_moves.size;
        IndexList kings;
        for (const Move& m : moves.king_moves) add_moved(kings, e, m.from, m.to);
        return moves.quiet_piece_moves + kings.size;
    }

    // Generates the moves one by one into moves.exits and moves.double_pushes; returns the number of
    // distinct entries the other quiet moves reach.
    int listed_quiet_count(const Entry& e, MoveSummary& moves) const {
        MoveList all, quiet;
        generate_legal_moves(e.pos, all);
        for (const Move& m : all) {
            if (leaves_table(m))
                moves.exits.push(m);
            else if ((m.to ^ m.from) == 16 && e.pos.type_on(m.from) == PAWN)
                moves.double_pushes.push(m);
            else
                quiet.push(m);
        }
        return distinct_successors(e, quiet);
    }

    // The value, for the side to move in pos, of its best en passant capture.
    Dtm best_en_passant(const Position& pos) const {
        MoveList moves;
        generate_legal_moves(pos, moves);
        const Placement placement = scheme().to_placement(pos);
        Dtm best = DTM_DRAW;
        int best_preference = -100000;
        for (const Move& m : moves)
            if (m.en_passant) {
                const Dtm v = value_through(exits_.value_after(placement, pos.side_to_move(), m));
                if (preference(v) > best_preference) best_preference = preference(v), best = v;
            }
        return best;
    }

    // Pawns that promote leave for the table with a queen, rook, bishop or knight in their place
    // (a smaller one when they capture as they promote): win bounds or never-lost marks, as captures.
    void promotion_pass() {
        for (Color side : {WHITE, BLACK}) {
            if (!scheme().material().count(side, PAWN)) continue;
            auto& values = state_.values[side];
            const auto on_seventh = [&](const Placement& p) {
                for (int s = 2; s < scheme().men(); ++s)
                    if (scheme().piece_of_slot(s) == Piece{side, PAWN} &&
                        relative_rank(side, p.square[s]) == 6)
                        return true;
                return false;
            };
            for_each_legal_entry(
                side,
                [&](const Entry& e) {
                    const uint64_t i = e.index;
                    if (values[i] == 0) return;
                    MoveList moves;
                    generate_legal_moves(e.pos, moves);
                    Dtm best_win = DTM_DRAW;
                    bool drawn = false;
                    for (const Move& m : moves)
                        if (promotes(m)) fold_exit(exits_.value_after(e.placement, side, m), best_win, drawn);
                    apply_exits(values[i], state_.counters[side][i], best_win, drawn);
                    if (state_.counters[side][i] == 0 && values[i] == DTM_DRAW)
                        settle_if_only_losing_exits(side, e, moves);
                },
                on_seventh);
        }
    }

    // Whether one of the eight bytes at p equals n (the classic zero-byte test on p ^ n...n).
    static bool has_byte(const Dtm* p, Dtm n) {
        uint64_t w;
        std::memcpy(&w, p, 8);
        w ^= 0x0101010101010101ULL * n;
        return ((w - 0x0101010101010101ULL) & ~w & 0x8080808080808080ULL) != 0;
    }

    // Calls f(entry) for every entry of `side` whose value is n; returns how many there were.
    template <class F>
    uint64_t for_each_with_value(Color side, Dtm n, F&& f) {
        const auto& values = state_.values[side];
        std::atomic<uint64_t> count{0};
        par::parallel_for(tbb::blocked_range<uint64_t>(0, scheme().size(), GRAIN), [&](const auto& r) {
            uint64_t found = 0;
            for (uint64_t i = r.begin(); i < r.end(); ++i) {
                if (i % 8 == 0 && i + 8 <= r.end() && !has_byte(values.data() + i, n)) {
                    i += 7;  // eight entries at once: most hold other values
                    continue;
                }
                if (values[i] != n) continue;
                Entry e;
                load_entry(side, i, e);
                f(e);
                ++found;
            }
            count += found;
        });
        return count;
    }

    // Whether a win in `win` plies improves on `old`: an unsettled position or a slower win.
    static bool quicker(Dtm old, int win) { return old == DTM_DRAW || (is_win(old) && old > win); }

    // Sets `value` to the win `win` if that is quicker. Concurrent offers within a ply all carry the
    // same win, so a plain store is enough. The win is checked against the longest mate only once
    // taken: at the table's longest loss, every predecessor may already win faster.
    void offer_win(Dtm& value, int win) {
        if (!quicker(load(value), win)) return;
        store(value, Dtm(win));
        raise_max(win);
    }
    // The same when concurrent offers may differ (en passant edges): keeps the quickest.
    void offer_quicker_win(Dtm& value, int win) {
        std::atomic_ref<Dtm> v(value);
        Dtm old = v.load(std::memory_order_relaxed);
        while (quicker(old, win))
            if (v.compare_exchange_weak(old, Dtm(win))) {
                raise_max(win);
                return;
            }
    }

    template <class F>
    void for_each_edge(Color pusher, F&& f) {
        const auto& edges = state_.edges[pusher];
        par::parallel_for(tbb::blocked_range<size_t>(0, edges.size(), GRAIN), [&](const auto& r) {
            for (size_t k = r.begin(); k < r.end(); ++k) f(edges[k]);
        });
    }

    // Ply n even: every predecessor of a position lost in n plies wins in n + 1.
    void mark_wins_before_losses(Dtm n) {
        uint64_t found = 0;
        for (Color side : {WHITE, BLACK}) {
            auto& theirs = state_.values[~side];
            found += for_each_with_value(side, n, [&](const Entry& e) {
                const IndexList preds = predecessors(e);
                for (int k = 0; k < preds.size; ++k) offer_win(theirs[preds.items[k]], n + 1);
            });
            // A double push into this loss wins too, unless en passant saves the opponent.
            auto& ours = state_.values[side];
            for_each_edge(~side, [&](const EnPassantEdge& edge) {
                if (load(ours[edge.next]) != n || !is_loss(edge.capture)) return;
                offer_quicker_win(theirs[edge.from], std::max<int>(n, edge.capture) + 1);
            });
        }
        report_ply(n, found);
    }

    // One more move of entry p (of `side`) is known to reach a win for the opponent, the last of
    // them in n plies; when none is left the position is lost.
    void count_down(Color side, uint64_t p, Dtm n) {
        Dtm& value = state_.values[side][p];
        uint8_t& counter = state_.counters[side][p];
        // NEVER_LOST (255) is more than any position has moves, so it never counts down to zero.
        if (load(value) != DTM_DRAW) return;
        if (std::atomic_ref<uint8_t>(counter).fetch_sub(1, std::memory_order_relaxed) != 1) return;
        Entry e;
        load_entry(side, p, e);
        MoveList moves;
        generate_legal_moves(e.pos, moves);
        const int loss = std::max<int>(n, longest_exit_win(e, moves)) + 1;
        raise_max(loss);
        store(value, Dtm(loss));
    }

    // Ply n odd: each predecessor of a position won in n plies has one move fewer that may avoid
    // losing; at zero it is lost.
    void count_down_before_wins(Dtm n) {
        uint64_t found = 0;
        for (Color side : {WHITE, BLACK}) {
            found += for_each_with_value(side, n, [&](const Entry& e) {
                const IndexList preds = predecessors(e);
                for (int k = 0; k < preds.size; ++k) count_down(~side, preds.items[k], n);
            });
            // A double push reaches a win for the opponent once either the entry behind it or
            // the en passant capture wins for them: count it at the first of the two.
            const auto& theirs = state_.values[~side];
            for_each_edge(side, [&](const EnPassantEdge& edge) {
                const Dtm next = load(theirs[edge.next]);
                const int via_next = is_win(next) && next <= n ? next : 1000;
                const int via_capture = is_win(edge.capture) ? edge.capture : 1000;
                if (std::min(via_next, via_capture) == n) count_down(side, edge.from, n);
            });
        }
        report_ply(n, found);
    }

    void report(const std::string& what) const {
        if (!options_.progress) return;
        *options_.progress << scheme().material().name() << ": " << what << " done, " << elapsed() << " s\n";
    }
    void report_ply(int n, uint64_t found) const {
        if (!options_.progress) return;
        *options_.progress << scheme().material().name() << ": " << (n % 2 ? "won" : "lost") << " in " << n
                           << ": " << found << " entries, " << elapsed() << " s\n";
    }
    double elapsed() const {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    }

    IndexScheme scheme_;
    ExitProbe exits_;
    SolveOptions options_;
    SolverState state_;
    std::atomic<int> max_value_{0};
    std::chrono::steady_clock::time_point start_, last_checkpoint_;
};

}  // namespace

std::filesystem::path checkpoint_path(const std::filesystem::path& dir, const Material& m) {
    return dir / (m.name() + ".checkpoint");
}

uint64_t solver_memory_estimate(const Material& m) {
    return 4 * IndexScheme(m).size();  // a value byte and a counter byte per entry and side to move
}

std::unique_ptr<Table> solve(const Material& m, const Tablebase& subtables, const SolveOptions& options) {
    return Solver(m, subtables, options).run();
}

}  // namespace retro
