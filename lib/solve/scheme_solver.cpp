#include "solve/scheme_solver.hpp"

#include <tbb/blocked_range.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cassert>
#include <chrono>
#include <cstring>
#include <ostream>

#include "chess/movegen.hpp"
#include "chess/unmovegen.hpp"
#include "index/legal_entries.hpp"
#include "parallel/ordered_pipeline.hpp"
#include "parallel/parallel_for.hpp"
#include "solve/huge_pages.hpp"

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

// One decoded index entry: its placement (for cheap neighbour indices) and position (for moves).
struct Entry {
    uint64_t index;
    bool diagonal;  // both kings on the a1-h8 diagonal: moves may re-orient the board
    Placement placement;
    Position pos;
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
    Solver(const SchemeSolve& setup, std::optional<SolverState> resumed, std::unique_ptr<LayerLog> log)
        : setup_(setup),
          exits_(setup.exits),
          options_(setup.options),
          window_(options_.window),
          log_(std::move(log)) {
        if (resumed) {
            state_ = std::move(*resumed);
            max_value_ = state_.max_value;
            for (auto& side : pending_)
                for (auto& flag : side) flag = true;
        }
    }

    SchemeValues run() {
        last_checkpoint_ = std::chrono::steady_clock::now();
        if (state_.codes[WHITE].empty()) {
            log_ = std::make_unique<LayerLog>(setup_.log_path, 0, 0);
            for (Color side : {WHITE, BLACK})
                assign_on_huge_pages(state_.codes[side], scheme().size(), NEVER_LOST);
            if (options_.survey_exits) survey_ = empty_survey(scheme().size());
            initial_pass();
            abandon_if_stopped("its first pass");
            report("captures, pushes, mates and stalemates");
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
    const IndexScheme& scheme() const { return setup_.scheme; }

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
            setup_.write_checkpoint(&state_);
            last_checkpoint_ = std::chrono::steady_clock::now();
            report("checkpoint at ply " + std::to_string(next_ply));
        }
        if (stop)
            throw Stopped(Stopped::Work::Solving,
                          setup_.label + ": stopped at ply " + std::to_string(next_ply));
    }

    bool stop_requested() const { return options_.control.stop_requested(); }

    // The first passes keep no checkpoint of their own (they take a minute or two at most): a stop
    // there drops their work, and they start over when resumed.
    void abandon_if_stopped(const std::string& pass) {
        if (!stop_requested()) return;
        log_.reset();  // no checkpoint names it
        if (!setup_.log_path.empty()) std::filesystem::remove(setup_.log_path);
        if (!options_.checkpoint.empty()) setup_.write_checkpoint(nullptr);
        throw Stopped(Stopped::Work::Solving,
                      setup_.label + ": stopped in " + pass + ", which starts over when resumed");
    }

    void raise_max(int v) {
        if (v > options_.longest_mate)
            throw SolveError(scheme().material().name() + ": a mate longer than " +
                             std::to_string(options_.longest_mate) + " plies");
        int cur = max_value_.load(std::memory_order_relaxed);
        while (v > cur && !max_value_.compare_exchange_weak(cur, v)) {
        }
    }

    // The code of a distance found for an entry of `side` while layer n is swept (raising the
    // largest distance).
    Code decided(Color side, int ply, int n) {
        raise_max(ply);
        return window_.fits(ply, n) ? pending_code(side, ply) : (ply % 2 ? FAR_WIN : FAR_LOSS);
    }
    // The pending code of `ply`, for an entry of `side`: the layer's sweep of that side will look.
    // Checked before it is set, so that the threads do not take the flag's cache line from each other.
    Code pending_code(Color side, int ply) {
        const Code code = window_.code(ply);
        auto& flag = pending_[side][code];
        if (!flag.load(std::memory_order_relaxed)) flag.store(true, std::memory_order_relaxed);
        return code;
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
    // blocks of whole GRAINs (so of whole words of the survey's bits). Once a stop is requested the
    // remaining blocks are skipped (see abandon_if_stopped).
    template <class F, class Filter>
    void for_each_wanted_entry(Color side, F&& f, Filter&& wanted) {
        const uint64_t grains = (scheme().size() + GRAIN - 1) / GRAIN;
        par::parallel_for(tbb::blocked_range<uint64_t>(0, grains, 1), [&](const auto& r) {
            if (stop_requested()) return;
            for_each_legal_entry(
                scheme(), side, r.begin() * GRAIN, std::min(scheme().size(), r.end() * GRAIN),
                [&](uint64_t i, const Placement& p, const Position& pos) {
                    f(Entry{i, scheme().kings_on_diagonal(p), p, pos});
                },
                wanted);
        });
    }

    // Adds the index reached when the man on `from` moves to `to`.
    void add_moved(IndexList& list, const Entry& e, Square from, Square to) const {
        bool reoriented;
        const uint64_t idx = scheme().encode_moved(
            e.index, e.placement, e.placement.slot_of(from, scheme().men()), to, &reoriented);
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
                compare_all =
                    scheme().king_move_returns_to_pair(e.placement, e.placement.slot_of(m.from, 2), m.to);
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

    // The entries one move back within the scheme: a pawn's step back leaves the slice (the slice it
    // reaches takes this one's values as exits).
    IndexList predecessors(const Entry& e) const {
        MoveList unmoves;
        generate_unmoves(e.pos, unmoves, Unmoves::PiecesOnly);
        IndexList out;
        for (const Move& m : unmoves) add_moved(out, e, m.to, m.from);
        return out;
    }

    // Whether m leaves the table: a capture or a promotion, the exits a file's reader searches
    // (solve/exit_settled.hpp).
    static bool promotes(const Move& m) { return m.promotion != NO_PIECE_TYPE; }
    static bool leaves_table(const Move& m) { return m.capture || promotes(m); }
    // Whether m leaves the scheme: it leaves the table, or moves a pawn (which reaches another slice).
    static bool leaves(const Entry& e, const Move& m) {
        return leaves_table(m) || e.pos.type_on(m.from) == PAWN;
    }
    Dtm exit_value(const Entry& e, const Move& m) const {
        return exits_.value_after(e.pos, e.placement, m, e.index);
    }

    // Whether a move of the side to move may leave the scheme: it has a pawn, or one of its men
    // attacks one of the other side's. Most positions have neither.
    static bool may_leave(const Position& pos) {
        const Color us = pos.side_to_move();
        if (pos.pieces(us, PAWN)) return true;
        const Bitboard occupied = pos.occupied(), theirs = pos.pieces(~us);
        for (int t = KING; t < PAWN; ++t)
            for (Bitboard b = pos.pieces(us, PieceType(t)); b;)
                if (piece_attacks(PieceType(t), pop_lsb(b), occupied) & theirs) return true;
        return false;
    }
    // The legal moves that leave the scheme: captures and pawn moves (none listed when none may).
    static MoveList leaving_moves(const Position& pos) {
        MoveList moves;
        if (may_leave(pos)) generate_legal_captures_and_pawn_moves(pos, moves);
        return moves;
    }

    // Folds the value of one move that leaves the table into a win bound or a never-lost mark.
    static void fold_exit(Dtm reached, int& best_win, bool& drawn) {
        if (is_loss(reached))
            best_win = std::min<int>(best_win, reached + 1);
        else if (is_draw(reached))
            drawn = true;
    }
    static constexpr int NO_WIN = 1 << 30;

    // The exits of one entry folded: into a win bound or a draw kept, over every move that leaves the
    // scheme and over those that leave the table alone.
    struct ExitFold {
        int best_win = NO_WIN, table_win = NO_WIN;
        bool drawn = false, table_drawn = false;
        void add(Dtm reached, bool leaves_table) {
            fold_exit(reached, best_win, drawn);
            if (leaves_table) fold_exit(reached, table_win, table_drawn);
        }
        // Whether a capture or promotion achieves what these exits give the entry: its win bound, or
        // the draw kept when there is no win.
        bool settles() const { return best_win != NO_WIN ? table_win == best_win : table_drawn; }
    };

    // The code after the exits of an entry coded `code` gave a win bound or a draw, in the first
    // passes (ply 0): a quicker win, or a never-lost mark for an undecided entry.
    Code apply_exits(Color side, Code code, int best_win, bool drawn) {
        // A far code already is the quickest exit's bound, derived again from all exits.
        if (best_win != NO_WIN) return quicker(code, best_win, 0) ? decided(side, best_win, 0) : code;
        return drawn && undecided(code) ? NEVER_LOST : code;
    }

    // The longest win for the opponent among the moves that leave the scheme (-1 if none), or NO_WIN
    // when one of them does not lose; and among those that leave the table.
    struct ExitWins {
        int longest = -1, longest_table = -1;
        // Whether a capture or promotion achieves the loss in `plies` these exits allow.
        bool settle(int plies) const { return longest_table + 1 == plies; }
    };
    // The tables promoted into are as large as this one and reached at random: the entries of an
    // entry's promotions are asked for together, then waited for together (KRPvKP solved 5% faster).
    void prefetch_promotions(const Entry& e, const MoveList& moves) const {
        for (const Move& m : moves)
            if (promotes(m)) exits_.prefetch(e.pos.side_to_move(), e.placement, m);
    }
    ExitWins longest_exit_wins(const Entry& e, const MoveList& moves) const {
        prefetch_promotions(e, moves);
        ExitWins wins;
        for (const Move& m : moves) {
            if (!leaves(e, m)) continue;
            const Dtm v = exit_value(e, m);
            if (!is_win(v)) return {NO_WIN, NO_WIN};
            wins.longest = std::max<int>(wins.longest, v);
            if (leaves_table(m)) wins.longest_table = std::max<int>(wins.longest_table, v);
        }
        return wins;
    }
    // The exits among `moves` folded (their quickest win: best_win, or NO_WIN).
    ExitFold fold_exits(const Entry& e, const MoveList& moves) const {
        prefetch_promotions(e, moves);
        ExitFold fold;
        for (const Move& m : moves)
            if (leaves(e, m)) fold.add(exit_value(e, m), leaves_table(m));
        return fold;
    }

    // Entry e's code `code` after its exits among `moves` (a win bound, a draw kept, or a loss at once
    // when every move is a losing exit), in the first passes; surveys whether a capture or promotion
    // settles it.
    Code take_exits(const Entry& e, const MoveList& moves, Code code) {
        const ExitFold fold = fold_exits(e, moves);
        mark_settled(e.pos.side_to_move(), e.index, fold.settles());
        code = apply_exits(e.pos.side_to_move(), code, fold.best_win, fold.drawn);
        return code == 0 ? settle_if_only_losing_exits(e, moves, code) : code;
    }

    // A position whose every move leaves the scheme and loses is lost at once: no quiet successor
    // will ever report to it. Returns its code (and surveys it).
    Code settle_if_only_losing_exits(const Entry& e, const MoveList& moves, Code code) {
        if (moves.size == 0) return code;  // stalemate
        const ExitWins wins = longest_exit_wins(e, moves);
        if (wins.longest == NO_WIN) return code;
        mark_settled(e.pos.side_to_move(), e.index, wins.settle(wins.longest + 1));
        return decided(e.pos.side_to_move(), wins.longest + 1, 0);
    }

    // The survey of a solve from the start (none when resumed). In the first passes a task holds
    // whole words of it (for_each_wanted_entry); in the sweeps several threads may write one word.
    void mark_legal(Color side, uint64_t i) {
        if (survey_) survey_->legal.assign(side, i, true);
    }
    void mark_settled(Color side, uint64_t i, bool settled) {
        if (survey_) survey_->settled.assign(side, i, settled);
    }
    void mark_settled_in_sweep(Color side, uint64_t i, bool settled) {
        if (!survey_) return;
        std::atomic_ref<uint64_t> word(survey_->settled.word(side, i));
        const uint64_t bit = EntryBits::bit(i);
        if (settled)
            word.fetch_or(bit, std::memory_order_relaxed);
        else if (word.load(std::memory_order_relaxed) & bit)
            word.fetch_and(~bit, std::memory_order_relaxed);
    }

    // Mates and stalemates; captures into sub-tables and pushes into earlier slices (a move into a
    // lost position is a win bound, into a drawn one makes the position never lost); the counter of
    // distinct quiet successors for the loss test.
    void initial_pass() {
        for (Color side : {WHITE, BLACK}) {
            auto& codes = state_.codes[side];
            for_each_wanted_entry(
                side,
                [&](const Entry& e) {
                    const uint64_t i = e.index;
                    mark_legal(side, i);
                    MoveSummary moves;
                    int quiet = summarize_legal_moves(e.pos, moves) ? quick_quiet_count(e, moves) : -1;
                    if (quiet < 0) {
                        moves = MoveSummary{};
                        quiet = listed_quiet_count(e, moves);
                    }
                    if (quiet + moves.exits.size == 0) {
                        codes[i] =
                            e.pos.in_check(side) ? decided(side, 0, 0) : NEVER_LOST;  // mate or stalemate
                        return;
                    }
                    if (quiet > COUNTER_MAX)
                        throw SolveError(scheme().material().name() + ": a position with more than " +
                                         std::to_string(COUNTER_MAX) + " quiet moves");
                    if (std::ranges::any_of(moves.exits, promotes)) {
                        codes[i] = Code(quiet);  // the promotion pass folds all its exits
                        return;
                    }
                    codes[i] = take_exits(e, moves.exits, Code(quiet));
                },
                [](const Placement&) { return true; });
        }
    }

    // The distinct entries the quiet moves of a summary reach, or -1 when the moves must be listed
    // to tell (both kings on the diagonal, or a king move re-oriented onto the same king pair).
    int quick_quiet_count(const Entry& e, const MoveSummary& moves) const {
        if (e.diagonal) return -1;
        const int quiet = moves.quiet_piece_moves + moves.king_moves.size;
        // A king move meets another quiet move's entry only through a symmetry that fixes the other
        // king: in a pawnless table, the transpose or anti-transpose with that king on its diagonal.
        if (scheme().has_pawns() || moves.king_moves.size == 0) return quiet;
        const Square other = e.pos.king(~e.pos.side_to_move());
        const Symmetry fixing = file_of(other) == rank_of(other)       ? TRANSPOSE
                                : file_of(other) == 7 - rank_of(other) ? ANTI_TRANSPOSE
                                                                       : IDENTITY;
        if (fixing == IDENTITY) return quiet;
        for (const Move& m : moves.king_moves)
            if (scheme().king_move_returns_to_pair(e.placement, e.placement.slot_of(m.from, 2), m.to))
                return -1;
        return quiet - king_moves_met(e.pos, moves.king_moves, fixing);
    }

    // How many of the king's quiet moves reach the entry of another of them: none unless symmetry s
    // maps every other man onto a like man; then each pair of targets that s swaps counts once.
    static int king_moves_met(const Position& pos, const MoveList& king_moves, Symmetry s) {
        const Bitboard occupied = pos.occupied();
        for (Bitboard men = occupied & ~square_bb(king_moves.moves[0].from); men;) {
            const Square x = pop_lsb(men), y = apply_symmetry(s, x);
            if (!(occupied & square_bb(y)) || pos.type_on(y) != pos.type_on(x) ||
                pos.color_on(y) != pos.color_on(x))
                return 0;
        }
        Bitboard targets = 0;
        for (const Move& m : king_moves) targets |= square_bb(m.to);
        int swapped = 0;  // targets whose image is another target
        for (Bitboard t = targets; t;) {
            const Square x = pop_lsb(t), y = apply_symmetry(s, x);
            swapped += y != x && (targets & square_bb(y));
        }
        return swapped / 2;
    }

    // Generates the moves one by one into moves.exits; returns the number of distinct entries the
    // other (quiet) moves reach.
    int listed_quiet_count(const Entry& e, MoveSummary& moves) const {
        MoveList all, quiet;
        generate_legal_moves(e.pos, all);
        for (const Move& m : all) {
            if (leaves(e, m))
                moves.exits.push(m);
            else
                quiet.push(m);
        }
        return distinct_successors(e, quiet);
    }

    // Pawns that promote leave for the table with a queen, rook, bishop or knight in their place
    // (a smaller one when they capture as they promote): win bounds or never-lost marks, as captures.
    // A position that can promote takes all its exits here, the others in the first pass.
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
                    if (std::ranges::none_of(moves, promotes)) return;  // a blocked pawn: the first pass did
                    codes[i] = take_exits(e, moves, codes[i]);
                },
                on_seventh);
        }
    }

    // Every window_.refresh() plies: the far distances that now fit the window become pending. A far entry's
    // distance is derived again from its moves, as when it was found: a far win is its quickest
    // winning exit, a far loss its longest exit win plus one.
    void refresh_far(int n) {
        for (Color side : {WHITE, BLACK}) {
            auto& codes = state_.codes[side];
            par::parallel_for(tbb::blocked_range<uint64_t>(0, scheme().size(), GRAIN), [&](const auto& r) {
                for_each_code(codes, r.begin(), r.end(), FAR_WIN, FAR_LOSS, [&](uint64_t i) {
                    const Entry e = load_entry(side, i);
                    const MoveList moves = leaving_moves(e.pos);
                    const int ply = codes[i] == FAR_LOSS ? longest_exit_wins(e, moves).longest + 1
                                                         : fold_exits(e, moves).best_win;
                    assert(ply >= n && ply < NO_WIN);
                    if (window_.fits(ply, n)) codes[i] = pending_code(side, ply);
                });
            });
        }
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
    // logged in index order. A side with no entry pending at n is not scanned: in most tables one
    // side hardly ever loses, the other hardly ever wins. No entry becomes pending at n while
    // layer n is swept (its wins and losses are n + 1 or longer), so the flag is cleared after.
    template <class F>
    uint64_t sweep_layer(Color side, int n, F&& f) {
        auto& codes = state_.codes[side];
        const Code wanted = window_.code(n), done = n % 2 ? DONE_WIN : DONE_LOSS;
        if (!pending_[side][wanted].load(std::memory_order_relaxed)) return 0;
        pending_[side][wanted].store(false, std::memory_order_relaxed);
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

    // Sets entry i's code to a win in `win` plies if that is quicker. Concurrent offers within a ply
    // all carry the same win, so a plain store is enough. The win counts toward the longest mate only
    // once taken: at the table's longest loss, every predecessor may already win faster. A quiet move
    // wins quicker than every exit, so no exit settles the entry any more.
    void offer_win(Color side, uint64_t i, int win, int n) {
        Code& code = state_.codes[side][i];
        const Code was = load(code);
        if (!quicker(was, win, n)) return;
        store(code, decided(side, win, n));                          // within the window: win is n + 1
        if (!undecided(was)) mark_settled_in_sweep(side, i, false);  // undecided: no exit wins or draws
    }

    // Ply n even: every predecessor of a position lost in n plies wins in n + 1.
    void mark_wins_before_losses(int n) {
        uint64_t found = 0;
        for (Color side : {WHITE, BLACK})
            found += sweep_layer(side, n, [&](const Entry& e) {
                const IndexList preds = predecessors(e);
                for (int k = 0; k < preds.size; ++k) offer_win(~side, preds.items[k], n + 1, n);
            });
        report_ply(n, found);
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
        const ExitWins wins = longest_exit_wins(e, leaving_moves(e.pos));
        const int loss = std::max<int>(n, wins.longest) + 1;
        store(code, decided(side, loss, n));
        if (wins.settle(loss)) mark_settled_in_sweep(side, p, true);
    }

    // Ply n odd: each predecessor of a position won in n plies has one move fewer that may avoid
    // losing; at zero it is lost.
    void count_down_before_wins(int n) {
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
    SchemeValues finish() {
        for (auto& codes : state_.codes)
            par::parallel_for(tbb::blocked_range<uint64_t>(0, codes.size(), GRAIN), [&](const auto& r) {
                for (uint64_t i = r.begin(); i < r.end(); ++i) {
                    assert(!pending(codes[i]) && codes[i] != FAR_WIN && codes[i] != FAR_LOSS);
                    if (codes[i] != DONE_WIN && codes[i] != DONE_LOSS) codes[i] = Table::DRAW_BYTE;
                }
            });
        // Reserved to the exact count: a growing list would take up to twice its size at the end.
        SchemeValues values;
        const auto long_count = log_->count_from(Table::LONG_BYTE);
        for (int side = 0; side < 2; ++side) values.long_values[side].reserve(long_count[side]);
        log_->replay([&](int ply, Color side, uint64_t i) {
            state_.codes[side][i] = Table::byte_of(Dtm(ply));
            if (state_.codes[side][i] == Table::LONG_BYTE) values.long_values[side].push_back({i, Dtm(ply)});
        });
        if (setup_.report_plies)
            report("reading back the layer log's " + std::to_string(log_->length()) + " bytes");
        values.bytes = std::move(state_.codes);
        values.survey = std::move(survey_);
        return values;
    }

    void report(const std::string& what) const {
        if (!options_.control.lines || !setup_.report_plies) return;
        *options_.control.lines << setup_.label << ": " << what << " done, " << elapsed() << " s\n";
    }
    void report_ply(int n, uint64_t found) const {
        if (!options_.control.lines || !setup_.report_plies) return;
        *options_.control.lines << setup_.label << ": " << (n % 2 ? "won" : "lost") << " in " << n << ": "
                                << found << " entries, " << elapsed() << " s\n";
    }
    double elapsed() const {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - setup_.start).count();
    }

    const SchemeSolve& setup_;
    const ExitProbe& exits_;
    const SolveOptions& options_;
    const Window window_;
    SolverState state_;
    std::unique_ptr<LayerLog> log_;
    std::optional<WriteSurvey> survey_;  // of a solve from the start
    std::atomic<int> max_value_{0};
    // By side and code: whether an entry may hold that pending code (pending_code sets it,
    // sweep_layer clears it). All set when a solve is resumed: its state says nothing of them.
    std::array<std::array<std::atomic<bool>, 256>, 2> pending_{};
    std::chrono::steady_clock::time_point last_checkpoint_;
};

}  // namespace

SchemeValues solve_scheme(const SchemeSolve& s, std::optional<SolverState> resumed,
                          std::unique_ptr<LayerLog> log) {
    return Solver(s, std::move(resumed), std::move(log)).run();
}

}  // namespace retro
