// The layer sweeps, one ply at a time: layer n of a side (its entries decided in exactly n plies) is
// found, logged and marked done, and each predecessor of its entries is updated. A predecessor of a
// position lost in n plies wins in n + 1 (OfferWin); a predecessor of a position won in n plies has
// one move fewer that may avoid losing, and is lost when none is left (CountDown).
//
// Finding the updates (sweep_layer) and applying them (OfferWin, CountDown) are separate steps: the
// updates of one ply commute, whichever thread applies them in whatever order, so a solve that holds
// only part of the index may send the updates of entries it does not hold to their holder and apply
// the ones it receives with the same steps.
#pragma once

#include <tbb/task_arena.h>

#include <algorithm>
#include <array>
#include <cassert>

#include "parallel/ordered_pipeline.hpp"
#include "solve/code_scan.hpp"
#include "solve/entry_exits.hpp"
#include "solve/first_pass.hpp"
#include "solve/layer_log.hpp"
#include "solve/neighbours.hpp"

namespace retro {

// The state codes of both sides of the entries this process holds, their addresses kept as values:
// an update's code is then found without the chain of loads (the context, its vectors of codes, the
// first entry held) that the compiler repeats after each atomic.
struct CodesInHand {
    explicit CodesInHand(SchemeContext& c)
        : first{c.state.codes[WHITE].data(), c.state.codes[BLACK].data()},
          begin(c.owned.begin),
          end(c.owned.end) {}
    state::Code& operator()(Color side, uint64_t i) const {
        assert(begin <= i && i < end);
        return first[side][i - begin];
    }
    // Starts loading the code of entry i of `side` for a write, when this process holds it.
    void prefetch(Color side, uint64_t i) const {
        if (i - begin < end - begin) __builtin_prefetch(first[side] + (i - begin), 1);
    }
    std::array<state::Code*, 2> first;
    uint64_t begin, end;
};

// Entry i of `side` is a predecessor of a position lost in n plies: it wins in n + 1 if that is
// quicker. Concurrent offers within a ply all carry the same win, so a plain store is enough. The
// win counts toward the longest mate only once taken: at the table's longest loss, every predecessor
// may already win faster. A quiet move wins quicker than every exit, so no exit settles the entry
// any more.
struct OfferWin {
    SchemeContext& c;
    int n;
    CodesInHand codes{c};
    void operator()(Color side, uint64_t i) const {
        state::Code& code = codes(side, i);
        const state::Code was = load_relaxed(code);
        if (!c.quicker(was, n + 1, n)) return;
        store_relaxed(code, c.decided(side, i, n + 1, n));         // within the window: the win is n + 1
        if (!state::undecided(was)) c.unsettle_in_sweep(side, i);  // undecided: no exit wins or draws
    }
};

// Who applies a ply's updates: one thread alone, or several that may meet on an entry.
enum class Updaters { One, Several };

// The updaters of the arena the caller runs in.
inline Updaters arena_updaters() {
    return tbb::this_task_arena::max_concurrency() == 1 ? Updaters::One : Updaters::Several;
}

// Entry i of `side` is a predecessor of a position won in n plies: one more of its moves is known to
// reach a win for the opponent, the last of them in n plies; when none is left the position is lost,
// in one ply more than the longest of those wins and of its exits' wins.
struct CountDown {
    SchemeContext& c;
    int n;
    CodesInHand codes{c};
    // A thread alone needs no locked decrement, which waits for every store before it.
    Updaters updaters = arena_updaters();
    void operator()(Color side, uint64_t i) const {
        state::Code& code = codes(side, i);
        state::Code now = load_relaxed(code);
        if (now == state::UNCOUNTED) now = count(side, i, code);
        if (!state::undecided(now)) return;
        state::Code before = now;
        if (updaters == Updaters::One)
            store_relaxed(code, state::Code(now - 1));
        else
            before = std::atomic_ref<state::Code>(code).fetch_sub(1, std::memory_order_relaxed);
        assert(before > 0 && state::undecided(before));
        if (before != 1) return;
        lose(side, i);
    }
    // The first count-down to reach an entry whose moves are not counted yet counts them (kept out of
    // the sweep's loop too). Returns the code then held: another thread may have counted it first.
    [[gnu::noinline]] state::Code count(Color side, uint64_t i, state::Code& code) const {
        const state::Code counter = count_late(c.scheme, c.load_entry(side, i));
        if (updaters == Updaters::One) {
            store_relaxed(code, counter);
            return counter;
        }
        state::Code held = state::UNCOUNTED;
        std::atomic_ref<state::Code>(code).compare_exchange_strong(held, counter, std::memory_order_relaxed);
        return held == state::UNCOUNTED ? counter : held;
    }
    // The last count-down's rare path, kept out of the sweep's loop, which inlines operator(). Most
    // entries have no exit: they are lost in n + 1 without being decoded.
    [[gnu::noinline]] void lose(Color side, uint64_t i) const {
        state::Code& code = c.code(side, i);
        if (!c.has_exits(side, i)) {
            store_relaxed(code, c.decided(side, i, n + 1, n));
            return;
        }
        const Entry e = c.load_entry(side, i);
        const ExitWins wins = longest_exit_wins(c.exits, e, leaving_moves(e.pos));
        const int loss = std::max<int>(n, wins.longest) + 1;
        store_relaxed(code, c.decided(side, i, loss, n));
        if (wins.settle(loss)) c.settle_in_sweep(side, i);
    }
};

// Whether layer n of `side` may hold entries: a side with no chunk pending at n is not swept (in
// most tables one side hardly ever loses, the other hardly ever wins).
inline bool may_hold_layer(const SchemeContext& c, Color side, int n) {
    return c.pending.any(side, c.window.code(n));
}

// The chunks of SWEEP_CHUNK entries a layer's sweep takes, of those this process holds.
inline uint64_t layer_chunks(const SchemeContext& c) { return c.pending.chunks(); }

// How many entries' predecessors a layer sweep finds ahead of those it updates.
constexpr size_t PREFETCH_DEPTH = 3;

// What sweep_layer_chunks did: the chunks [first, next) it swept and the entries of the layer in them.
struct SweptChunks {
    uint64_t next;
    uint64_t found;
};

// Chunks [first, end) of layer n of `side`: calls update(~side, p) for every predecessor p of every
// entry decided in exactly n plies, logs those entries and marks them done. The chunks that may hold
// the layer are scanned in parallel and logged in index order. more() is asked before each chunk is
// taken: once it says no, the chunks taken (a few more than those before it said so) end the sweep.
template <class Update, class More>
SweptChunks sweep_layer_chunks(SchemeContext& c, LayerLog& log, Color side, int n, const Update& update,
                               uint64_t first, uint64_t end, const More& more) {
    auto& codes = c.state.codes[side];
    const state::Code wanted = c.window.code(n), done = n % 2 ? state::DONE_WIN : state::DONE_LOSS;
    const uint64_t size = c.owned.size();
    uint64_t count = 0;
    // Only the chunks that may hold the layer pass through the pipeline: its in-order stages pass
    // one chunk at a time, which at many threads costs more than finding an empty chunk's nothing.
    const std::vector<uint64_t> holding = c.pending.holding(side, wanted, first, end);
    const uint64_t swept = par::ordered_pipeline_while(
        holding.size(), 4 * size_t(tbb::this_task_arena::max_concurrency()), more,
        [&](uint64_t k) {
            LayerChunk found;
            const uint64_t chunk = holding[k], last = std::min(size, (chunk + 1) * SWEEP_CHUNK);
            [[maybe_unused]] const bool taken = c.pending.take(side, chunk, wanted);
            assert(taken);
            // The predecessors' codes lie at random, and an atomic count-down waits for its own load
            // before the next starts. So an entry's predecessors are updated only once those of the
            // next PREFETCH_DEPTH entries are found: their codes, prefetched first, arrive meanwhile.
            std::array<IndexList, PREFETCH_DEPTH + 1> preds;
            size_t newest = 0;
            Entry entry;  // the last entry found, from which the next is stepped
            bool first_entry = true;
            const CodesInHand held(c);  // for the prefetches
            // A copy of the update and of the side it updates, local to the chunk: after each atomic
            // the compiler reads them again, one load each from here.
            const auto update_all = [apply = update, other = ~side](IndexList& list) {
                for (int j = 0, size = list.size; j < size; ++j) apply(other, list.items[j]);
                list.size = 0;
            };
            for_each_code(codes, chunk * SWEEP_CHUNK, last, wanted, wanted, [&](uint64_t local) {
                const uint64_t i = c.owned.begin + local;
                newest = (newest + 1) % preds.size();
                IndexList& found_now = preds[newest];
                update_all(found_now);  // the oldest
                if (first_entry)
                    entry = c.load_entry(side, i);
                else
                    c.load_entry_after(i, entry);
                first_entry = false;
                predecessors(c.scheme, entry, found_now);
                for (int j = 0; j < found_now.size; ++j) held.prefetch(~side, found_now.items[j]);
                found.add(i);
                codes[local] = done;
            });
            for (IndexList& list : preds) update_all(list);
            return found;
        },
        [&](LayerChunk&& found) {
            if (found.empty()) return;
            log.append(n, side, found);
            count += found.size();
        });
    return {swept < holding.size() ? holding[swept] : end, count};
}

// The whole layer n of `side` (sweep_layer_chunks).
template <class Update>
uint64_t sweep_layer(SchemeContext& c, LayerLog& log, Color side, int n, const Update& update) {
    return sweep_layer_chunks(c, log, side, n, update, 0, layer_chunks(c), [] { return true; }).found;
}

// Sweeps layer n of both sides: wins offered before the losses of an even n, counters counted down
// before the wins of an odd one. Returns the entries of the layer.
uint64_t sweep_ply(SchemeContext& c, LayerLog& log, int n);

}  // namespace retro
