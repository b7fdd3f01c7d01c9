// What the passes over one index scheme share (solve/scheme_solver.cpp runs them in order): the
// scheme, its exits and options, the state codes and the window they are taken in, the pending
// flags, the largest distance found and the survey. Each pass is a unit of its own (first_pass,
// far_codes, layer_sweep, final_values) that works on this context; its helpers
// are inline, since the passes call them for every entry and every predecessor.
#pragma once

#include <tbb/blocked_range.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cassert>
#include <optional>
#include <string>

#include "index/rank_split.hpp"
#include "parallel/parallel_for.hpp"
#include "solve/checkpoint.hpp"
#include "solve/pending_chunks.hpp"
#include "solve/scheme_solver.hpp"
#include "store/entry_bits.hpp"

namespace retro {

// The passes walk the index in parallel blocks of this many entries (whole words of the survey).
constexpr uint64_t GRAIN = 1 << 14;

template <class T>
T load_relaxed(const T& v) {
    return std::atomic_ref<const T>(v).load(std::memory_order_relaxed);
}
template <class T>
void store_relaxed(T& v, T x) {
    std::atomic_ref<T>(v).store(x, std::memory_order_relaxed);
}

// One decoded index entry: its placement (for cheap neighbour indices) and position (for moves).
struct Entry {
    uint64_t index;
    bool diagonal;  // both kings on the a1-h8 diagonal: moves may re-orient the board
    Placement placement;
    Position pos;
};

struct SchemeContext {
    // A solve from the start (resumed empty) or from a checkpoint's state; the codes of a solve from
    // the start are allocated by the first pass (first_pass.hpp).
    SchemeContext(const SchemeSetup& s, std::optional<SweepState> resumed)
        : setup(s),
          scheme(s.scheme),
          exits(s.exits),
          options(s.options),
          window(s.options.window),
          owned(s.options.ranks
                    ? king_pair_ranges(s.scheme, s.options.ranks->size())[size_t(s.options.ranks->rank())]
                    : IndexRange{0, s.scheme.size()}) {
        if (!resumed) return;
        state = std::move(*resumed);
        assert(state.exits.words[WHITE].size() == EntryBits::words_for(owned.size()));
        max_value = state.max_value;
        pending.mark_all();
    }

    // The state code of entry i of `side`, which this process holds.
    state::Code& code(Color side, uint64_t i) {
        assert(owned.contains(i));
        return state.codes[side][i - owned.begin];
    }

    bool stop_requested() const { return options.control.stop_requested(); }

    void raise_max(int v) {
        if (v > options.longest_mate)
            throw SolveError(scheme.material().name() + ": a mate longer than " +
                             std::to_string(options.longest_mate) + " plies");
        int cur = max_value.load(std::memory_order_relaxed);
        while (v > cur && !max_value.compare_exchange_weak(cur, v)) {
        }
    }

    // The code of a distance found for entry i of `side` while layer n is swept (raising the
    // largest distance).
    state::Code decided(Color side, uint64_t i, int ply, int n) {
        raise_max(ply);
        return window.fits(ply, n) ? pending_code(side, i, ply)
                                   : (ply % 2 ? state::FAR_WIN : state::FAR_LOSS);
    }
    // The pending code of `ply`, for entry i of `side`: the layer's sweep of that side will read its chunk.
    state::Code pending_code(Color side, uint64_t i, int ply) {
        assert(owned.contains(i));
        const state::Code code = window.code(ply);
        pending.mark(side, i - owned.begin, code);
        return code;
    }

    // Whether a win in `win` plies, within the window, is quicker than what `code` holds.
    bool quicker(state::Code code, int win, int n) const {
        return state::undecided(code) || code == state::NEVER_LOST || code == state::FAR_WIN ||
               (state::pending(code) && window.ply(code, n) % 2 && window.ply(code, n) > win);
    }

    // The entry of index i, which holds a distance or counter and so is legal.
    Entry load_entry(Color side, uint64_t i) const {
        Entry e;
        e.index = i;
        scheme.decode(i, e.placement);
        e.diagonal = scheme.kings_on_diagonal(e.placement);
        e.pos = scheme.to_position(e.placement);
        e.pos.set_side_to_move(side);
        return e;
    }
    // Entry i of e's side, stepped from e (an entry loaded before) when only the fastest man stands
    // elsewhere, as often in a dense layer; loaded otherwise (IndexScheme::place_after).
    void load_entry_after(uint64_t i, Entry& e) const {
        scheme.place_after(e.index, i, e.placement, e.pos);
        e.index = i;
        e.diagonal = scheme.kings_on_diagonal(e.placement);
        assert(e.pos == load_entry(e.pos.side_to_move(), i).pos);
    }

    // Calls f(first, last) for the entries this process holds, in parallel blocks [first, last) of
    // whole GRAINs; once a stop is requested the remaining blocks are skipped (the first pass then
    // starts over when resumed).
    template <class F>
    void for_each_block(F&& f) {
        const uint64_t grains = (owned.size() + GRAIN - 1) / GRAIN;
        par::parallel_for(tbb::blocked_range<uint64_t>(0, grains, 1), [&](const auto& r) {
            if (stop_requested()) return;
            f(owned.begin + r.begin() * GRAIN, std::min(owned.end, owned.begin + r.end() * GRAIN));
        });
    }

    // Whether entry i of `side` has a move that leaves the scheme: set by the first pass, whose tasks
    // hold whole words (for_each_block).
    void mark_exits(Color side, uint64_t i) { state.exits.assign(side, i - owned.begin, true); }
    bool has_exits(Color side, uint64_t i) const { return state.exits.test(side, i - owned.begin); }

    // The survey of a solve from the start (none when resumed), of the entries this process holds
    // (entry i is bit i - owned.begin). In the first pass a task holds whole words of it
    // (for_each_block); in the sweeps several threads may write one word.
    void mark_legal(Color side, uint64_t i) {
        if (survey) survey->legal.assign(side, i - owned.begin, true);
    }
    void mark_settled(Color side, uint64_t i, bool settled) {
        if (survey) survey->settled.assign(side, i - owned.begin, settled);
    }
    void settle_in_sweep(Color side, uint64_t i) {
        if (survey)
            std::atomic_ref<uint64_t>(survey->settled.word(side, i - owned.begin))
                .fetch_or(EntryBits::bit(i - owned.begin), std::memory_order_relaxed);
    }
    void unsettle_in_sweep(Color side, uint64_t i) {
        if (!survey) return;
        std::atomic_ref<uint64_t> word(survey->settled.word(side, i - owned.begin));
        const uint64_t bit = EntryBits::bit(i - owned.begin);
        if (word.load(std::memory_order_relaxed) & bit) word.fetch_and(~bit, std::memory_order_relaxed);
    }

    const SchemeSetup& setup;
    const IndexScheme& scheme;
    const ExitProbe& exits;
    const SolveOptions& options;
    const state::Window window;
    // The entries this process holds, whose codes state.codes keeps (from owned.begin): all of them,
    // or a rank's king pairs.
    const IndexRange owned;
    SweepState state;
    std::optional<WriteSurvey> survey;  // of a solve from the start
    std::atomic<int> max_value{0};
    // Which pending codes each chunk of the entries held may hold (pending_code marks them, the layer
    // sweep takes them).
    PendingChunks pending{owned.size()};
};

}  // namespace retro
