#include "solve/solver.hpp"

#include <tbb/blocked_range.h>
#include <tbb/combinable.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <cassert>
#include <chrono>
#include <cstring>
#include <ostream>
#include <tuple>

#include "chess/movegen.hpp"
#include "chess/unmovegen.hpp"
#include "index/legal_entries.hpp"
#include "parallel/ordered_pipeline.hpp"
#include "parallel/parallel_for.hpp"
#include "solve/checkpoint.hpp"
#include "solve/exits.hpp"
#include "solve/huge_pages.hpp"
#include "solve/layer_log.hpp"

namespace retro {

namespace {

using namespace state;

constexpr uint64_t GRAIN = 1 << 14;
// The layer sweeps walk the index in chunks of this many entries, one layer log record each.
constexpr uint64_t CHUNK = 1 << 16;

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
    // The slot of the man on s; a move's from-square always holds one (encode_moved would read
    // past its table with `men`).
    int slot_on(Square s, int men) const {
        int i = 0;
        while (i < men && placement.square[i] != s) ++i;
        assert(i < men);
        return i;
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
    Solver(const Material& m, const TableSource& tb, const SolveOptions& options)
        : scheme_(m), exits_(scheme_, tb), options_(options), window_(options.window) {}

    std::unique_ptr<Table> run() {
        start_ = last_checkpoint_ = std::chrono::steady_clock::now();
        if (!resume()) {
            log_ = std::make_unique<LayerLog>(log_path(), 0, 0);
            for (Color side : {WHITE, BLACK})
                assign_on_huge_pages(state_.codes[side], scheme().size(), NEVER_LOST);
            initial_pass();
            abandon_if_stopped("its first pass");
            report("captures, mates and stalemates");
            promotion_pass();
            abandon_if_stopped("its promotion pass");
            report("promotions");
            after_ply(0);
        }
        for (int n = state_.next_ply; n <= max_value_.load(); ++n) {
            if (n % window_.refresh() == 0) refresh_far(n);
            if (n % 2 == 0)
                mark_wins_before_losses(n);
            else
                count_down_before_wins(n);
            after_ply(n + 1);
        }
        return finish();
    }

private:
    const IndexScheme& scheme() const { return scheme_; }

    // Next to the checkpoint (dir/KQvKR.layers), or an anonymous temporary file without one.
    std::filesystem::path log_path() const {
        return options_.checkpoint.empty() ? std::filesystem::path() : layer_log_path(options_.checkpoint);
    }

    bool resume() {
        const auto& path = options_.checkpoint;
        std::error_code ec;
        if (path.empty() || !std::filesystem::exists(path, ec)) return false;
        auto saved = read_checkpoint(path, scheme().material());
        std::string fault;
        if (!saved)
            fault = "is damaged or of another table";
        else if (saved->window != window_.size())
            fault = "was taken with another window";
        else
            try {
                log_ = std::make_unique<LayerLog>(log_path(), saved->log_length, saved->log_checksum);
            } catch (const SolveError& e) {
                fault = std::string("has no usable layer log (") + e.what() + ")";
            }
        if (!fault.empty()) {
            const auto damaged = set_aside_checkpoint(path);
            checkpoint_found(std::nullopt,
                             "warning: " + path.string() + " " + fault + "; " +
                                 (damaged.empty() ? "removed" : "set aside as " + damaged.string()) +
                                 ", solving from the start");
            return false;
        }
        state_ = std::move(*saved);
        max_value_ = state_.max_value;
        checkpoint_found(state_.next_ply,
                         "resuming from " + path.string() + " at ply " + std::to_string(state_.next_ply));
        return true;
    }

    void checkpoint_found(std::optional<int> resumed_at, const std::string& message) const {
        if (options_.checkpoint_found)
            options_.checkpoint_found(resumed_at, message);
        else if (options_.progress)
            *options_.progress << scheme().material().name() << ": " << message << "\n";
    }

    // Between plies: checkpoint when due or when asked to stop, then stop if asked.
    void after_ply(int next_ply) {
        state_.next_ply = next_ply;
        const bool stop = stop_requested();
        const auto now = std::chrono::steady_clock::now();
        const bool due =
            std::chrono::duration<double>(now - last_checkpoint_).count() >= options_.checkpoint_seconds;
        if (!options_.checkpoint.empty() && (stop || due)) {
            log_->sync();
            state_.max_value = max_value_.load();
            state_.window = window_.size();
            state_.log_length = log_->length();
            state_.log_checksum = log_->checksum();
            write_checkpoint(options_.checkpoint, scheme().material(), state_);
            last_checkpoint_ = std::chrono::steady_clock::now();
            report("checkpoint at ply " + std::to_string(next_ply));
            if (options_.checkpoint_written) options_.checkpoint_written(next_ply);
        }
        if (stop)
            throw SolveInterrupted(scheme().material().name() + ": stopped at ply " +
                                   std::to_string(next_ply));
    }

    bool stop_requested() const { return options_.stop && options_.stop->load(std::memory_order_relaxed); }

    // The first passes keep no checkpoint (they take a minute or two at most): a stop there drops
    // their work, and the table starts over when resumed.
    void abandon_if_stopped(const std::string& pass) {
        if (!stop_requested()) return;
        log_.reset();  // no checkpoint names it
        if (!log_path().empty()) std::filesystem::remove(log_path());
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

    // The code of a distance found while layer n is swept (raising the largest distance).
    Code decided(int ply, int n) {
        raise_max(ply);
        return window_.fits(ply, n) ? window_.code(ply) : (ply % 2 ? FAR_WIN : FAR_LOSS);
    }

    // The entry of index i, which holds a distance or counter and so is legal.
    Entry load_entry(Color side, uint64_t i) const {
        Entry e;
        e.index = i;
        scheme().decode(i, e.placement);
        e.diagonal = scheme().kings_on_diagonal(e.placement);
        e.pos = scheme().to_position(e.placement);
        e.pos.set_side_to_move(side);
        return e;
    }

    // Calls f(entry) for every legal entry of `side` that is `wanted` by its placement, in parallel
    // blocks. Once a stop is requested the remaining blocks are skipped (see abandon_if_stopped).
    template <class F, class Filter>
    void for_each_wanted_entry(Color side, F&& f, Filter&& wanted) {
        par::parallel_for(tbb::blocked_range<uint64_t>(0, scheme().size(), GRAIN), [&](const auto& r) {
            if (stop_requested()) return;
            for_each_legal_entry(
                scheme(), side, r.begin(), r.end(),
                [&](uint64_t i, const Placement& p, const Position& pos) {
                    f(Entry{i, scheme().kings_on_diagonal(p), p, pos});
                },
                wanted);
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
    static void fold_exit(Dtm reached, int& best_win, bool& drawn) {
        if (is_loss(reached))
            best_win = std::min<int>(best_win, reached + 1);
        else if (is_draw(reached))
            drawn = true;
    }
    static constexpr int NO_WIN = 1 << 30;

    // The code after the exits of an entry coded `code` gave a win bound or a draw, in the first
    // passes (ply 0): a quicker win, or a never-lost mark for an undecided entry.
    Code apply_exits(Code code, int best_win, bool drawn) {
        // A far code already is the quickest exit's bound, derived again from all exits.
        if (best_win != NO_WIN) return quicker(code, best_win, 0) ? decided(best_win, 0) : code;
        return drawn && undecided(code) ? NEVER_LOST : code;
    }

    // The longest win for the opponent among the moves that leave the table (-1 if none), or
    // NO_WIN when one of them does not lose.
    int longest_exit_win(const Entry& e, const MoveList& moves) const {
        int longest = -1;
        for (const Move& m : moves) {
            if (!leaves_table(m)) continue;
            const Dtm v = exits_.value_after(e.placement, e.pos.side_to_move(), m);
            if (!is_win(v)) return NO_WIN;
            longest = std::max<int>(longest, v);
        }
        return longest;
    }
    // The quickest win through the moves that leave the table, or NO_WIN.
    int quickest_exit_win(const Entry& e, const MoveList& moves) const {
        int best_win = NO_WIN;
        bool drawn = false;
        for (const Move& m : moves)
            if (leaves_table(m))
                fold_exit(exits_.value_after(e.placement, e.pos.side_to_move(), m), best_win, drawn);
        return best_win;
    }

    // A position whose every move leaves the table and loses is lost at once: no quiet successor
    // will ever report to it. Returns its code.
    Code settle_if_only_losing_exits(const Entry& e, const MoveList& moves, Code code) {
        if (moves.size == 0) return code;  // stalemate
        const int longest = longest_exit_win(e, moves);
        return longest == NO_WIN ? code : decided(longest + 1, 0);
    }

    static bool promotes(const Move& m) { return m.promotion != NO_PIECE_TYPE; }

    // Mates and stalemates; captures into sub-tables (a capture into a lost position is a win
    // bound, into a drawn one makes the position never lost); the counter of distinct quiet
    // successors for the loss test; double pushes that grant en passant.
    void initial_pass() {
        for (Color side : {WHITE, BLACK}) {
            auto& codes = state_.codes[side];
            tbb::combinable<std::vector<EnPassantEdge>> edges;
            for_each_wanted_entry(
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
                        codes[i] = e.pos.in_check(side) ? decided(0, 0) : NEVER_LOST;  // mate or stalemate
                        return;
                    }
                    int best_win = NO_WIN;
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
                            const auto [capture, only_captures] = en_passant_replies(next);
                            // The pusher's count-down may come at the capture's ply: the plies must reach it.
                            if (is_win(capture)) raise_max(capture);
                            EnPassantEdge edge{i, scheme().encode(next), capture};
                            // With nothing but en passant captures to play, the opponent is not in the
                            // stalemate (or mate) of the entry behind the push: a losing capture is a win
                            // bound for the pusher, as a capture of theirs would be.
                            if (only_captures && is_loss(capture)) {
                                fold_exit(capture, best_win, drawn);
                                if (!window_.fits(capture + 1, 0)) edge.far_win = uint16_t(capture + 1);
                            }
                            edges.local().push_back(edge);
                        }
                        ++quiet;
                    }
                    if (quiet > COUNTER_MAX)
                        throw SolveError(scheme().material().name() + ": a position with more than " +
                                         std::to_string(COUNTER_MAX) + " quiet moves");
                    Code code = apply_exits(Code(quiet), best_win, drawn);
                    if (code == 0 && !any_promotion) code = settle_if_only_losing_exits(e, moves.exits, code);
                    codes[i] = code;
                },
                [](const Placement&) { return true; });
            // In index order, whatever order the threads found them in: checkpoints are reproducible
            // and refresh_far finds an entry's edges by binary search.
            auto& list = state_.edges[side];
            edges.combine_each([&](const auto& v) { list.insert(list.end(), v.begin(), v.end()); });
            std::sort(list.begin(), list.end(), [](const auto& a, const auto& b) {
                return std::tie(a.from, a.next) < std::tie(b.from, b.next);
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

    // The value, for the side to move in pos, of its best en passant capture, and whether the
    // en passant captures are its only moves.
    std::pair<Dtm, bool> en_passant_replies(const Position& pos) const {
        MoveList moves;
        generate_legal_moves(pos, moves);
        const Placement placement = scheme().to_placement(pos);
        Dtm best = 0;  // checkmated: worse than any move (pos has an en passant capture)
        bool only_captures = true;
        for (const Move& m : moves)
            if (m.en_passant) {
                const Dtm v = value_through(exits_.value_after(placement, pos.side_to_move(), m));
                if (better(v, best)) best = v;
            } else {
                only_captures = false;
            }
        return {best, only_captures};
    }

    // Pawns that promote leave for the table with a queen, rook, bishop or knight in their place
    // (a smaller one when they capture as they promote): win bounds or never-lost marks, as captures.
    void promotion_pass() {
        for (Color side : {WHITE, BLACK}) {
            if (!scheme().material().count(side, PAWN)) continue;
            auto& codes = state_.codes[side];
            const auto on_seventh = [&](const Placement& p) {
                for (int s = 2; s < scheme().men(); ++s)
                    if (scheme().piece_of_slot(s) == Piece{side, PAWN} &&
                        relative_rank(side, p.square[s]) == 6)
                        return true;
                return false;
            };
            for_each_wanted_entry(
                side,
                [&](const Entry& e) {
                    const uint64_t i = e.index;
                    if (codes[i] == window_.code(0)) return;  // checkmated
                    MoveList moves;
                    generate_legal_moves(e.pos, moves);
                    int best_win = NO_WIN;
                    bool drawn = false;
                    for (const Move& m : moves)
                        if (promotes(m)) fold_exit(exits_.value_after(e.placement, side, m), best_win, drawn);
                    Code code = apply_exits(codes[i], best_win, drawn);
                    if (code == 0) code = settle_if_only_losing_exits(e, moves, code);
                    codes[i] = code;
                },
                on_seventh);
        }
    }

    // Every window_.refresh() plies: the far distances that now fit the window become pending. A far entry's
    // distance is derived again from its moves, as when it was found: a far win is its quickest
    // winning exit or en passant edge, a far loss its longest exit win plus one.
    void refresh_far(int n) {
        for (Color side : {WHITE, BLACK}) {
            auto& codes = state_.codes[side];
            par::parallel_for(tbb::blocked_range<uint64_t>(0, scheme().size(), GRAIN), [&](const auto& r) {
                for_each_code(codes, r.begin(), r.end(), FAR_WIN, FAR_LOSS, [&](uint64_t i) {
                    const Entry e = load_entry(side, i);
                    MoveList moves;
                    generate_legal_moves(e.pos, moves);
                    const int ply = codes[i] == FAR_LOSS
                                        ? longest_exit_win(e, moves) + 1
                                        : std::min(quickest_exit_win(e, moves), far_edge_win(side, i));
                    assert(ply >= n && ply < NO_WIN);
                    if (window_.fits(ply, n)) codes[i] = window_.code(ply);
                });
            });
        }
    }

    // The quickest win beyond the window that an en passant edge from entry i offered, or NO_WIN.
    int far_edge_win(Color side, uint64_t i) const {
        const auto& edges = state_.edges[side];
        auto it = std::lower_bound(edges.begin(), edges.end(), i,
                                   [](const auto& e, uint64_t x) { return e.from < x; });
        int best = NO_WIN;
        for (; it != edges.end() && it->from == i; ++it)
            if (it->far_win) best = std::min<int>(best, it->far_win);
        return best;
    }

    // Whether one of the eight bytes at p equals n (the classic zero-byte test on p ^ n...n).
    static bool has_byte(const Code* p, Code n) {
        uint64_t w;
        std::memcpy(&w, p, 8);
        w ^= 0x0101010101010101ULL * n;
        return ((w - 0x0101010101010101ULL) & ~w & 0x8080808080808080ULL) != 0;
    }

    // Calls f(i) for every i in [begin, end) whose code is a or b, testing eight codes at a time:
    // most hold other codes.
    template <class F>
    static void for_each_code(const std::vector<Code>& codes, uint64_t begin, uint64_t end, Code a, Code b,
                              F&& f) {
        for (uint64_t i = begin; i < end; ++i) {
            if (i % 8 == 0 && i + 8 <= end && !has_byte(codes.data() + i, a) &&
                !has_byte(codes.data() + i, b)) {
                i += 7;
                continue;
            }
            if (codes[i] == a || codes[i] == b) f(i);
        }
    }

    // The layer n of `side`: calls f(entry) for every entry decided in exactly n plies, logs them
    // and marks them done; returns how many there were. The chunks are scanned in parallel and
    // logged in index order.
    template <class F>
    uint64_t sweep_layer(Color side, int n, F&& f) {
        auto& codes = state_.codes[side];
        const Code wanted = window_.code(n), done = n % 2 ? DONE_WIN : DONE_LOSS;
        const uint64_t chunks = (scheme().size() + CHUNK - 1) / CHUNK;
        uint64_t count = 0;
        par::ordered_pipeline(
            chunks, 4 * size_t(tbb::this_task_arena::max_concurrency()),
            [&](uint64_t c) {
                LayerChunk found;
                const uint64_t end = std::min(scheme().size(), (c + 1) * CHUNK);
                for_each_code(codes, c * CHUNK, end, wanted, wanted, [&](uint64_t i) {
                    f(load_entry(side, i));
                    found.add(i);
                    codes[i] = done;
                });
                return found;
            },
            [&](LayerChunk&& found) {
                if (found.empty()) return;
                log_->append(n, side, found);
                count += found.size();
            });
        return count;
    }

    // Whether a win in `win` plies, within the window, is quicker than what `code` holds.
    bool quicker(Code code, int win, int n) const {
        return undecided(code) || code == NEVER_LOST || code == FAR_WIN ||
               (pending(code) && window_.ply(code, n) % 2 && window_.ply(code, n) > win);
    }

    // Sets `code` to a win in `win` plies if that is quicker. Concurrent offers within a ply all
    // carry the same win, so a plain store is enough. The win counts toward the longest mate only
    // once taken: at the table's longest loss, every predecessor may already win faster.
    void offer_win(Code& code, int win, int n) {
        if (!quicker(load(code), win, n)) return;
        store(code, window_.code(win));
        raise_max(win);
    }

    template <class F>
    void for_each_edge(Color pusher, F&& f) {
        auto& edges = state_.edges[pusher];
        par::parallel_for(tbb::blocked_range<size_t>(0, edges.size(), GRAIN), [&](const auto& r) {
            for (size_t k = r.begin(); k < r.end(); ++k) f(edges[k]);
        });
    }

    // Ply n even: every predecessor of a position lost in n plies wins in n + 1. The en passant
    // edges go first, while the layer's entries still hold their pending code.
    void mark_wins_before_losses(int n) {
        for (Color side : {WHITE, BLACK}) {
            // A double push into this loss wins too, unless en passant saves the opponent.
            auto& theirs = state_.codes[~side];
            const auto& ours = state_.codes[side];
            for_each_edge(~side, [&](EnPassantEdge& edge) {
                if (ours[edge.next] != window_.code(n) || !is_loss(edge.capture)) return;
                offer_edge_win(theirs[edge.from], edge, std::max<int>(n, edge.capture) + 1, n);
            });
        }
        uint64_t found = 0;
        for (Color side : {WHITE, BLACK}) {
            auto& theirs = state_.codes[~side];
            found += sweep_layer(side, n, [&](const Entry& e) {
                const IndexList preds = predecessors(e);
                for (int k = 0; k < preds.size; ++k) offer_win(theirs[preds.items[k]], n + 1, n);
            });
        }
        report_ply(n, found);
    }

    // An en passant edge's win for the pusher: offers from several edges may differ, so the
    // quickest is kept by compare-and-swap; one beyond the window is kept in the edge.
    void offer_edge_win(Code& code, EnPassantEdge& edge, int win, int n) {
        std::atomic_ref<Code> c(code);
        Code old = c.load(std::memory_order_relaxed);
        if (!window_.fits(win, n)) {
            while ((undecided(old) || old == NEVER_LOST) && !c.compare_exchange_weak(old, FAR_WIN)) {
            }
            if (c.load(std::memory_order_relaxed) == FAR_WIN) {
                edge.far_win = uint16_t(win);
                raise_max(win);
            }
            return;
        }
        while (quicker(old, win, n))
            if (c.compare_exchange_weak(old, window_.code(win))) {
                raise_max(win);
                return;
            }
    }

    // One more move of entry p (of `side`) is known to reach a win for the opponent, the last of
    // them in n plies; when none is left the position is lost.
    void count_down(Color side, uint64_t p, int n) {
        Code& code = state_.codes[side][p];
        if (!undecided(load(code))) return;
        const Code before = std::atomic_ref<Code>(code).fetch_sub(1, std::memory_order_relaxed);
        assert(before > 0 && undecided(before));
        if (before != 1) return;
        const Entry e = load_entry(side, p);
        MoveList moves;
        generate_legal_moves(e.pos, moves);
        store(code, decided(std::max<int>(n, longest_exit_win(e, moves)) + 1, n));
    }

    // Ply n odd: each predecessor of a position won in n plies has one move fewer that may avoid
    // losing; at zero it is lost.
    void count_down_before_wins(int n) {
        for (Color side : {WHITE, BLACK}) {
            // A double push reaches a win for the opponent once either the entry behind it or
            // the en passant capture wins for them: count it at the first of the two.
            const auto& theirs = state_.codes[~side];
            for_each_edge(side, [&](const EnPassantEdge& edge) {
                const Code next = theirs[edge.next];
                const int via_next = next == window_.code(n) ? n : next == DONE_WIN ? -1 : NO_WIN;
                const int via_capture = is_win(edge.capture) ? edge.capture : NO_WIN;
                if (std::min(via_next, via_capture) == n) count_down(side, edge.from, n);
            });
        }
        uint64_t found = 0;
        for (Color side : {WHITE, BLACK})
            found += sweep_layer(side, n, [&](const Entry& e) {
                const IndexList preds = predecessors(e);
                for (int k = 0; k < preds.size; ++k) count_down(~side, preds.items[k], n);
            });
        report_ply(n, found);
    }

    // The values: every entry not decided is a draw; the decided ones take their distance from the
    // layer log, in place of their codes (Table's bytes, and its list for the long distances).
    std::unique_ptr<Table> finish() {
        for (auto& codes : state_.codes)
            par::parallel_for(tbb::blocked_range<uint64_t>(0, codes.size(), GRAIN), [&](const auto& r) {
                for (uint64_t i = r.begin(); i < r.end(); ++i) {
                    assert(!pending(codes[i]) && codes[i] != FAR_WIN && codes[i] != FAR_LOSS);
                    if (codes[i] != DONE_WIN && codes[i] != DONE_LOSS) codes[i] = Table::DRAW_BYTE;
                }
            });
        // Reserved to the exact count: a growing list would take up to twice its size at the end.
        Table::LongValues long_values;
        const auto long_count = log_->count_from(Table::LONG_BYTE);
        for (int side = 0; side < 2; ++side) long_values[side].reserve(long_count[side]);
        log_->replay([&](int ply, Color side, uint64_t i) {
            state_.codes[side][i] = Table::byte_of(Dtm(ply));
            if (state_.codes[side][i] == Table::LONG_BYTE) long_values[side].push_back({i, Dtm(ply)});
        });
        report("reading back the layer log's " + std::to_string(log_->length()) + " bytes");
        return std::make_unique<Table>(scheme().material(), std::move(state_.codes), std::move(long_values));
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
    std::unique_ptr<LayerLog> log_;
    const Window window_;
    std::atomic<int> max_value_{0};
    std::chrono::steady_clock::time_point start_, last_checkpoint_;
};

}  // namespace

std::filesystem::path checkpoint_path(const std::filesystem::path& dir, const Material& m) {
    return dir / (m.name() + ".checkpoint");
}

std::filesystem::path layer_log_path(const std::filesystem::path& checkpoint) {
    return std::filesystem::path(checkpoint).replace_extension(".layers");
}

uint64_t solver_memory_estimate(const Material& m) {
    return 2 * IndexScheme(m).size();  // one state byte per entry and side to move
}

std::unique_ptr<Table> solve(const Material& m, const TableSource& subtables, const SolveOptions& options) {
    return Solver(m, subtables, options).run();
}

}  // namespace retro
